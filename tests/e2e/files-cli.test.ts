// file → webcap and chain → report through the real `webcap` command: a
// profile planted as a link to a readable file outside shows in `profiles
// list` as invalid without a byte of that file; a report written onto a link
// is refused and the link's target is untouched; `--json` on `report`,
// `chain verify` and `chain show`.
import { readFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CausalChain } from '../../host/chain/chain.js';
import { webcap } from '../helpers/cli.js';
import { tempDir } from '../helpers/host.js';

const SECRET = 'root:x:0:0:TOP-SECRET-7f3a9c:/root:/bin/bash\n';
let dir: string;
let outside: string;
const cli = (...a: string[]) => webcap([...a, '--config', 'agent_config.toml'], dir);

beforeAll(async () => {
  dir = tempDir('webcap-files-cli-');
  outside = join(tempDir('webcap-outside-'), 'passwd');
  writeFileSync(outside, SECRET);
  writeFileSync(join(dir, 'agent_config.toml'), '[chain]\npath = "chain.jsonl"\n\n[workspace]\npath = "ws"\n');
  const chain = await CausalChain.open(join(dir, 'chain.jsonl'));
  await chain.append({ kind: 'call', plan_id: 'plan-1', session: 's1', capability: 'web.open', params: { url: 'http://shop.test/<script>' }, decision: { decision: 'allowed', policy: 'budget', reason: null }, decisions: [], result: { session: 's1' }, duration_ms: 4 });
  await chain.append({ kind: 'plan', plan_id: 'plan-1', result: { event: 'plan_finished', returned: { total: 3 } } });
  await chain.close();
});

describe('webcap commands on hostile files', () => {
  it('profiles list shows a linked profile as invalid, without its bytes', async () => {
    mkdirSync(join(dir, 'ws', 'profiles'), { recursive: true });
    symlinkSync(outside, join(dir, 'ws', 'profiles', 'shop.profile'));
    writeFileSync(join(dir, 'ws', 'profiles', 'cut.profile'), '{"v":1,"name":"cut","origins":["TOP-SECRET');
    for (const json of [false, true]) {
      const run = await cli('profiles', 'list', ...(json ? ['--json'] : []));
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout + run.stderr).not.toMatch(/TOP-SECRET|root:x/);
      expect(run.stdout).toMatch(/shop.*symbolic link/);
      expect(run.stdout).toMatch(/cut.*truncated/);
    }
  });

  it('report refuses to write onto a planted link and leaves its target as it was', async () => {
    symlinkSync(outside, join(dir, 'planted.html'));
    const run = await cli('report', '--last', '-o', 'planted.html');
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/invalid_params: .*planted\.html: it is a symbolic link/);
    expect(readFileSync(outside, 'utf8')).toBe(SECRET);
  });

  it('--json works on report, chain verify and chain show', async () => {
    const report = await cli('report', '--plan-id', 'plan-1', '-o', 'r.html', '--json');
    expect(report.code, report.stderr).toBe(0);
    const model = JSON.parse(report.stdout) as { path: string; steps: Array<{ capability: string; decided_by?: string; target: string }>; plans: unknown[] };
    expect(model.path).toBe(join(dir, 'r.html'));
    expect(model.steps).toMatchObject([{ capability: 'web.open', target: 'http://shop.test/<script>' }]);
    expect(model.steps[0]!.decided_by).toBeUndefined();
    expect(model.plans).toEqual([{ plan_id: 'plan-1', ok: true, returned: '{"total":3}' }]);

    const verify = await cli('chain', 'verify', '--json');
    expect(verify.code, verify.stderr).toBe(0);
    expect(JSON.parse(verify.stdout)).toMatchObject({ ok: true, entries: 2, chain: join(dir, 'chain.jsonl') });

    const show = await cli('chain', 'show', '--json');
    expect(show.code, show.stderr).toBe(0);
    expect((JSON.parse(show.stdout) as Array<{ seq: number; kind: string }>).map((e) => [e.seq, e.kind])).toEqual([[1, 'call'], [2, 'plan']]);

    writeFileSync(join(dir, 'chain.jsonl'), readFileSync(join(dir, 'chain.jsonl'), 'utf8').replace('"total":3', '"total":4'));
    const tampered = await cli('chain', 'verify', '--json');
    expect(tampered.code).toBe(1);
    expect(JSON.parse(tampered.stdout)).toMatchObject({ ok: false, tampered: true, bad_seq: 2 });
  });
});
