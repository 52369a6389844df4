import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebcapError } from '../../../manifests/errors.js';
import type { Manifest } from '../../../manifests/load.js';
import { CausalChain } from '../../../host/chain/chain.js';
import { verifyChain } from '../../../host/chain/verify.js';
import { auditPolicy } from '../../../host/policies/audit.js';
import { compose } from '../../../host/policies/compose.js';
import type { CallContext, Policy } from '../../../host/policies/types.js';
import { Redactor } from '../../../host/redact/redactor.js';

const manifest = (id: string, sensitive?: string[]) => ({ id, sensitive_params: sensitive } as unknown as Manifest);
const ctx = (capability: string, params: Record<string, unknown>, sensitive?: string[]): CallContext => ({
  capability, manifest: manifest(capability, sensitive), params, planId: 'plan-7', decisions: [], startedAt: Date.now(),
});
const entries = () => readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l));

let path: string;
let chain: CausalChain;
let redactor: Redactor;
beforeEach(async () => {
  path = join(mkdtempSync(join(tmpdir(), 'webcap-audit-')), 'chain.jsonl');
  chain = await CausalChain.open(path);
  redactor = new Redactor();
});
afterEach(() => chain.close());

const allow: Policy = async (call, next) => { call.decisions.push({ policy: 'allowlist', decision: 'allowed', reason: 'shop.test matches *.test' }); return next(); };
const deny: Policy = async (call) => {
  call.decisions.push({ policy: 'allowlist', decision: 'denied', reason: 'evil.test is not in domains_allowlist' });
  throw new WebcapError('not_allowlisted', 'evil.test is not allowlisted (token=abc123)');
};

describe('auditPolicy', () => {
  it('records a success, redacted and on disk before the caller gets the result', async () => {
    const run = compose([auditPolicy(chain, redactor), allow], async () => ({ session: 's1', title: 'Welcome bob@example.org' }));
    const result = await run(ctx('web.open', { url: 'https://shop.test/?api_key=k123' }));
    expect(result).toEqual({ session: 's1', title: 'Welcome bob@example.org' }); // the caller gets the real result
    const [e] = entries(); // already on disk when run() resolved
    expect(e).toMatchObject({
      seq: 1, kind: 'call', plan_id: 'plan-7', session: 's1', capability: 'web.open',
      params: { url: 'https://shop.test/?api_key=[REDACTED]' },
      decision: { policy: 'allowlist', decision: 'allowed' },
      result: { session: 's1', title: 'Welcome [REDACTED]' }, error: null,
    });
    expect(e.decisions).toHaveLength(1);
    expect(typeof e.duration_ms).toBe('number');
  });

  it('records a denial with the denying decision and rethrows the WebcapError', async () => {
    const run = compose([auditPolicy(chain, redactor), allow, deny], async () => ({}));
    await expect(run(ctx('web.open', { url: 'https://evil.test/' }))).rejects.toMatchObject({ code: 'not_allowlisted' });
    const [e] = entries();
    expect(e).toMatchObject({
      capability: 'web.open', result: null,
      error: { code: 'not_allowlisted', message: 'evil.test is not allowlisted (token=[REDACTED])' },
      decision: { policy: 'allowlist', decision: 'denied', reason: 'evil.test is not in domains_allowlist' },
    });
    expect(e.decisions.map((d: { decision: string }) => d.decision)).toEqual(['allowed', 'denied']);
  });

  it('turns a foreign error into internal, and hides sensitive params', async () => {
    const run = compose([auditPolicy(chain, redactor)], async () => { throw new TypeError('boom'); });
    const params = { cookies: [{ name: 'sid', value: 'v' }] };
    await expect(run(ctx('web.cookies.set', params, ['cookies']))).rejects.toMatchObject({ code: 'internal', message: 'boom' });
    expect(entries()[0]).toMatchObject({ params: { cookies: '[REDACTED]' }, decision: null, error: { code: 'internal' } });
  });

  it('fails the call with internal when the chain cannot be written', async () => {
    await chain.close();
    const run = compose([auditPolicy(chain, redactor)], async () => ({ ok: true }));
    await expect(run(ctx('web.click', { selector: 'a' }))).rejects.toMatchObject({ code: 'internal', message: /causal chain/ });
  });

  it('keeps the chain valid over many audited calls', async () => {
    const run = compose([auditPolicy(chain, redactor), allow], async () => ({ ok: true }));
    await Promise.all(Array.from({ length: 20 }, (_, i) => run(ctx('web.click', { selector: `#b${i}` }))));
    expect(verifyChain(path)).toMatchObject({ ok: true, entries: 20 });
  });
});
