// `webcap demo` starts a fresh demo chain each run: an old (even damaged) one
// is moved aside, so what the demo shows and verifies is this run's.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/host.js';
import { webcap } from '../helpers/cli.js';

describe('webcap demo chain', () => {
  it('is fresh each run: seq starts at 1 and the previous chain is kept as chain.prev.jsonl', async () => {
    const cwd = tempDir();
    mkdirSync(join(cwd, '.webcap/demo'), { recursive: true });
    writeFileSync(join(cwd, '.webcap/demo/chain.jsonl'), '{"seq":1,"old":"run, edited by hand"}\n');
    const r = await webcap(['demo'], cwd);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/chain verify: intact \(\d+ entries\)/);
    const first = JSON.parse(readFileSync(join(cwd, '.webcap/demo/chain.jsonl'), 'utf8').split('\n')[0]!) as { seq: number; prev_hash: string };
    expect(first.seq).toBe(1);
    expect(first.prev_hash).toMatch(/^0+$/);
    expect(readFileSync(join(cwd, '.webcap/demo/chain.prev.jsonl'), 'utf8')).toContain('edited by hand');
  });
});
