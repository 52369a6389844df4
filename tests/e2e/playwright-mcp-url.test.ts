// [playwright_mcp] url: an already running Playwright MCP server (started here
// with --port 0 on loopback). Each webcap session is its own MCP session on
// that server, so two sessions do not share storage.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { readEntries } from '../../host/chain/verify.js';
import { projectRoot } from '../../manifests/load.js';
import { findChromium } from '../../sidecar/browser/find-chromium.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir, testConfig, testHost } from '../helpers/host.js';

let site: FixtureServer;
let server: ChildProcess;
let host: Host;
let chain: string;

async function startServer(dir: string): Promise<string> {
  const chromium = await findChromium();
  if (!chromium) throw new Error('no Chromium found');
  server = spawn(process.execPath, [join(projectRoot(), 'node_modules/@playwright/mcp/cli.js'), '--port', '0', '--host', '127.0.0.1', '--headless', '--isolated',
    '--executable-path', chromium.path, '--output-dir', dir, ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const read = (chunk: Buffer) => {
      out += chunk.toString();
      // Its own Host check admits the name it prints (localhost), so that is the url to use.
      const base = /Listening on (http:\/\/localhost:\d+)/.exec(out)?.[1];
      if (base) resolve(`${base}/mcp`);
    };
    server.stdout!.on('data', read);
    server.stderr!.on('data', read);
    server.once('exit', (code) => reject(new Error(`playwright-mcp exited (${code}): ${out}`)));
  });
}

beforeAll(async () => {
  site = await serve({
    '/': (_q, res) => send(res, html('<h1>Set</h1><input id="name"><button id="set" onclick="localStorage.setItem(\'who\', document.getElementById(\'name\').value); document.getElementById(\'done\').textContent = \'saved\'">Save</button><p id="done"></p>')),
    '/read': (_q, res) => send(res, html('<h1>Read</h1><p id="v"></p><script>document.getElementById("v").textContent = localStorage.getItem("who") || "(none)"</script>')),
  });
  const dir = tempDir('webcap-pwmcp-url-');
  const url = await startServer(dir);
  const config = { ...testConfig({ dir, browser: { domains_allowlist: ['127.0.0.1'], provider: 'playwright-mcp' } }), playwright_mcp: { url } };
  chain = config.chain.path;
  host = testHost(config as ReturnType<typeof testConfig>);
});
afterAll(async () => {
  await host?.close();
  server?.kill();
  await site?.close();
});

describe('the playwright-mcp provider at a url', () => {
  it('acts through the running server, one MCP session per webcap session, storage not shared', async () => {
    const a = await host.call('web.open', { url: site.url('127.0.0.1', '/') }) as { session: string; title: string; status: number };
    expect(a).toMatchObject({ title: 'Set', status: 200 });
    await host.call('web.fill', { selector: '#name', text: 'alice' });
    await host.call('web.click', { selector: '#set' });
    await host.call('web.wait', { text: 'saved' });
    await host.call('web.navigate', { url: site.url('127.0.0.1', '/read') });
    expect(await host.call('web.extract', { selector: '#v' })).toEqual({ items: [{ text: 'alice' }], count: 1 });
    const b = await host.call('web.open', { url: site.url('127.0.0.1', '/read') }) as { session: string };
    expect(b.session).not.toBe(a.session);
    expect(await host.call('web.extract', { selector: '#v', session: b.session })).toEqual({ items: [{ text: '(none)' }], count: 1 });
    await host.call('web.close', { session: b.session });
    await host.call('web.close', { session: a.session });
    const calls = readEntries(chain).filter((e) => e.kind === 'call');
    expect(calls.every((e) => e.via?.provider === 'playwright-mcp')).toBe(true);
  });
});
