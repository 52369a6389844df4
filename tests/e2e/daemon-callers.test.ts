// Two commands through one daemon, at once: two `webcap run` plans, and two
// terminals (callers) sending `webcap call`s. Each stays on its own page; a
// terminal's calls without --session never reach the other terminal's session,
// and naming it is as if it did not exist.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir } from '../helpers/host.js';
import { webcap as run } from '../helpers/cli.js';

let site: FixtureServer;
const dirs: string[] = [];

function workspace(): string {
  const dir = tempDir('wcdc-');
  dirs.push(dir);
  writeFileSync(join(dir, 'agent_config.toml'), `[capabilities.browser]
domains_allowlist = ["shop.test"]
respect_robots = false
default_timeout_ms = 60000
[network]
resolve = { "shop.test" = "127.0.0.1" }
allow_private = ["127.0.0.1"]
`);
  return dir;
}
// The daemon on; `caller` stands for the terminal the command is typed in.
const webcap = (dir: string, caller: string, ...args: string[]) => run(args, dir, { WEBCAP_DAEMON: '', WEBCAP_CONFIG: join(dir, 'agent_config.toml'), WEBCAP_CALLER: caller });
const pageOf = (m: string) => site.url('shop.test', `/p?m=${m}`);

beforeAll(async () => {
  site = await serve({
    '/p': (req, res) => {
      const m = new URL(req.url ?? '/', 'http://x').searchParams.get('m') ?? '?';
      send(res, html(`<h1 id="who">${m}</h1><input id="q"><button id="go" onclick="document.querySelector('#out').textContent = document.querySelector('#q').value + '@${m}'">go</button><div id="out"></div>`));
    },
  });
});
afterEach(async () => { for (const dir of dirs.splice(0)) await webcap(dir, 'x', 'daemon', 'stop'); });
afterAll(async () => { await site?.close(); });

const plan = (m: string) => `(do
  (call :web.open {:url "${pageOf(m)}"})
  (call :web.fill {:selector "#q" :text "typed-${m}"})
  (call :web.click {:selector "#go"})
  (call :web.wait {:time 200})
  (let [out (call :web.extract {:selector "#out"})
        url (call :web.url {})]
    (return [(get (first (get out :items)) :text) (get url :url)])))`;

describe('two commands through one daemon', { timeout: 300_000 }, () => {
  it('two `webcap run` plans at once: each answer comes from its own page', async () => {
    const dir = workspace();
    await webcap(dir, 'x', 'daemon', 'start');
    for (const m of ['one', 'two']) writeFileSync(join(dir, `${m}.rtfs`), plan(m));
    const [one, two] = await Promise.all(['one', 'two'].map((m) => webcap(dir, 'x', 'run', `${m}.rtfs`, '--json')));
    for (const [r, m, other] of [[one, 'one', 'two'], [two, 'two', 'one']] as const) {
      expect([r.code, r.stderr.includes('✗')]).toEqual([0, false]);
      expect(r.stdout).toContain(`typed-${m}@${m}`);
      expect(r.stdout).toContain(pageOf(m));
      expect(r.stdout).not.toContain(other);
    }
  });

  it('two terminals: calls without --session stay in their own terminal\'s session; the other\'s is not found', async () => {
    const dir = workspace();
    const [a, b] = await Promise.all([
      webcap(dir, 'left', 'call', 'web.open', JSON.stringify({ url: pageOf('left') }), '--json'),
      webcap(dir, 'right', 'call', 'web.open', JSON.stringify({ url: pageOf('right') }), '--json'),
    ]);
    const sa = JSON.parse(a.stdout).session as string;
    const sb = JSON.parse(b.stdout).session as string;
    expect(sa).not.toBe(sb);
    const [ua, ub] = await Promise.all([webcap(dir, 'left', 'call', 'web.url', '--json'), webcap(dir, 'right', 'call', 'web.url', '--json')]);
    expect(JSON.parse(ua.stdout).url).toBe(pageOf('left'));
    expect(JSON.parse(ub.stdout).url).toBe(pageOf('right'));
    const cross = await webcap(dir, 'left', 'call', 'web.url', JSON.stringify({ session: sb }));
    expect([cross.code, cross.stderr]).toEqual([1, expect.stringMatching(/^error: session_not_found/)]);
    const close = await webcap(dir, 'right', 'call', 'web.close', JSON.stringify({ session: sa }));
    expect([close.code, close.stderr]).toEqual([1, expect.stringMatching(/^error: session_not_found/)]);
    // A third terminal has no session at all.
    const stranger = await webcap(dir, 'third', 'call', 'web.url');
    expect([stranger.code, stranger.stderr]).toEqual([1, expect.stringMatching(/^error: session_not_found/)]);
    expect(JSON.parse((await webcap(dir, 'left', 'call', 'web.url', '--json')).stdout).url).toBe(pageOf('left'));
  });
});
