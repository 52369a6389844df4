import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CausalChain } from '../../../host/chain/chain.js';
import { hashEntry, ZERO_HASH } from '../../../host/chain/entry.js';
import { verifyChain } from '../../../host/chain/verify.js';
import { formatChain } from '../../../host/chain/show.js';

const tmpChain = () => join(mkdtempSync(join(tmpdir(), 'webcap-chain-')), 'nested', 'dir', 'chain.jsonl');
const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

describe('CausalChain', () => {
  it('creates the folder, links entries by hash and starts from 64 zeros', async () => {
    const path = tmpChain();
    const chain = await CausalChain.open(path);
    const a = await chain.append({ kind: 'plan', plan_id: 'p1', params: { source: '(web.open)' } });
    const b = await chain.append({ kind: 'call', capability: 'web.open', session: 's1', result: { title: 'Shop' }, duration_ms: 12 });
    await chain.close();
    expect(a.seq).toBe(1);
    expect(a.prev_hash).toBe(ZERO_HASH);
    expect(b.prev_hash).toBe(a.hash);
    expect(hashEntry(b)).toBe(b.hash);
    expect(lines(path)).toEqual([a, b]);
  });

  it('stays open for a second user of the same file until that one closes too', async () => {
    const path = tmpChain();
    const hostA = await CausalChain.open(path);
    const hostB = await CausalChain.open(path);
    expect(hostB).toBe(hostA);
    await hostA.append({ kind: 'event' });
    await hostA.close();
    await hostB.append({ kind: 'event' });       // would throw "closed" without the count
    await hostB.close();
    await expect(hostB.append({ kind: 'event' })).rejects.toThrow(/closed/);
    expect(verifyChain(path)).toMatchObject({ ok: true, entries: 2 });
  });

  it('continues seq and prev_hash after a restart (new instance, same file)', async () => {
    const path = tmpChain();
    const first = await CausalChain.open(path);
    await first.append({ kind: 'event' });
    const last = await first.append({ kind: 'event' });
    await first.close();
    const second = await CausalChain.open(path);
    expect(second).not.toBe(first);
    const next = await second.append({ kind: 'call', capability: 'web.click' });
    await second.close();
    expect(next.seq).toBe(3);
    expect(next.prev_hash).toBe(last.hash);
    expect(verifyChain(path)).toMatchObject({ ok: true, entries: 3 });
  });

  it('returns the same instance for one path within a process', async () => {
    const path = tmpChain();
    const [a, b] = await Promise.all([CausalChain.open(path), CausalChain.open(path)]);
    expect(a).toBe(b);
    await a.close();
  });

  it('serialises 100 concurrent appends into 100 valid lines in call order', async () => {
    const path = tmpChain();
    const chain = await CausalChain.open(path);
    const entries = await Promise.all(Array.from({ length: 100 }, (_, i) => chain.append({ kind: 'event', result: { i } })));
    await chain.close();
    const written = lines(path);
    expect(written).toHaveLength(100);
    expect(written.map((e) => e.seq)).toEqual(entries.map((_, i) => i + 1));
    expect(written.map((e) => e.result.i)).toEqual(entries.map((_, i) => i));
    expect(verifyChain(path)).toMatchObject({ ok: true, entries: 100 });
  });

  it('cuts a torn last line off on the next append and records what it cut', async () => {
    const path = tmpChain();
    const chain = await CausalChain.open(path);
    const a = await chain.append({ kind: 'event' });
    await chain.close();
    const fragment = '{"seq":2,"ts":"2024-01-01T00:00:00.000Z","kind":"ev';
    appendFileSync(path, fragment); // crash mid-write
    expect(verifyChain(path)).toMatchObject({ ok: true, entries: 1, torn_lines: [2] });
    const again = await CausalChain.open(path);
    const b = await again.append({ kind: 'event', result: { after: true } });
    await again.close();
    const written = lines(path);
    expect(written).toHaveLength(3);
    expect(written[1]).toMatchObject({ seq: 2, prev_hash: a.hash, kind: 'event', result: { event: 'torn_tail', bytes: fragment.length, sha256: createHash('sha256').update(fragment).digest('hex') } });
    expect(b).toMatchObject({ seq: 3, prev_hash: written[1].hash });
    expect(verifyChain(path)).toMatchObject({ ok: true, entries: 3, torn_lines: [] });
  });

  it('adds only the missing newline when the last line is a complete entry', async () => {
    const path = tmpChain();
    const chain = await CausalChain.open(path);
    const a = await chain.append({ kind: 'event' });
    await chain.close();
    writeFileSync(path, readFileSync(path, 'utf8').replace(/\n$/, ''));
    const again = await CausalChain.open(path);
    const b = await again.append({ kind: 'event' });
    await again.close();
    expect(b).toMatchObject({ seq: 2, prev_hash: a.hash });
    expect(verifyChain(path)).toMatchObject({ ok: true, entries: 2 });
  });

  it('stores undefined as null and strips lone surrogates so the hash survives a re-read', async () => {
    const path = tmpChain();
    const chain = await CausalChain.open(path);
    await chain.append({ kind: 'call', params: { a: undefined, cut: 'emoji \ud83d' }, result: { when: new Date(0) } });
    await chain.close();
    expect(lines(path)[0].params).toEqual({ cut: 'emoji \ufffd' });
    expect(verifyChain(path)).toMatchObject({ ok: true, entries: 1 });
  });

  it('formats a readable timeline', () => {
    const base = { ts: '2024-05-01T12:34:56.789Z', plan_id: 'plan-1', session: 's1', params: null, decisions: [], prev_hash: ZERO_HASH, hash: 'h' };
    const text = formatChain([
      { ...base, seq: 1, kind: 'call', capability: 'web.open', params: { url: 'https://shop.test/' }, decision: { decision: 'allowed', policy: 'allowlist', reason: null }, result: { title: 'Shop' }, error: null, duration_ms: 42 },
      { ...base, seq: 2, kind: 'call', capability: 'web.open', params: { url: 'https://evil.test/' }, decision: { decision: 'denied', policy: 'allowlist', reason: 'x' }, result: null, error: { code: 'not_allowlisted', message: 'evil.test is not allowlisted' }, duration_ms: 1 },
    ]);
    const [header, one, two] = text.split('\n');
    expect(header).toMatch(/^#\s+DATE\s+TIME \(UTC\)\s+PLAN\s+SESSION\s+CAPABILITY\s+TARGET\s+OUTCOME\s+DECIDED BY\s+MS\s+DETAIL$/);
    expect(one).toMatch(/^#1\s+2024-05-01\s+12:34:56\.789\s+plan-1\s+s1\s+web\.open\s+https:\/\/shop\.test\/\s+✓ allowed\s+allowlist policy\s+42ms\s+\{"title":"Shop"\}$/);
    expect(two).toMatch(/evil\.test\/\s+✗ not_allowlisted\s+allowlist policy\s+1ms\s+evil\.test is not allowlisted$/);
  });

  it('keeps every lazy entry, in order, while the timer syncs them in the background; close waits for that sync', async () => {
    const path = tmpChain();
    const chain = await CausalChain.open(path);
    const written = [];
    // Past two timer periods (200 ms each), lazy appends land while a background fdatasync may be running.
    for (let i = 0; i < 60; i++) {
      written.push(await chain.append({ kind: 'call', capability: 'web.snapshot', result: { i } }, { durable: false }));
      await new Promise((r) => setTimeout(r, 8));
    }
    await chain.close();
    expect(lines(path)).toEqual(written);
    expect(verifyChain(path)).toMatchObject({ ok: true, entries: 60 });
  });
});
