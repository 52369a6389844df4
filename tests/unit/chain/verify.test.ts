import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { CausalChain } from '../../../host/chain/chain.js';
import { hashEntry } from '../../../host/chain/entry.js';
import { verifyChain } from '../../../host/chain/verify.js';
import { rehashedFrom } from './rewrite.js';

let path: string;
let original: string[];
const write = (ls: string[]) => writeFileSync(path, ls.map((l) => `${l}\n`).join(''));

beforeEach(async () => {
  path = join(mkdtempSync(join(tmpdir(), 'webcap-verify-')), 'chain.jsonl');
  const chain = await CausalChain.open(path);
  for (let i = 1; i <= 6; i++) {
    await chain.append({ kind: 'call', capability: 'web.extract', params: { selector: `.item-${i}` }, result: { items: [i] }, duration_ms: i });
  }
  await chain.close();
  original = readFileSync(path, 'utf8').split('\n').filter(Boolean);
});

describe('verifyChain', () => {
  it('passes on an intact file', () => {
    expect(verifyChain(path)).toMatchObject({ ok: true, entries: 6 });
  });

  it('names the entry where one byte was edited', () => {
    const ls = [...original];
    ls[2] = ls[2].replace('.item-3', '.item-9');
    write(ls);
    expect(verifyChain(path)).toMatchObject({ ok: false, line: 3, bad_seq: 3, reason: expect.stringMatching(/hash mismatch/) });
  });

  it('names the entry after a deleted line', () => {
    write(original.filter((_, i) => i !== 3));
    expect(verifyChain(path)).toMatchObject({ ok: false, line: 4, bad_seq: 5, reason: expect.stringMatching(/deleted/) });
  });

  it('names the first of two swapped lines', () => {
    const ls = [...original];
    [ls[1], ls[2]] = [ls[2], ls[1]];
    write(ls);
    expect(verifyChain(path)).toMatchObject({ ok: false, line: 2, bad_seq: 3 });
  });

  it('names an inserted line (a copy of another entry)', () => {
    write([...original.slice(0, 4), original[1], ...original.slice(4)]);
    expect(verifyChain(path)).toMatchObject({ ok: false, line: 5, bad_seq: 2, reason: expect.stringMatching(/inserted/) });
  });

  it('names an inserted forged entry whose own hash is consistent', () => {
    const forged = JSON.parse(original[2]);
    forged.params = { selector: '.forged' };
    delete forged.hash;
    // Rehashed, so only the chain links (not the entry's own hash) give it away.
    write([...original.slice(0, 2), JSON.stringify({ ...forged, hash: hashEntry(forged) }), ...original.slice(2)]);
    expect(verifyChain(path)).toMatchObject({ ok: false, line: 4, bad_seq: 3 });
  });

  it('flags an edit that breaks the JSON of a middle line, naming that line', () => {
    const ls = [...original];
    ls[1] = ls[1].replace('"kind":"call"', '"kind""call"');
    write(ls);
    expect(verifyChain(path)).toMatchObject({ ok: false, line: 2, bad_seq: 2 });
  });

  it('does not mistake a complete entry with junk after it for a torn write', () => {
    writeFileSync(path, original.map((l) => `${l}\n`).join('').replace(/\n$/, 'x'));
    expect(verifyChain(path)).toMatchObject({ ok: false, line: 6 });
  });

  it('detects every single-byte edit anywhere in the file', () => {
    const text = `${original.join('\n')}\n`;
    const missed: number[] = [];
    for (let i = 0; i < text.length; i++) {
      writeFileSync(path, text.slice(0, i) + (text[i] === 'a' ? 'b' : 'a') + text.slice(i + 1));
      if (verifyChain(path).ok) missed.push(i);
    }
    expect(missed).toEqual([]);
  });

  it('treats an unparseable line in the middle as tampering, even one that looks like a torn write', () => {
    write([...original.slice(0, 3), '{"seq":4,"ts":"2024-01-01T00:00:00.000Z","kind":"ca', ...original.slice(3)]);
    expect(verifyChain(path)).toMatchObject({ ok: false, line: 4, bad_seq: 4, reason: expect.stringMatching(/not a chain entry/) });
  });

  it('treats an empty line in the middle as tampering', () => {
    write([...original.slice(0, 2), '', ...original.slice(2)]);
    expect(verifyChain(path)).toMatchObject({ ok: false, line: 3 });
  });

  it('accepts only an unterminated last line as torn', () => {
    writeFileSync(path, `${original.join('\n')}\n{"seq":7,"kind":"ca`);
    expect(verifyChain(path)).toMatchObject({ ok: true, entries: 6, torn_lines: [7] });
    writeFileSync(path, `${original.join('\n')}\n{"seq":7,"kind":"ca\n`);
    expect(verifyChain(path)).toMatchObject({ ok: false, line: 7 });
  });

  it('reports the head hash, and --expect-head fails on truncation or a consistent rewrite', () => {
    const intact = verifyChain(path);
    if (!intact.ok) throw new Error('expected intact');
    expect(intact.last_hash).toBe(JSON.parse(original[5]).hash);
    const anchor = JSON.parse(original[3]).hash;
    expect(verifyChain(path, { expectHead: anchor })).toMatchObject({ ok: true, after_expected: 2 });
    write(original.slice(0, 3)); // cut back past the anchor: the file alone looks fine
    expect(verifyChain(path)).toMatchObject({ ok: true, entries: 3 });
    expect(verifyChain(path, { expectHead: anchor })).toMatchObject({ ok: false, reason: expect.stringMatching(/truncated or rewritten/) });
    write(rehashedFrom(original, 1)); // every hash recomputed after an edit of entry #2
    expect(verifyChain(path)).toMatchObject({ ok: true, entries: 6 });
    expect(verifyChain(path, { expectHead: anchor })).toMatchObject({ ok: false });
  });
});
