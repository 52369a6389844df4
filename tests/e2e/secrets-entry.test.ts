// A secret the vault lacks, over MCP, with a client that supports URL-mode
// elicitation (it declares `elicitation: {url: {}}`): the client is sent to
// the console's entry page, which Playwright opens as the person would; the
// person types the value into a password field and confirms the site; the
// waiting web_fill goes on and the bank's server receives the value. The
// chain, every MCP message the client got and the log file never hold it.
// The entry page is a boundary: no token, a wrong token or a foreign Origin
// changes nothing, and it never echoes the value.
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { chromium, type Browser } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpServer } from '../../host/index.js';
import { listSecrets } from '../../host/secrets/vault.js';
import { BANK_PW, carries, serveSecretSite, type SecretSite } from '../fixtures/secret-ref-pages.js';
import { tempDir, testConfig } from '../helpers/host.js';
import { findChromium } from '../../sidecar/browser/find-chromium.js';

const KEY_ENV = 'WEBCAP_TEST_ENTRY_KEY';
const LONG = { timeout: 240_000 };
let site: SecretSite;
let person: Browser;

beforeAll(async () => {
  site = await serveSecretSite();
  person = await chromium.launch({ executablePath: (await findChromium())!.path, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  process.env[KEY_ENV] = 'e'.repeat(64);
});
afterAll(async () => {
  await person?.close();
  await site?.close();
});

function configIn(dir: string) {
  const base = testConfig({ dir, network: { resolve: { 'bank.test': '127.0.0.1', 'evil.test': '127.0.0.1' }, allow_private: ['127.0.0.1'] }, consent: { non_interactive: 'deny' } });
  return { ...base, logging: { level: 'debug', file: join(dir, 'webcap.log') }, secrets: { path: join(dir, 'vault.json'), key_env: KEY_ENV, dlp: true } };
}

/** Someone other than the person posting to the entry address with the headers it chooses (Host included): the status it gets. */
function probe(url: string, init: { method: string; headers: Record<string, string>; body: string }): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method, headers: init.headers }, (res) => { res.resume(); resolve(res.statusCode ?? 0); });
    req.on('error', reject);
    req.end(init.body);
  });
}

