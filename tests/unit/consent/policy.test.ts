import { describe, expect, it } from 'vitest';
import type { ConsentQuestion } from '../../../host/consent/asker.js';
import { ConsentGate, type ConsentRecord } from '../../../host/consent/gate.js';
import type { WebcapConfig } from '../../../host/config/types.js';
import { consentPolicy } from '../../../host/policies/consent.js';
import type { CallContext } from '../../../host/policies/types.js';
import type { Approval, Manifest } from '../../../manifests/load.js';

function run(approval: Approval, over: Partial<WebcapConfig['consent']> = {}, approve = true, id = 'web.cookies.set') {
  const config: WebcapConfig['consent'] = { non_interactive: 'deny', require: [], waive: [], approval_ttl_s: 60, gate_requests: true, timeout_s: 300, ...over };
  const asked: ConsentQuestion[] = [];
  const records: ConsentRecord[] = [];
  const gate = new ConsentGate({ config, asker: async (q) => (asked.push(q), approve), record: async (r) => { records.push(r); } });
  const manifest = { id, approval, sensitive_params: ['cookies'] } as unknown as Manifest;
  const call: CallContext = {
    capability: id, manifest, params: { cookies: [{ name: 'sid', value: 'x' }], session: 's1' },
    session: 's1', url: new URL('https://shop.test/cart'), decisions: [], startedAt: 0,
  };
  let forwarded = false;
  const result = consentPolicy(gate, config)(call, async () => { forwarded = true; return { ok: true }; });
  return { result, asked, records, call, forwarded: () => forwarded };
}

describe('consentPolicy', () => {
  it("asks for 'always' manifests, then forwards", async () => {
    const t = run('always');
    await expect(t.result).resolves.toEqual({ ok: true });
    expect(t.asked[0]).toMatchObject({ reason: 'approval_always', origin: 'https://shop.test', question: 'Allow web.cookies.set on "https://shop.test"?' });
    expect(JSON.stringify(t.asked[0].details)).not.toContain('sid');
    expect(t.call.decisions).toEqual([{ policy: 'consent', decision: 'allowed', reason: 'approval_always', details: { capability: 'web.cookies.set', origin: 'https://shop.test', source: 'asker' } }]);
  });

  it("does not ask for 'never' or 'sensitive' manifests", async () => {
    for (const approval of ['never', 'sensitive'] as const) {
      const t = run(approval, {}, false);
      await expect(t.result).resolves.toEqual({ ok: true });
      expect(t.asked).toHaveLength(0);
      expect(t.call.decisions).toEqual([]);
    }
  });

  it('asks for ids in [consent] require, even sensitive ones', async () => {
    const t = run('sensitive', { require: ['web.fill'] }, true, 'web.fill');
    await t.result;
    expect(t.asked[0]).toMatchObject({ capability: 'web.fill', reason: 'config_require' });
  });

  it('does not ask for waived ids but records the waiver', async () => {
    const t = run('always', { waive: ['web.cookies.set'] }, false);
    await expect(t.result).resolves.toEqual({ ok: true });
    expect(t.asked).toHaveLength(0);
    expect(t.records[0]).toMatchObject({ source: 'waived', approved: true, session: 's1' });
  });

  it('a denial is consent_denied, recorded, and nothing is forwarded', async () => {
    const t = run('always', {}, false);
    await expect(t.result).rejects.toMatchObject({
      code: 'consent_denied',
      message: 'the user did not approve web.cookies.set on https://shop.test',
      details: { capability: 'web.cookies.set', origin: 'https://shop.test' },
    });
    expect(t.forwarded()).toBe(false);
    expect(t.records[0]).toMatchObject({ approved: false, source: 'asker' });
    expect(t.call.decisions[0]).toMatchObject({ policy: 'consent', decision: 'denied' });
  });
});
