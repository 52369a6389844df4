// Through the daemon, as a shell runs it: `webcap daemon status` names the
// console's URL, and Ctrl-C on `webcap run` interrupts the plan in the daemon
// (no request after it; `interrupted` in the chain) instead of leaving the
// daemon driving the browser on its own.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEntries } from '../../host/chain/verify.js';
import { effectRoutes, type Arrival } from '../fixtures/effect-pages.js';
import { webcap as run } from '../helpers/cli.js';
import { serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir } from '../helpers/host.js';

let site: FixtureServer;
const arrivals: Arrival[] = [];
let dir: string;
// The plan's wait before its click: long enough for webcap run to get Ctrl-C and leave inside it on a
// busy machine, short enough that waiting it out costs the suite little.
const PLAN_WAIT_MS = 6000;
/** After the wait, how long a plan still running takes to click and its POST to arrive. */
const CLICK_GRACE_MS = 2000;
const env = () => ({ WEBCAP_DAEMON: '', WEBCAP_CONFIG: join(dir, 'agent_config.toml') });

beforeAll(async () => {
  site = await serve(effectRoutes(arrivals));
  dir = tempDir('wcc-');
  writeFileSync(join(dir, 'agent_config.toml'), `[capabilities.browser]
domains_allowlist = ["shop.test"]
respect_robots = false
default_timeout_ms = 30000
[network]
resolve = { "shop.test" = "127.0.0.1" }
allow_private = ["127.0.0.1"]
[consent]
non_interactive = "approve"
`);
});
afterAll(async () => {
  await run(['daemon', 'stop'], dir, env());
  await site?.close();
});

describe('the console through the daemon', () => {
  it('daemon status prints the console URL; Ctrl-C on webcap run interrupts the plan in the daemon', async () => {
    writeFileSync(join(dir, 'plan.rtfs'), `(do
  (call :web.open {:url "${site.url('shop.test', '/p/spa-login')}"})
  (call :web.wait {:time ${PLAN_WAIT_MS}})
  (call :web.click {:selector "#go"}))`);
    const child = spawn(process.execPath, [resolve('bin/webcap.js'), 'run', 'plan.rtfs'], { cwd: dir, env: { ...process.env, ...env() }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    // The plan is past web.open (its step is logged) and waiting.
    while (!/web\.open/.test(stderr)) { await sleep(100); if (child.exitCode !== null) throw new Error(`webcap run ended early: ${stderr}`); }
    const opened = Date.now();
    child.kill('SIGINT');
    await new Promise((done) => child.once('exit', done));
    // Ctrl-C must land inside the plan's wait, or there is nothing left to interrupt.
    expect(Date.now() - opened, 'webcap run took the whole wait to leave').toBeLessThan(PLAN_WAIT_MS);
    const status = JSON.parse((await run(['daemon', 'status', '--json'], dir, env())).stdout) as { console?: string };
    expect(status.console).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=/);
    // Past the moment the plan would have clicked (a daemon that ignores the Ctrl-C clicks then: this fails).
    await sleep(Math.max(0, opened + PLAN_WAIT_MS + CLICK_GRACE_MS - Date.now()));
    expect(arrivals.filter((a) => a.path === '/sink/spa-login')).toEqual([]);
    const entries = readEntries(join(dir, '.webcap', 'chain.jsonl'));
    expect(entries.some((e) => e.kind === 'event' && (e.result as { event?: string })?.event === 'interrupted')).toBe(true);
    expect(entries.some((e) => e.capability === 'web.click')).toBe(false);
    // The token is never in the daemon's log.
    const { readFileSync } = await import('node:fs');
    const log = readFileSync(join(dir, '.webcap', 'daemon.log'), 'utf8');
    expect(log).not.toContain(new URL(status.console!).searchParams.get('token')!);
  });

  it('webcap run --console prints the URL once on stderr as "webcap console: URL"', async () => {
    writeFileSync(join(dir, 'tiny.rtfs'), '(do 42)');
    // One writer per chain: the daemon the test above used serves this workspace until stopped.
    await run(['daemon', 'stop'], dir, { WEBCAP_CONFIG: join(dir, 'agent_config.toml') });
    const r = await run(['run', 'tiny.rtfs', '--console', '--no-daemon'], dir, { WEBCAP_CONFIG: join(dir, 'agent_config.toml') });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('42');
    expect(r.stderr.match(/^webcap console: http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+$/gm)).toHaveLength(1);
  });
});
