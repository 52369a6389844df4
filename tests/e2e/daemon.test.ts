// CLI sessions across commands: separate `webcap` processes, as a shell runs
// them, sharing one session through the workspace's daemon.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir } from '../helpers/host.js';
import { alive } from '../helpers/processes.js';
import { webcap as run } from '../helpers/cli.js';

let site: FixtureServer;
const dirs: string[] = [];

function workspace(extra = ''): string {
  const dir = tempDir('wcd-');
  dirs.push(dir);
  writeFileSync(join(dir, 'agent_config.toml'), `[capabilities.browser]
domains_allowlist = ["shop.test"]
respect_robots = false
${extra}
[network]
resolve = { "shop.test" = "127.0.0.1" }
allow_private = ["127.0.0.1"]
`);
  return dir;
}
// As a user in that folder: its agent_config.toml, the daemon on (the helper's default is off).
const webcap = (dir: string, ...args: string[]) => run(args, dir, { WEBCAP_DAEMON: '', WEBCAP_CONFIG: join(dir, 'agent_config.toml') });
const status = async (dir: string) => JSON.parse((await webcap(dir, 'daemon', 'status', '--json')).stdout) as { running: boolean; pid: number; sessions: string[]; socket: string; uptime_s: number };

beforeAll(async () => {
  site = await serve({
    '/': (_q, res) => send(res, html('<h1>Home</h1><a id="go" href="/next">go</a>')),
    '/next': (_q, res) => send(res, html('<h1>Next</h1>')),
  });
});
afterEach(async () => { for (const dir of dirs.splice(0)) await webcap(dir, 'daemon', 'stop'); });
afterAll(async () => { await site?.close(); });

