// Write-ahead: the intent entry is on disk before the effect runs; a chain that
// cannot take it stops the call before the effect.
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WebcapError } from '../../../manifests/errors.js';
import type { Manifest } from '../../../manifests/load.js';
import { CausalChain } from '../../../host/chain/chain.js';
import { lockPathOf } from '../../../host/chain/lock.js';
import { verifyChain } from '../../../host/chain/verify.js';
import { auditPolicy } from '../../../host/policies/audit.js';
import { compose } from '../../../host/policies/compose.js';
import type { CallContext } from '../../../host/policies/types.js';
import { WITHHELD, writeAheadPolicy } from '../../../host/policies/write-ahead.js';
import { Redactor } from '../../../host/redact/redactor.js';

const ctx = (capability: string, params: Record<string, unknown>): CallContext => ({
  capability, manifest: { id: capability } as unknown as Manifest, params, planId: 'plan-1', decisions: [], startedAt: Date.now(),
});
const lines = (path: string) => readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
const tmpChain = () => join(mkdtempSync(join(tmpdir(), 'webcap-wal-')), 'chain.jsonl');

describe('writeAheadPolicy', () => {
  it('has the intent on disk before the effect starts, then the result entry pointing back to it', async () => {
    const path = tmpChain();
    const chain = await CausalChain.open(path);
    const redactor = new Redactor();
    let seenByEffect: unknown[] = [];
    const run = compose([auditPolicy(chain, redactor), writeAheadPolicy(chain, redactor)], async () => {
      seenByEffect = lines(path); // what a crash right now would leave
      return { ok: true };
    });
    await run(ctx('web.fill', { selector: '#name', text: 'Ada Lovelace', timeout: 500 }));
    await chain.close();
    expect(seenByEffect).toEqual([expect.objectContaining({ seq: 1, kind: 'intent', capability: 'web.fill', params: { selector: '#name', text: WITHHELD, timeout: 500 } })]);
    const [intent, call] = lines(path);
    expect(call).toMatchObject({ seq: 2, kind: 'call', intent_seq: intent.seq, params: { selector: '#name', text: 'Ada Lovelace' }, result: { ok: true } });
    expect(verifyChain(path)).toMatchObject({ ok: true, entries: 2 });
  });

  it('refuses a chain whose name is a link (here to /dev/full) before any call can run', async () => {
    // A chain is never opened through a link, so the link can no longer stand in for a full disk:
    // the refusal comes at open, with the same reason a failed write gives.
    const dir = mkdtempSync(join(tmpdir(), 'webcap-wal-full-'));
    mkdirSync(join(dir, 'd'));
    symlinkSync('/dev/full', join(dir, 'd', 'chain.jsonl'));
    let err: unknown;
    try { await CausalChain.open(join(dir, 'd', 'chain.jsonl')); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(WebcapError);
    expect(err).toMatchObject({ code: 'internal', details: { reason: 'chain_unwritable', errno: 'ELOOP' } });
  });

  it('lets a second writer wait for the lock instead of forking the chain', async () => {
    const path = tmpChain();
    const chain = await CausalChain.open(path);
    await chain.append({ kind: 'event' });
    const { lockSync } = (await import('proper-lockfile')).default;
    const release = lockSync(path, { realpath: false, lockfilePath: lockPathOf(path) }); // "another process" holds it
    const pending = chain.append({ kind: 'event', result: { second: true } });
    await new Promise((r) => setTimeout(r, 100));
    expect(lines(path)).toHaveLength(1); // waiting
    release();
    expect(await pending).toMatchObject({ seq: 2 });
    await chain.close();
    expect(verifyChain(path)).toMatchObject({ ok: true, entries: 2 });
  });
});
