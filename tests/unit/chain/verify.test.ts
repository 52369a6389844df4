import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { CausalChain } from '../../../host/chain/chain.js';
import { hashEntry } from '../../../host/chain/entry.js';
import { verifyChain } from '../../../host/chain/verify.js';

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
});
