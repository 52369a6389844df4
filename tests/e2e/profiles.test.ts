// Persistent profiles through the real CLI, one process per command (as a
// shell runs them), sharing sessions through the daemon.
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir } from '../helpers/host.js';
import { webcap as run } from '../helpers/cli.js';

const KEY = randomBytes(32).toString('hex');
let site: FixtureServer;
const dirs: string[] = [];

function workspace(): string {
  const dir = tempDir('wcp-');
  dirs.push(dir);
  writeFileSync(join(dir, 'agent_config.toml'), `[capabilities.browser]
domains_allowlist = ["shop.test"]
respect_robots = false

[network]
resolve = { "shop.test" = "127.0.0.1" }
allow_private = ["127.0.0.1"]

# No console: with no terminal, the profile question is answered by non_interactive at once (not after a console wait).
[console]
enabled = false
`);
  return dir;
}
const webcap = (dir: string, args: string[], env: Record<string, string> = { WEBCAP_PROFILE_KEY: KEY }) =>
  run(args, dir, { WEBCAP_DAEMON: '', WEBCAP_CONFIG: join(dir, 'agent_config.toml'), ...env });
const json = (text: string) => JSON.parse(text) as Record<string, unknown>;
const open = (dir: string, path: string, profile?: string, env?: Record<string, string>) =>
  webcap(dir, ['call', 'web.open', JSON.stringify({ url: site.url('shop.test', path), ...(profile ? { profile } : {}) }), '--json'], env);
const chainOf = (dir: string) => readFileSync(join(dir, '.webcap', 'chain.jsonl'), 'utf8');

beforeAll(async () => {
  site = await serve({
    // Signs in: a cookie from the server and an item in localStorage.
    '/login': (_q, res) => {
      res.setHeader('set-cookie', 'sid=secret-sid-value; Path=/');
      send(res, html('<h1>In</h1><script>localStorage.setItem("cart", "three-apples")</script>'));
    },
    '/me': (_q, res) => send(res, html('<h1>Me</h1><p id="ls"></p><script>document.getElementById("ls").textContent = localStorage.getItem("cart") ?? "none"</script>')),
  });
});
afterEach(async () => { for (const dir of dirs.splice(0)) await webcap(dir, ['daemon', 'stop']); });
afterAll(async () => { await site?.close(); });

describe('profiles', () => {
  it('saves on close after approval, encrypted; a later web.open {profile} is signed in; list/delete show no values', async () => {
    const dir = workspace();
    expect((await open(dir, '/login', 'shop')).code).toBe(0);
    const closed = await webcap(dir, ['call', 'web.close', '-y', '--json']);
    expect([closed.code, json(closed.stdout).storage_state]).toEqual([0, undefined]);

    const files = readdirSync(join(dir, '.webcap', 'profiles'));
    expect(files).toEqual(['shop.profile']);
    const raw = readFileSync(join(dir, '.webcap', 'profiles', 'shop.profile'), 'utf8');
    expect(raw).not.toContain('secret-sid-value');
    expect(raw).not.toContain('three-apples');
    const list = await webcap(dir, ['profiles', 'list', '--json']);
    const [entry] = JSON.parse(list.stdout) as Array<Record<string, unknown>>;
    expect(entry).toMatchObject({ name: 'shop', cookies: 1 });
    expect(entry.origins).toEqual(expect.arrayContaining(['shop.test']));
    expect(list.stdout).not.toContain('secret');

    expect((await open(dir, '/me', 'shop')).code).toBe(0);
    const cookies = await webcap(dir, ['call', 'web.cookies.get', '--json']);
    expect(cookies.stdout).toContain('secret-sid-value');
    const ls = await webcap(dir, ['call', 'web.extract', '{"selector":"#ls"}', '--json']);
    expect(ls.stdout).toContain('three-apples');
    await webcap(dir, ['call', 'web.close', '-y']);

    // Profile entries carry origins and counts, never a value (web.extract's own result above is the page's text).
    const events = chainOf(dir).split('\n').filter((l) => l.includes('"event":"profile_'));
    expect(events.map((l) => (JSON.parse(l) as { result: { event: string } }).result.event)).toEqual(['profile_restored', 'profile_saved', 'profile_restored', 'profile_saved']);
    expect(JSON.parse(events[1]).result).toMatchObject({ profile: 'shop', cookies: 1, local_storage_items: 1 });
    expect(events.join('\n')).not.toMatch(/secret-sid-value|three-apples/);
    expect(chainOf(dir)).not.toContain('secret-sid-value');

    expect((await webcap(dir, ['profiles', 'delete', 'shop'])).code).toBe(0);
    expect(existsSync(join(dir, '.webcap', 'profiles', 'shop.profile'))).toBe(false);
  });

  it('denied (no terminal, non_interactive deny): nothing written, and the chain says so', async () => {
    const dir = workspace();
    await open(dir, '/login', 'nope');
    expect((await webcap(dir, ['call', 'web.close'])).code).toBe(0);
    expect(existsSync(join(dir, '.webcap', 'profiles', 'nope.profile'))).toBe(false);
    expect(chainOf(dir)).toContain('"event":"profile_not_saved"');
  });

  it('without a key, web.open {profile} fails naming the variable and writes nothing', async () => {
    const dir = workspace();
    const r = await webcap(dir, ['call', 'web.open', JSON.stringify({ url: site.url('shop.test', '/login'), profile: 'shop' }), '--no-daemon'], { WEBCAP_PROFILE_KEY: '' });
    expect([r.code, r.stderr]).toEqual([1, expect.stringMatching(/^error: invalid_params: .*WEBCAP_PROFILE_KEY/)]);
    expect(existsSync(join(dir, '.webcap', 'profiles'))).toBe(false);
  });

  it('without profile a session is ephemeral: its cookies are gone when it closes', async () => {
    const dir = workspace();
    await open(dir, '/login');
    expect((await webcap(dir, ['call', 'web.cookies.get', '--json'])).stdout).toContain('secret-sid-value');
    await webcap(dir, ['call', 'web.close']);
    await open(dir, '/me');
    expect((await webcap(dir, ['call', 'web.cookies.get', '--json'])).stdout).not.toContain('secret-sid-value');
    expect((await webcap(dir, ['call', 'web.extract', '{"selector":"#ls"}', '--json'])).stdout).toContain('none');
    expect(existsSync(join(dir, '.webcap', 'profiles'))).toBe(false);
  });
});
