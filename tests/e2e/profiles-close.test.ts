// Every way a profile's session can end saves it (after approval): plan end,
// idle close, host close. Library host, non_interactive = "approve".
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir, testConfig, testHost } from '../helpers/host.js';

let site: FixtureServer;
const previousKey = process.env.WEBCAP_PROFILE_KEY;

beforeAll(async () => {
  process.env.WEBCAP_PROFILE_KEY = randomBytes(32).toString('hex');
  site = await serve({ '/login': (_q, res) => { res.setHeader('set-cookie', 'sid=v; Path=/'); send(res, html('<h1>In</h1>')); } });
});
afterAll(async () => {
  await site?.close();
  if (previousKey === undefined) delete process.env.WEBCAP_PROFILE_KEY; else process.env.WEBCAP_PROFILE_KEY = previousKey;
});

function setup(browser: Record<string, unknown> = {}) {
  const dir = tempDir();
  const host = testHost(testConfig({ dir, browser, network: { resolve: { 'shop.test': '127.0.0.1' } } }));
  return { dir, host, file: (name: string) => join(dir, 'profiles', `${name}.profile`), chain: () => readFileSync(join(dir, 'chain.jsonl'), 'utf8') };
}
const until = async (check: () => boolean, ms: number) => {
  for (const end = Date.now() + ms; Date.now() < end && !check();) await new Promise((r) => setTimeout(r, 100));
  return check();
};

describe('profile saved when its session ends', () => {
  it('at plan end', async () => {
    const t = setup();
    await t.host.runPlan(`(call :web.open {:url "${site.url('shop.test', '/login')}" :profile "planned"})`);
    expect(existsSync(t.file('planned'))).toBe(true);
    expect(t.chain()).toMatch(/"event":"profile_saved","profile":"planned"/);
    await t.host.close();
  });

  it('at idle close', async () => {
    const t = setup({ idle_timeout_s: 1 });
    await t.host.call('web.open', { url: site.url('shop.test', '/login'), profile: 'idle' });
    expect(await until(() => existsSync(t.file('idle')), 8000)).toBe(true);
    expect(await until(() => t.chain().includes('"event":"profile_saved","profile":"idle"'), 3000)).toBe(true);
    expect(t.chain()).toContain('"event":"session_idle_closed"');
    expect(t.chain()).not.toContain('storage_state');
    await t.host.close();
  });

  it('at host close', async () => {
    const t = setup();
    await t.host.call('web.open', { url: site.url('shop.test', '/login'), profile: 'closing' });
    await t.host.close();
    expect(existsSync(t.file('closing'))).toBe(true);
  });
});
