// `webcap browser-server` on loopback, used by two hosts through
// remote_endpoint: one browser, two isolated sessions, and the network guard
// still stops a redirect to a private address (127.0.0.2, outside allow_private).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { chromium } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';

const TOKEN = 'webcap-test-token-0123456789abcdef';
let server: ChildProcess;
let endpoint: string;
let site: FixtureServer;
let privateSite: FixtureServer;
const hosts: Host[] = [];

async function startServer(env: NodeJS.ProcessEnv, args: string[]): Promise<{ child: ChildProcess; endpoint: string }> {
  const child = spawn(process.execPath, ['bin/webcap.js', 'browser-server', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let err = '';
  child.stderr!.on('data', (d) => { err += d; });
  const first = await Promise.race([
    once(createInterface({ input: child.stdout! }), 'line').then(([line]) => line as string),
    once(child, 'exit').then(() => { throw new Error(`browser-server exited: ${err}`); }),
  ]);
  return { child, endpoint: (JSON.parse(first) as { ws_endpoint: string }).ws_endpoint };
}

beforeAll(async () => {
  privateSite = await serve({ '*': (_req, res) => send(res, html('<h1>Private</h1>')) }, '127.0.0.2');
  site = await serve({
    '/set': (req, res) => {
      const who = new URL(req.url!, 'http://x').searchParams.get('who');
      res.setHeader('set-cookie', `who=${who}; Path=/`);
      send(res, html(`<h1>Hello ${who}</h1>`));
    },
    '/to-private': (_req, res) => { res.writeHead(302, { location: `http://127.0.0.2:${privateSite.port}/secret` }); res.end(); },
  });
  ({ child: server, endpoint } = await startServer({}, ['--listen', '127.0.0.1:0']));
  for (let i = 0; i < 2; i++) {
    hosts.push(testHost(testConfig({ browser: { domains_allowlist: ['127.0.0.1', '127.0.0.2'], remote_endpoint: endpoint } })));
  }
}, 60_000);

afterAll(async () => {
  await Promise.all(hosts.map((h) => h.close()));
  if (server && server.exitCode === null) { server.kill('SIGTERM'); await once(server, 'exit'); }
  await site?.close();
  await privateSite?.close();
});

describe('webcap browser-server', () => {
  it('prints a loopback ws endpoint', () => {
    expect(endpoint).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{16,}$/);
  });

  it('two hosts share it, and neither sees the other\'s cookies', async () => {
    const [a, b] = hosts;
    expect(await a.call('web.open', { url: site.url('127.0.0.1', '/set?who=alice') })).toMatchObject({ title: 'Hello alice' });
    expect(await b.call('web.open', { url: site.url('127.0.0.1', '/set?who=bob') })).toMatchObject({ title: 'Hello bob' });
    const names = async (h: Host) => ((await h.call('web.cookies.get', {})).cookies as Array<{ name: string; value: string }>).map((c) => `${c.name}=${c.value}`);
    expect(await names(a)).toEqual(['who=alice']);
    expect(await names(b)).toEqual(['who=bob']);
  }, 60_000);

  it('a redirect to a private address is blocked in the remote browser too', async () => {
    const before = privateSite.hits.length;
    const result = await hosts[0].call('web.open', { url: site.url('127.0.0.1', '/to-private') }).catch((e: unknown) => e);
    expect(privateSite.hits.length).toBe(before); // nothing reached 127.0.0.2
    expect(JSON.stringify(result)).not.toContain('Private');
  }, 60_000);

  it('with --token-env the token is the path; without it there is no browser', async () => {
    const { child, endpoint: guarded } = await startServer({ WEBCAP_WS_TOKEN: TOKEN }, ['--listen', '127.0.0.1:0', '--token-env', 'WEBCAP_WS_TOKEN']);
    try {
      expect(guarded).toMatch(new RegExp(`/${TOKEN}$`));
      await expect(chromium.connect(guarded.replace(TOKEN, 'x'.repeat(TOKEN.length)), { timeout: 5000 })).rejects.toThrow();
      const browser = await chromium.connect(guarded, { timeout: 30_000 });
      expect(browser.isConnected()).toBe(true);
      await browser.close();
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }, 60_000);

  it('refuses a non-loopback --listen without a token, before binding anything', async () => {
    const child = spawn(process.execPath, ['bin/webcap.js', 'browser-server', '--listen', '0.0.0.0:0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    let out = '';
    child.stderr!.on('data', (d) => { err += d; });
    child.stdout!.on('data', (d) => { out += d; });
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toMatch(/^error: invalid_params: refusing to serve a browser on 0\.0\.0\.0, which is not a loopback address, without a token/);
  });
});

