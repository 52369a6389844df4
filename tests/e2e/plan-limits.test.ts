// Runaway plans through `webcap run`: each stops with a clear code and the
// plan:LINE:COL of the form that crossed the limit, never `internal`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { webcap } from '../helpers/cli.js';
import { tempDir } from '../helpers/host.js';

function run(plan: string, plans = ''): ReturnType<typeof webcap> {
  const dir = tempDir();
  writeFileSync(join(dir, 'agent_config.toml'), `[chain]\npath = "chain.jsonl"\n[workspace]\npath = "ws"\n${plans}`);
  writeFileSync(join(dir, 'plan.rtfs'), plan);
  return webcap(['run', join(dir, 'plan.rtfs'), '--config', join(dir, 'agent_config.toml'), '--json']);
}

const errorOf = (r: { stdout: string }) => JSON.parse(r.stdout).error as { code: string; message: string };

describe('plan limits through webcap run', () => {
  it('(loop [i 0] (recur (inc i))) stops at [plans] max_steps with budget_exceeded', async () => {
    const r = await run(';; runaway\n(loop [i 0] (recur (inc i)))', '[plans]\nmax_steps = 2000\n');
    expect(r.code).toBe(1);
    expect(errorOf(r)).toMatchObject({ code: 'budget_exceeded', message: expect.stringMatching(/^plan:2:\d+: the plan took more than 2000 steps/) });
  });

  it('a loop stops at [plans] max_duration_s with timeout', async () => {
    const r = await run('(loop [i 0] (recur (inc i)))', '[plans]\nmax_steps = 100000000\nmax_duration_s = 1\n');
    expect(errorOf(r)).toMatchObject({ code: 'timeout', message: expect.stringMatching(/^plan:1:\d+: the plan ran longer than 1 s/) });
  });

  it('unbounded self-recursion stops at the depth limit with budget_exceeded', async () => {
    const r = await run('(let [f (fn f [n] (inc (f n)))] (f 0))');
    expect(errorOf(r)).toMatchObject({ code: 'budget_exceeded', message: expect.stringMatching(/^plan:1:\d+: evaluation nested deeper than/) });
  });

  it('nesting 10,000 deep is a parse error with a position, never internal', async () => {
    const r = await run(`(do\n${'['.repeat(10_000)}${']'.repeat(10_000)})`);
    expect(errorOf(r)).toMatchObject({ code: 'invalid_params', message: expect.stringMatching(/^plan:2:\d+: forms nested deeper than \d+ levels/) });
  });
});
