// A password typed through either browser provider (webcap's sidecar, or a
// Playwright MCP server) is nowhere afterwards: not in the chain, not in the
// log at debug level, not in a later web.snapshot, not in any MCP answer.
// Filled with web.fill into a password field, and typed key by key with
// web.keypress into another; both through webcap's MCP front.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../../host/mcp/server.js';
import { projectRoot } from '../../manifests/load.js';
import { findChromium } from '../../sidecar/browser/find-chromium.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig } from '../helpers/host.js';

const FILLED = 'Fill3d-Secret-9431';
const PRESSED = 'Key3d-Secret-5520';
let site: FixtureServer;

beforeAll(async () => {
  site = await serve({
    '/': (_q, res) => send(res, html(`<h1>Sign in</h1>
      <label for="user">User</label><input id="user" name="user">
      <label for="pw">Password</label><input id="pw" type="password" name="pw">
      <label for="pin">Card PIN</label><input id="pin" type="password" name="pin">`)),
  });
});
afterAll(async () => { await site?.close(); });

async function playwrightMcp(): Promise<Record<string, unknown>> {
  const chromium = await findChromium();
  if (!chromium) throw new Error('no Chromium found');
  return {
    command: [process.execPath, join(projectRoot(), 'node_modules/@playwright/mcp/cli.js'), '--headless', '--isolated', '--executable-path', chromium.path,
      ...(process.getuid?.() === 0 ? ['--no-sandbox'] : [])],
  };
}

describe.each(['sidecar', 'playwright-mcp'] as const)('a typed password through the %s provider', (provider) => {
  it('is in no chain entry, log line, snapshot or MCP answer', async () => {
    const base = testConfig({ browser: { provider }, network: { resolve: { 'shop.test': '127.0.0.1' } } });
    const config = { ...base, logging: { ...base.logging, level: 'debug' }, ...(provider === 'playwright-mcp' ? { playwright_mcp: await playwrightMcp() } : {}) };
    const mcp = createMcpServer({ config: config as typeof base, yes: true });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.server.connect(serverSide);
    const client = new Client({ name: 'redaction-test', version: '1.0.0' });
    await client.connect(clientSide);
    const answers: string[] = [];
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = (await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })) as CallToolResult;
      const text = JSON.stringify(r);
      answers.push(text);
      expect(r.isError, `${name}: ${text}`).toBeFalsy();
      return text;
    };
    try {
      await call('web_open', { url: site.url('shop.test', '/') });
      await call('web_fill', { selector: '#user', text: 'ada' });
      await call('web_fill', { selector: '#pw', text: FILLED });
      await call('web_keypress', { selector: '#pin', keys: [...PRESSED] });
      const snapshot = await call('web_snapshot', {});
      expect(snapshot).toContain('Password');   // the snapshot shows the form...
      expect(snapshot).toContain('ada');        // ...and the plain field's value
    } finally {
      await client.close();
      await mcp.close();
    }
    const chain = readFileSync(config.chain.path, 'utf8');
    const logs = readdirSync(config.workspace.path).filter((f) => f.endsWith('.log')).map((f) => readFileSync(join(config.workspace.path, f), 'utf8')).join('\n');
    expect(chain).toContain('web.keypress');  // the calls were recorded...
    expect(logs.length).toBeGreaterThan(0);    // ...and logged
    for (const secret of [FILLED, PRESSED]) {
      expect(chain).not.toContain(secret);
      expect(logs).not.toContain(secret);
      for (const a of answers) expect(a).not.toContain(secret);
    }
    // Key by key: no run of the pressed characters survives in the chain either.
    expect(chain).not.toContain(JSON.stringify([...PRESSED.slice(0, 4)]).slice(1, -1));
  }, 180_000);
});
