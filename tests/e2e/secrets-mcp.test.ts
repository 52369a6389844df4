// Credentials by reference over MCP, as a client (and so the model) sees it:
// the client sends `{{secret:NAME}}`, the bank gets the value, and no tool
// answer — results, snapshots, page content, errors — holds it in any form.
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setSecret } from '../../host/secrets/vault.js';
import { projectRoot } from '../../manifests/load.js';
import { BANK_PW, carries, serveSecretSite, type SecretSite } from '../fixtures/secret-ref-pages.js';
import { tempDir } from '../helpers/host.js';

const KEY_ENV = 'WEBCAP_TEST_MCP_KEY';
let site: SecretSite;
let client: Client;
const answers: CallToolResult[] = [];

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  answers.push(r);
  return r;
}

beforeAll(async () => {
  site = await serveSecretSite();
  const dir = tempDir('webcap-secrets-mcp-');
  const key = 'f'.repeat(64);
  process.env[KEY_ENV] = key;
  setSecret({ secrets: { path: join(dir, 'vault.json'), key_env: KEY_ENV, dlp: true } }, { name: 'bank_pw', kind: 'secret', origins: [site.url('bank.test', '')], value: BANK_PW });
  const config = join(dir, 'agent_config.toml');
  writeFileSync(config, `[capabilities.browser]
domains_allowlist = ["bank.test", "evil.test"]
respect_robots = false
max_actions_per_minute = 10000
default_timeout_ms = 30000

[network]
resolve = { "bank.test" = "127.0.0.1", "evil.test" = "127.0.0.1" }
allow_private = ["127.0.0.1"]

[consent]
non_interactive = "approve"

[chain]
path = "chain.jsonl"

[secrets]
path = "vault.json"
key_env = "${KEY_ENV}"
`);
  client = new Client({ name: 'webcap-secrets-e2e', version: '1.0.0' });
  await client.connect(new StdioClientTransport({
    command: process.execPath, args: ['bin/webcap.js', 'mcp', '--config', config], cwd: projectRoot(),
    env: { ...process.env, WEBCAP_CONFIG: '', [KEY_ENV]: key } as Record<string, string>, stderr: 'pipe',
  }));
}, 60_000);

afterAll(async () => {
  await client?.close();
  await site?.close();
});

describe('over MCP', () => {
  it('the client names the secret, the page gets it, the answers show only the reference', async () => {
    expect((await call('web_open', { url: site.url('bank.test', '/copy') })).isError).toBeFalsy();
    expect((await call('web_fill', { selector: '#pw', text: '{{secret:bank_pw}}' })).isError).toBeFalsy();
    const snap = JSON.stringify(await call('web_snapshot', {}));
    expect(snap).toContain('{{secret:bank_pw}}');
    expect(JSON.stringify(await call('web_page_content', { format: 'full_html' }))).toContain('you typed {{secret:bank_pw}}');
    const since = site.received.length;
    await call('web_click', { selector: '#go', wait_until: 'load' });
    expect(new URLSearchParams(site.received.slice(since).find((r) => r.url === '/login')!.body).get('pw')).toBe(BANK_PW);
  }, 120_000);

  it('a missing secret is an error answer naming it and how to set it', async () => {
    await call('web_open', { url: site.url('bank.test', '/plain') });
    const r = await call('web_fill', { selector: '#pw', text: '{{secret:absent}}' });
    expect(r.isError).toBe(true);
    const { error } = JSON.parse((r.content as Array<{ text: string }>)[0].text) as { error: { code: string; message: string; details: Record<string, unknown> } };
    expect(error.code).toBe('invalid_params');
    expect(error.message).toContain('secret "absent" is not in the vault');
    // The command names the origin of the page the field is on (this client cannot be sent to the console's entry page).
    const command = `webcap secrets set absent --origin ${site.url('bank.test', '').replace(/\/$/, '')}`;
    expect(error.message).toContain(command);
    expect(error.details.missing).toEqual({ name: 'absent', command });
  }, 120_000);

  it('no answer carries the value in any encoding', () => {
    expect(answers.length).toBeGreaterThan(5);
    for (const a of answers) expect(carries({ host: '', url: '', headers: '', body: JSON.stringify(a) }, BANK_PW)).toBe(false);
  });
});