describe('webcap daemon', () => {
  it('keeps a session across separate commands: open, click, url; status names it; stop ends it', async () => {
    const dir = workspace();
    const open = await webcap(dir, 'call', 'web.open', JSON.stringify({ url: site.url('shop.test', '/') }));
    expect([open.code, open.stderr]).toEqual([0, '']);
    expect(JSON.parse(open.stdout)).toMatchObject({ session: 's1', title: 'Home' });
    const click = await webcap(dir, 'call', 'web.click', '{"selector":"#go"}');
    expect([click.code, click.stderr]).toEqual([0, '']);
    const url = await webcap(dir, 'call', 'web.url', '--json');
    expect(JSON.parse(url.stdout)).toMatchObject({ url: site.url('shop.test', '/next'), title: 'Next' });

    // While the daemon owns the workspace, --no-daemon would be a second chain writer: refused.
    const second = await webcap(dir, 'call', 'web.url', '--no-daemon');
    expect([second.code, second.stderr]).toEqual([1, expect.stringMatching(/daemon is serving this workspace/)]);
    const s = await status(dir);
    expect(s).toMatchObject({ running: true, sessions: ['s1'], socket: join(dir, '.webcap', 'daemon.sock') });
    expect(statSync(s.socket).mode & 0o777).toBe(0o600);
    expect(alive(s.pid)).toBe(true);
    const text = await webcap(dir, 'daemon', 'status');
    expect(text.stdout).toMatch(new RegExp(`pid ${s.pid}, up \\d+ s, sessions s1, socket `));

    expect((await webcap(dir, 'daemon', 'stop')).stdout).toContain('daemon stopped');
    expect(await status(dir)).toMatchObject({ running: false });
    // --no-daemon runs in-process: no session from before, and no daemon started.
    const alone = await webcap(dir, 'call', 'web.url', '--no-daemon');
    expect([alone.code, alone.stderr]).toEqual([1, expect.stringMatching(/^error: session_not_found/)]);
    expect(await status(dir)).toMatchObject({ running: false });
  });

  it('after a crash (kill -9) the chain has every entry and the next command starts a new daemon', async () => {
    const dir = workspace();
    await webcap(dir, 'call', 'web.open', JSON.stringify({ url: site.url('shop.test', '/') }));
    const before = await status(dir);
    process.kill(before.pid, 'SIGKILL');
    const verify = await webcap(dir, 'chain', 'verify');
    expect(verify.stdout).toMatch(/chain intact: [1-9]\d* entries/);
    expect(readFileSync(join(dir, '.webcap', 'chain.jsonl'), 'utf8')).toContain('"capability":"web.open"');
    const again = await webcap(dir, 'call', 'web.open', JSON.stringify({ url: site.url('shop.test', '/next') }), '--json');
    expect(JSON.parse(again.stdout)).toMatchObject({ title: 'Next' });
    const after = await status(dir);
    expect(after.pid).not.toBe(before.pid);
    expect((await webcap(dir, 'chain', 'verify')).code).toBe(0);
  });

  it('refuses a socket others may use or that another user owns', async () => {
    const dir = workspace();
    await webcap(dir, 'daemon', 'start');
    const { socket } = await status(dir);
    chmodSync(socket, 0o666);
    const wide = await webcap(dir, 'call', 'web.status');
    expect([wide.code, wide.stderr]).toEqual([1, expect.stringMatching(/refusing the daemon socket .*mode 666/)]);
    chmodSync(socket, 0o600);
    if (process.getuid?.() === 0) {
      chownSync(socket, 65534, 65534);
      const foreign = await webcap(dir, 'call', 'web.status');
      expect(foreign.stderr).toMatch(/refusing the daemon socket .*belongs to uid 65534/);
      chownSync(socket, 0, 0);
    }
  });

  it('consent: without a terminal the config answers (and says how to approve); -y approves', async () => {
    // No console either: with one, the question would wait there for [consent] timeout_s (tests/e2e/console-daemon.test.ts).
    const dir = workspace('[console]\nenabled = false');
    const denied = await webcap(dir, 'call', 'ccos.user.ask', '{"question":"Go on?"}');
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(/^error: consent_denied/);
    expect(denied.stderr).toContain('--yes');
    const approved = await webcap(dir, 'call', 'ccos.user.ask', '{"question":"Go on?"}', '-y', '--json');
    expect(approved.code).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({ approved: true });
  });

  it('a consent question raised in the daemon is asked on the terminal of the command that caused it', async () => {
    // util-linux `script` gives the command a terminal; without it this test cannot ask, so it fails saying so.
    expect(spawnSync('script', ['--version']).status, 'util-linux `script` (package bsdutils) is needed to give the command a terminal').toBe(0);
    const dir = workspace();
    const cli = join(process.cwd(), 'bin', 'webcap.js');
    const child = spawn('script', ['-qec', `${process.execPath} ${cli} call ccos.user.ask '{"question":"Proceed with the test?"}' --json`, '/dev/null'], {
      cwd: dir, env: { ...process.env, WEBCAP_DAEMON: '', WEBCAP_CONFIG: join(dir, 'agent_config.toml') },
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (/Approve\? \[y\/N\]/.test(out) && !child.stdin.writableEnded) child.stdin.end('y\n');
    });
    const code = await new Promise((r) => child.on('close', r));
    expect(out).toContain('webcap asks: Proceed with the test?');
    expect(out).toContain('{"approved":true}');
    expect(code).toBe(0);
    expect((await status(dir)).running).toBe(true); // it was the daemon that asked
  });

  it('exits by itself after idle_timeout_s with nothing to do', async () => {
    const dir = workspace('idle_timeout_s = 2');
    const started = Date.now(); // before the daemon, so before its idle clock
    await webcap(dir, 'daemon', 'start');
    const { pid } = await status(dir);
    // Gone as soon as it leaves (polled), not a fixed wait past the 2 s; a daemon that stays fails here.
    await expect.poll(() => alive(pid), { timeout: 15_000, interval: 100 }).toBe(false);
    expect(Date.now() - started, 'it left before its idle time').toBeGreaterThanOrEqual(2000);
    expect(await status(dir)).toMatchObject({ running: false });
  });
});