describe('a missing secret, entered by the person on the console page', () => {
  it('URL-mode client: the person types it in the console, the call goes on, the bank receives it; chain, answers and log never hold it', async () => {
    const dir = tempDir('webcap-secret-entry-');
    const cfg = configIn(dir);
    const mcp = createMcpServer({ config: cfg as never });
    await mcp.ready;
    const consoleUrl = new URL((await mcp.host.console()).url);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.server.connect(serverSide);
    const client = new Client({ name: 'url-only-client', version: '1.0.0' }, { capabilities: { elicitation: { url: {} } } });
    const seen: unknown[] = [];   // everything the client received: elicitation requests, notifications, tool answers
    const entryPages: string[] = [];
    const boundary: Record<string, number> = {};
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      seen.push(req);
      if (req.params.mode !== 'url') return { action: 'decline' };
      const url = new URL(req.params.url);
      const page = await person.newPage();
      try {
        await page.goto(url.href);
        if (url.pathname.startsWith('/s/')) {
          entryPages.push(url.href);
          expect(req.params.message).toContain('"bank_pw"');
          // Before the person answers, others try the same address.
          const post = (headers: Record<string, string>) => probe(`${url.origin}${url.pathname}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ value: 'planted-by-someone', origins: [site.url('evil.test', '')] }) });
          boundary.noToken = await post({});
          boundary.wrongToken = await post({ cookie: 'webcap_console=wrong' });
          boundary.foreignOrigin = await post({ cookie: `webcap_console=${encodeURIComponent(consoleUrl.searchParams.get('token')!)}`, origin: 'http://evil.test' });
          boundary.foreignHost = await post({ cookie: `webcap_console=${encodeURIComponent(consoleUrl.searchParams.get('token')!)}`, host: `evil.test:${url.port}` });
          const csp = (await page.request.get(url.href)).headers()['content-security-policy'] ?? '';
          boundary.csp = /script-src 'self'/.test(csp) && /frame-ancestors 'none'/.test(csp) ? 1 : 0;
          await expect.poll(() => page.locator('#about').textContent(), { timeout: 30_000 }).toContain('bank_pw');
          expect(await page.locator('#origins').inputValue()).toBe(site.url('bank.test', '').replace(/\/$/, ''));
          expect(await page.locator('#value').getAttribute('type')).toBe('password');
          await page.locator('#value').pressSequentially(BANK_PW);
          await page.getByRole('button', { name: 'Save to the vault' }).click();
          await expect.poll(() => page.locator('#done').textContent(), { timeout: 30_000 }).toContain('Stored "bank_pw"');
          // Never echoed: not in the page, not in its field any more.
          expect(await page.locator('#value').inputValue()).toBe('');
          expect(await page.content()).not.toContain(BANK_PW);
          boundary.again = await page.evaluate(async (p) => (await fetch(p, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ value: 'second-try', origins: ['http://evil.test'] }) })).status, url.pathname);
        } else {
          // A consent question (using the secret on the bank, the form submit): the person approves it in the console.
          await page.getByRole('button', { name: 'Approve', exact: true }).first().click();
          await page.waitForTimeout(300);
        }
      } finally {
        await page.close();
      }
      return { action: 'accept' };
    });
    client.fallbackNotificationHandler = async (n) => { seen.push(n); };
    await client.connect(clientSide);
    const call = async (name: string, args: Record<string, unknown>) => {
      const r = (await client.callTool({ name, arguments: args }, undefined, LONG)) as CallToolResult;
      seen.push(r);
      return r;
    };
    try {
      expect((await call('web_open', { url: site.url('bank.test', '/plain') })).isError).toBeFalsy();
      const fill = await call('web_fill', { selector: '#pw', text: '{{secret:bank_pw}}' });
      expect(fill.isError, JSON.stringify(fill)).toBeFalsy();
      expect(entryPages).toHaveLength(1);
      expect(new URL(entryPages[0]).pathname).toMatch(/^\/s\/[0-9a-f]{32}$/);
      expect(boundary).toEqual({ noToken: 401, wrongToken: 403, foreignOrigin: 403, foreignHost: 403, csp: 1, again: 409 });
      // Bound to the origin the page stated and the person confirmed; nothing planted by the others.
      expect(listSecrets(cfg)).toMatchObject([{ name: 'bank_pw', kind: 'secret', origins: [site.url('bank.test', '').replace(/\/$/, '')] }]);

      const since = site.received.length;
      expect((await call('web_click', { selector: '#go', wait_until: 'load' })).isError).toBeFalsy();
      const login = site.received.slice(since).filter((r) => r.url === '/login');
      expect(login).toHaveLength(1);
      expect(login[0].host).toBe('bank.test');
      expect(new URLSearchParams(login[0].body).get('pw')).toBe(BANK_PW);
      expect(site.received.filter((r) => r.host === 'evil.test')).toHaveLength(0);
    } finally {
      await client.close();
      await mcp.close();
    }
    // The client was told the page is done; the other pages it opened were the consent questions (approved in the console).
    expect(JSON.stringify(seen)).toContain('notifications/elicitation/complete');
    expect(readFileSync(cfg.logging.file, 'utf8').length).toBeGreaterThan(0);
    const chain = readFileSync(cfg.chain.path, 'utf8');
    expect(chain).toMatch(/"capability":"secret\.use".*"channel":"console"/);
    expect(chain).toContain('"event":"secret_entered"');
    expect(chain).toContain('{{secret:bank_pw}}');
    for (const [what, text] of [['chain', chain], ['log', readFileSync(cfg.logging.file, 'utf8')], ['MCP', JSON.stringify(seen)]] as const) {
      expect(carries({ host: '', url: '', headers: '', body: text }, BANK_PW), what).toBe(false);
    }
  }, 300_000);

  it('the person presses Cancel on the page: nothing is stored and the call fails with the plain error', async () => {
    const dir = tempDir('webcap-secret-entry-cancel-');
    const cfg = configIn(dir);
    const mcp = createMcpServer({ config: cfg as never });
    await mcp.ready;
    await mcp.host.console();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.server.connect(serverSide);
    const client = new Client({ name: 'url-only-client', version: '1.0.0' }, { capabilities: { elicitation: { url: {} } } });
    client.setRequestHandler(ElicitRequestSchema, async (req) => {
      if (req.params.mode !== 'url') return { action: 'decline' };
      const page = await person.newPage();
      try {
        await page.goto(req.params.url);
        await page.locator('#value').pressSequentially('never-sent-1');
        await page.getByRole('button', { name: 'Cancel' }).click();
        await expect.poll(() => page.locator('#done').textContent(), { timeout: 30_000 }).toContain('Cancelled');
        expect(await page.locator('#value').inputValue()).toBe('');
      } finally {
        await page.close();
      }
      return { action: 'accept' };
    });
    await client.connect(clientSide);
    try {
      await client.callTool({ name: 'web_open', arguments: { url: site.url('bank.test', '/plain') } }, undefined, LONG);
      const r = (await client.callTool({ name: 'web_fill', arguments: { selector: '#pw', text: '{{secret:bank_pw}}' } }, undefined, LONG)) as CallToolResult;
      expect(r.isError).toBe(true);
      expect((r.content as Array<{ text: string }>)[0].text).toContain('secret \\"bank_pw\\" is not in the vault');
      expect(listSecrets(cfg)).toEqual([]);
    } finally {
      await client.close();
      await mcp.close();
    }
    expect(readFileSync(cfg.chain.path, 'utf8')).not.toContain('never-sent-1');
  }, 180_000);

  it('a client that declines the page gets the plain error: which secret, and the command with the page\'s origin', async () => {
    const dir = tempDir('webcap-secret-entry-decline-');
    const cfg = configIn(dir);
    const mcp = createMcpServer({ config: cfg as never });
    await mcp.ready;
    await mcp.host.console();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.server.connect(serverSide);
    const client = new Client({ name: 'declining-client', version: '1.0.0' }, { capabilities: { elicitation: { url: {} } } });
    let asked = 0;
    client.setRequestHandler(ElicitRequestSchema, async () => { asked += 1; return { action: 'decline' }; });
    await client.connect(clientSide);
    try {
      await client.callTool({ name: 'web_open', arguments: { url: site.url('bank.test', '/plain') } }, undefined, LONG);
      const r = (await client.callTool({ name: 'web_fill', arguments: { selector: '#pw', text: '{{totp:bank_otp}}' } }, undefined, LONG)) as CallToolResult;
      expect(r.isError).toBe(true);
      expect(asked).toBe(1);
      const { error } = JSON.parse((r.content as Array<{ text: string }>)[0].text) as { error: { code: string; message: string } };
      expect(error.code).toBe('invalid_params');
      expect(error.message).toContain('secret "bank_otp" is not in the vault');
      expect(error.message).toContain(`webcap secrets set bank_otp --origin ${site.url('bank.test', '').replace(/\/$/, '')} --totp`);
      expect(listSecrets(cfg)).toEqual([]);
    } finally {
      await client.close();
      await mcp.close();
    }
  }, 180_000);
});
