// Write-ahead: the intent entry is on disk before the effect runs; a chain that
// cannot take it stops the call before the effect.
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readsOpenPageOnly } from '../../../manifests/effects.js';
import { WebcapError } from '../../../manifests/errors.js';
import { loadManifests, type Manifest } from '../../../manifests/load.js';
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

  it('a call that only reads the open page has its intent written before it runs too, and its result after', async () => {
    const path = tmpChain();
    const chain = await CausalChain.open(path);
    const redactor = new Redactor();
    let seenByRead: unknown[] = [];
    const run = compose([auditPolicy(chain, redactor), writeAheadPolicy(chain, redactor)], async () => {
      seenByRead = lines(path);
      return { snapshot: '- button "Go" [ref=e3]' };
    });
    const snapshot = loadManifests().find((m) => m.id === 'web.snapshot')!;
    await run({ ...ctx('web.snapshot', { max_chars: 2000 }), manifest: snapshot });
    expect(seenByRead).toEqual([expect.objectContaining({ seq: 1, kind: 'intent', capability: 'web.snapshot' })]);
    expect(lines(path)[1]).toMatchObject({ seq: 2, kind: 'call', intent_seq: 1 });
    await chain.close();
    expect(verifyChain(path)).toMatchObject({ ok: true, entries: 2 });
  });

  it('skips the fdatasync before running only for calls whose every effect is reading the open page', () => {
    const lazy = loadManifests().filter((m) => readsOpenPageOnly(m.effects)).map((m) => m.id);
    expect(lazy).toEqual(expect.arrayContaining(['web.snapshot', 'web.extract', 'web.wait', 'web.page_content']));
    // Anything that connects, asks, writes a file or changes the page keeps its durable intent.
    for (const id of ['web.open', 'web.navigate', 'web.scrape', 'web.click', 'web.fill', 'web.screenshot', 'web.search', 'ccos.user.ask', 'web.plan_export']) expect(lazy).not.toContain(id);
    expect(readsOpenPageOnly(undefined)).toBe(false);
    expect(readsOpenPageOnly([])).toBe(false);
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
