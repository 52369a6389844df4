// The daemon follows the configuration: a command whose config file, its
// contents or a variable the config names in the environment (the profile
// key) differ from the daemon's is served by a daemon restarted for it, with
// a one-line notice, instead of the old allowlist or the old key.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir } from '../helpers/host.js';
import { webcap as run } from '../helpers/cli.js';
import { identityOf } from '../../host/daemon/identity.js';
import { onLines, type Reply } from '../../host/daemon/protocol.js';

let site: FixtureServer;
const dirs: string[] = [];
const KEY = 'a'.repeat(64);

function writeConfig(dir: string, allow: string): void {
  writeFileSync(join(dir, 'agent_config.toml'), `[capabilities.browser]
domains_allowlist = ["${allow}"]
respect_robots = false
[network]
resolve = { "shop.test" = "127.0.0.1" }
allow_private = ["127.0.0.1"]
`);
}
function workspace(allow = 'shop.test'): string {
  const dir = tempDir('wcf-');
  dirs.push(dir);
  writeConfig(dir, allow);
  return dir;
}
const webcap = (dir: string, args: string[], env: Record<string, string> = {}) => run(args, dir, { WEBCAP_DAEMON: '', WEBCAP_CONFIG: join(dir, 'agent_config.toml'), WEBCAP_PROFILE_KEY: '', ...env });
const pid = async (dir: string) => (JSON.parse((await webcap(dir, ['daemon', 'status', '--json'])).stdout) as { pid?: number }).pid;

beforeAll(async () => { site = await serve({ '/': (_q, res) => send(res, html('<h1>Shop</h1>')) }); });
afterEach(async () => { for (const dir of dirs.splice(0)) await webcap(dir, ['daemon', 'stop']); });
afterAll(async () => { await site?.close(); });

describe('the daemon follows the configuration', () => {
  it('an allowlist fixed in agent_config.toml holds for the next command (daemon restarted, one-line notice)', async () => {
    const dir = workspace('other.test');
    const refused = await webcap(dir, ['call', 'web.open', JSON.stringify({ url: site.url('shop.test', '/') })]);
    expect(refused.stderr).toMatch(/^error: not_allowlisted/);
    const first = await pid(dir);
    writeConfig(dir, 'shop.test');
    const ok = await webcap(dir, ['call', 'web.open', JSON.stringify({ url: site.url('shop.test', '/') }), '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ title: 'Shop' });
    expect(ok.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^webcap: the webcap daemon on .* serves .*; restarting it for this configuration$/)]);
    expect(await pid(dir)).not.toBe(first);
    // Same configuration again: the same daemon, no notice.
    const again = await webcap(dir, ['call', 'web.url']);
    expect(again.stderr).toBe('');
  }, 120_000);

  it('a profile key unset after the daemon started means no restore: the next profile call is refused naming the variable', async () => {
    const dir = workspace();
    expect((await webcap(dir, ['call', 'web.status'], { WEBCAP_PROFILE_KEY: KEY })).code).toBe(0);
    const withKey = await pid(dir);
    const unset = await webcap(dir, ['call', 'web.open', JSON.stringify({ url: site.url('shop.test', '/'), profile: 'shop' })]);
    expect(unset.stderr).toMatch(/restarting it for this configuration/);
    expect(unset.stderr).toMatch(/error: invalid_params: .*WEBCAP_PROFILE_KEY/);
    expect(await pid(dir)).not.toBe(withKey);
  }, 120_000);

  it('another config file for the same workspace: served (restarted), not "stop it or use --no-daemon"', async () => {
    const dir = workspace();
    expect((await webcap(dir, ['call', 'web.status'])).code).toBe(0);
    const other = join(dir, 'other.toml');
    writeFileSync(other, `[capabilities.browser]\ndomains_allowlist = ["shop.test"]\nrespect_robots = false\n[network]\nresolve = { "shop.test" = "127.0.0.1" }\nallow_private = ["127.0.0.1"]\n`);
    const r = await webcap(dir, ['call', 'web.status', '--config', other]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/--no-daemon/);
    expect(r.stderr).toMatch(/restarting it for this configuration/);
  }, 120_000);

  it('a command the daemon cannot make its host for (the config file broken since it started) is answered with the error, and the daemon still exits when idle', async () => {
    const dir = tempDir('wcf-');
    dirs.push(dir);
    const file = join(dir, 'agent_config.toml');
    writeFileSync(file, '[capabilities.browser]\nidle_timeout_s = 5\n[console]\nenabled = false\n');
    const env = { WEBCAP_DAEMON: '', WEBCAP_CONFIG: file, WEBCAP_PROFILE_KEY: '' };
    // Started on its own, the daemon makes its host on the first command.
    const started = JSON.parse((await run(['daemon', 'start', '--json'], dir, env)).stdout) as { socket: string };
    const talk = (request: object) => new Promise<Reply>((resolve, reject) => {
      const socket = connect(started.socket);
      socket.once('error', reject);
      onLines(socket, (value) => { const r = value as Reply; if (r.type !== 'notice') { socket.end(); resolve(r); } });
      socket.write(`${JSON.stringify(request)}\n`);
    });
    const hello = (await talk({ op: 'hello' })) as Extract<Reply, { type: 'hello' }>;
    // The command read the config a moment before it broke: it names the daemon's configuration.
    const configId = identityOf(file, readFileSync(file, 'utf8'), hello.env_names, { ...process.env, ...env });
    const valid = readFileSync(file, 'utf8');
    writeFileSync(file, '[capabilities.browser]\nidle_timeout_s = "soon"\n');
    try {
      const reply = await talk({ op: 'call', id: 'web.status', params: {}, yes: false, tty: false, config: file, config_id: configId });
      expect(reply).toMatchObject({ type: 'error', error: { code: 'invalid_params', message: expect.stringMatching(/idle_timeout_s/) } });
      for (; existsSync(started.socket); await new Promise((r) => setTimeout(r, 200)));
    } finally {
      writeFileSync(file, valid); // so that `daemon stop` after the test can reach a daemon left running
    }
  }, 120_000);
});
