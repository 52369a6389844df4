// An MCP action answers with what it did to the page: the whole view after
// opening, the changed lines after a click that changed something, nothing
// after one that changed nothing, the new page after a navigation; no
// fingerprint in the answer (the chain keeps it); `after_action = "none"`
// answers without a view.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../manifests/load.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir } from '../helpers/host.js';

const FAR_AWAY = Array.from({ length: 12 }, (_, i) => `<a href="/far${i}">Far link ${i}</a>`).join(' ');
const routes = {
  '/': (_q: unknown, res: Parameters<typeof send>[0]) => send(res, html(`<h1>List</h1>
    <button id="add" onclick="const li = document.createElement('li'); li.textContent = 'Item ' + (document.querySelectorAll('li').length + 1); document.getElementById('items').append(li); document.getElementById('status').textContent = 'added ' + li.textContent">Add item</button>
    <p id="status">nothing added yet</p>
    <button id="inert">Does nothing</button>
    <ul id="items"><li>Item 1</li></ul><a href="/next">Next page</a> ${FAR_AWAY}`)),
  '/next': (_q: unknown, res: Parameters<typeof send>[0]) => send(res, html('<h1>Somewhere else</h1><button>Back button</button>')),
};

let site: FixtureServer;
let dir: string;

function config(name: string, extra = ''): string {
  const file = join(dir, `${name}.toml`);
  writeFileSync(file, `[capabilities.browser]\ndomains_allowlist = ["site.test"]\nrespect_robots = false\nmax_actions_per_minute = 10000\n\n[network]\nresolve = { "site.test" = "127.0.0.1" }\nallow_private = ["127.0.0.1"]\n\n[chain]\npath = "${join(dir, `${name}.jsonl`)}"\n\n[logging]\nfile = "${join(dir, `${name}.log`)}"\n${extra}`);
  return file;
}

async function connect(file: string): Promise<Client> {
  const client = new Client({ name: 'after-action-e2e', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: ['bin/webcap.js', 'mcp', '--config', file], cwd: projectRoot(), env: { ...process.env, WEBCAP_CONFIG: '' } as Record<string, string>, stderr: 'pipe' }));
  return client;
}

async function act(c: Client, name: string, args: Record<string, unknown>): Promise<{ text: string; data: Record<string, unknown> }> {
  const r = (await c.callTool({ name, arguments: args })) as CallToolResult;
  const text = r.content[0]?.type === 'text' ? r.content[0].text : '';
  if (r.isError) throw new Error(`${name} failed: ${text}`);
  return { text, data: r.structuredContent as Record<string, unknown> };
}

beforeAll(async () => {
  site = await serve(routes);
  dir = tempDir('webcap-after-action-');
});
afterAll(async () => { await site?.close(); });

describe('[mcp] after_action = "diff" (the default)', () => {
  let c: Client;
  beforeAll(async () => { c = await connect(config('diff')); });
  afterAll(async () => { await c?.close(); });

  it('open shows the page; a click shows only what it changed; an inert click shows nothing; a navigation shows the new page', async () => {
    const opened = await act(c, 'web_open', { url: site.url('site.test', '/') });
    expect(opened.data.page).toMatch(/^the page now \(http:\/\/site\.test:\d+\/\):\n/);
    expect(opened.data.page).toMatch(/button "Add item" \[ref=e\d+\]/);
    // The view is page content: inside the one untrusted block.
    expect(opened.text).toMatch(/<<<untrusted-page-content [0-9a-f]{12}>>>[\s\S]*button "Add item"[\s\S]*<<<end-untrusted-page-content/);

    const added = await act(c, 'web_click', { selector: '#add' });
    const page = added.data.page as string;
    expect(page).toMatch(/^changes since your last view/);
    expect(page).toMatch(/^\+ .*added Item 2/m);
    expect(page).toMatch(/^- .*nothing added yet/m);
    expect(page).not.toContain('Far link 11'); // unchanged and far from the change: elided
    expect(added.data).not.toHaveProperty('fingerprint');
    expect(added.text).not.toContain('fingerprint');

    const inert = await act(c, 'web_click', { selector: '#inert' });
    // Focus moved to the button ([active]) — that is all that changed.
    expect((inert.data.page as string | undefined) ?? '').not.toMatch(/Item/);
    const again = await act(c, 'web_click', { selector: '#inert' });
    expect(again.data).not.toHaveProperty('page');

    const moved = await act(c, 'web_click', { selector: 'text=Next page' });
    expect(moved.data.page).toMatch(/^the page now \(http:\/\/site\.test:\d+\/next\):\n/);
    expect(moved.data.page).toContain('button "Back button"');

    // The chain keeps what the answer leaves out.
    const entries = readFileSync(join(dir, 'diff.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const click = entries.find((e) => e.kind === 'call' && e.capability === 'web.click' && e.result);
    expect(click.result.fingerprint).toBeTruthy();
  });
});

describe('[mcp] after_action = "none"', () => {
  let c: Client;
  beforeAll(async () => { c = await connect(config('none', '\n[mcp]\nafter_action = "none"\n')); });
  afterAll(async () => { await c?.close(); });

  it('answers an action without any view of the page', async () => {
    expect((await act(c, 'web_open', { url: site.url('site.test', '/') })).data).not.toHaveProperty('page');
    expect((await act(c, 'web_click', { selector: '#add' })).data).not.toHaveProperty('page');
  });
});
