// The daemon serves many commands, and each is answered by its own asker: one
// command's --yes never approves another's form submit, password fill or
// page-driven POST. A daemon killed mid-call is replaced by the next command;
// a host killed with -9 leaves no sidecar or Chromium behind.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir } from '../helpers/host.js';
import { alive, chromiumOf, sidecarOf } from '../helpers/processes.js';
import { webcap as run } from '../helpers/cli.js';

let site: FixtureServer;
const dirs: string[] = [];
const posts = () => site.hits.filter((h) => h.includes('/submit') || h.includes('/api')).length;

function workspace(extra = ''): string {
  const dir = tempDir('wcc-');
  dirs.push(dir);
  writeFileSync(join(dir, 'agent_config.toml'), `[capabilities.browser]
domains_allowlist = ["shop.test"]
respect_robots = false
${extra}
[network]
resolve = { "shop.test" = "127.0.0.1" }
allow_private = ["127.0.0.1"]

[consent]
non_interactive = "deny"

# No console: a question nobody can reach is answered by non_interactive at once (the console's wait has its own tests).
[console]
enabled = false
`);
  return dir;
}
const env = (dir: string) => ({ WEBCAP_DAEMON: '', WEBCAP_CONFIG: join(dir, 'agent_config.toml') });
const webcap = (dir: string, ...args: string[]) => run(args, dir, env(dir));
const status = async (dir: string) => JSON.parse((await webcap(dir, 'daemon', 'status', '--json')).stdout) as { running: boolean; pid: number };

async function until<T>(what: string, probe: () => T | undefined | false, ms = 20_000): Promise<T> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    const v = probe();
    if (v) return v;
  }
  throw new Error(`timed out waiting for ${what}`);
}

beforeAll(async () => {
  site = await serve({
    '/': (_q, res) => send(res, html(`<h1>Shop</h1>
      <form method="post" action="/submit"><input name="q" value="x"><input id="pw" type="password" name="pw"><button id="submit" type="submit">Send</button></form>
      <button id="js" onclick="fetch('/api', { method: 'POST', body: 'x' })">Ping</button>`)),
    '/submit': (_q, res) => send(res, html('<h1>Sent</h1>')),
    '/api': (_q, res) => send(res, '{}', 200, 'application/json'),
  });
});
afterEach(async () => { for (const dir of dirs.splice(0)) await webcap(dir, 'daemon', 'stop'); });
afterAll(async () => { await site?.close(); });

describe('daemon: consent belongs to the command that gave it', () => {
  it('a daemon started with --yes does not approve a later command\'s submit, password fill or page POST', async () => {
    const dir = workspace();
    const open = await webcap(dir, 'call', 'web.open', JSON.stringify({ url: site.url('shop.test', '/') }), '--yes');
    expect([open.code, open.stderr]).toEqual([0, '']);
    const before = posts();
    const fill = await webcap(dir, 'call', 'web.fill', JSON.stringify({ selector: '#pw', text: 'hunter2-secret' }));
    expect(fill.stderr).toMatch(/^error: consent_denied/);
    const submit = await webcap(dir, 'call', 'web.click', JSON.stringify({ selector: '#submit' }));
    expect(submit.stderr).toMatch(/^error: consent_denied/);
    const ping = await webcap(dir, 'call', 'web.click', JSON.stringify({ selector: '#js' }));
    expect(ping.stderr).toMatch(/^error: consent_denied/);
    expect(posts() - before).toBe(0);
    // The same daemon, asked with --yes again, is approved: it was the asker that said no, not a broken page.
    const yes = await webcap(dir, 'call', 'web.click', JSON.stringify({ selector: '#js' }), '--yes');
    expect([yes.code, yes.stderr]).toEqual([0, '']);
    await until('the POST', () => posts() - before === 1);
  }, 120_000);
});

describe('daemon and host lifecycle', () => {
  it('a daemon killed mid-call is replaced by the next command, which succeeds; its sidecar and Chromium go', async () => {
    const dir = workspace();
    expect((await webcap(dir, 'call', 'web.open', JSON.stringify({ url: site.url('shop.test', '/') }))).code).toBe(0);
    const { pid } = await status(dir);
    const sidecar = await until('the daemon\'s sidecar', () => sidecarOf(pid));
    const chromium = await until('its Chromium', () => chromiumOf(sidecar.pid));
    const waiting = webcap(dir, 'call', 'web.wait', JSON.stringify({ time: 20_000, timeout: 30_000 }));
    await new Promise((r) => setTimeout(r, 1500));
    process.kill(pid, 'SIGKILL');
    expect((await waiting).code).toBe(1);
    await until('the orphaned sidecar and Chromium to exit', () => !alive(sidecar.pid) && !alive(chromium.pid));
    const next = await webcap(dir, 'call', 'web.open', JSON.stringify({ url: site.url('shop.test', '/') }), '--json');
    expect([next.code, next.stderr]).toEqual([0, '']);
    expect(JSON.parse(next.stdout)).toMatchObject({ title: 'Shop' });
    expect((await status(dir)).pid).not.toBe(pid);
  }, 120_000);

  it('kill -9 of a CLI host (no daemon): its sidecar and Chromium exit on their own', async () => {
    const dir = workspace();
    writeFileSync(join(dir, 'wait.rtfs'), `(do (call :web.open {:url "${site.url('shop.test', '/')}"}) (call :web.wait {:time 60000 :timeout 90000}))`);
    const child = spawn(process.execPath, [join(process.cwd(), 'bin', 'webcap.js'), 'run', 'wait.rtfs', '--no-daemon'], { cwd: dir, stdio: 'ignore', env: { ...process.env, ...env(dir) } });
    const sidecar = await until('the host\'s sidecar', () => sidecarOf(child.pid));
    const chromium = await until('its Chromium', () => chromiumOf(sidecar.pid), 60_000);
    child.kill('SIGKILL');
    await until('the sidecar and Chromium to exit', () => !alive(sidecar.pid) && !alive(chromium.pid));
  }, 120_000);
});
