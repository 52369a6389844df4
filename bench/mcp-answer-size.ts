// What an agent pays per MCP answer on a small page ("one wrapper
// per answer"): characters of the text block (what most clients hand the
// model) and of the whole answer (text + structuredContent), per tool, for a
// MiniWoB-sized form page. Run: npx tsc -p tsconfig.json && node dist/bench/mcp-answer-size.js
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { projectRoot } from '../manifests/load.js';
import { html, send, serve } from '../tests/helpers/fixture-server.js';

const PAGE = html(`<h1>Book a flight</h1>
  <form action="/done"><label for="from">From</label> <input id="from" name="from">
  <label for="to">To</label> <input id="to" name="to">
  <select id="cls" name="cls"><option>Economy</option><option>Business</option></select>
  <button type="submit">Search</button></form><p id="note">Prices include taxes.</p>
  <a href="/help">Help</a>`);

export async function measureAnswers(): Promise<Array<{ tool: string; text: number; whole: number }>> {
  const site = await serve({ '/': (_q, r) => send(r, PAGE) });
  const dir = mkdtempSync(join(tmpdir(), 'webcap-answer-size-'));
  const config = join(dir, 'webcap.toml');
  writeFileSync(config, `[capabilities.browser]\ndomains_allowlist = ["site.test"]\nrespect_robots = false\n\n[network]\nresolve = { "site.test" = "127.0.0.1" }\nallow_private = ["127.0.0.1"]\n\n[chain]\npath = "chain.jsonl"\n`);
  const client = new Client({ name: 'answer-size', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: ['bin/webcap.js', 'mcp', '--config', config], cwd: projectRoot(), stderr: 'pipe', env: { ...process.env, WEBCAP_CONFIG: '' } as Record<string, string> }));
  const rows: Array<{ tool: string; text: number; whole: number }> = [];
  const steps: Array<[string, Record<string, unknown>]> = [
    ['web_open', { url: site.url('site.test', '/') }],
    ['web_snapshot', {}],
    ['web_extract', { selector: 'a[href]' }],
    ['web_query_elements', { query: 'field' }],
    ['web_console', {}],
  ];
  try {
    for (const [tool, args] of steps) {
      const r = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
      const first = r.content[0];
      if (process.env.ANSWER_DEBUG) console.error(tool, JSON.stringify(r));
      rows.push({ tool: r.isError ? `${tool} (error)` : tool, text: first?.type === 'text' ? first.text.length : 0, whole: JSON.stringify(r).length });
    }
  } finally {
    await client.close();
    await site.close();
  }
  return rows;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = await measureAnswers();
  console.log('| tool | text block chars | whole answer chars |\n|---|---:|---:|');
  for (const r of rows) console.log(`| ${r.tool} | ${r.text} | ${r.whole} |`);
  console.log(`| total | ${rows.reduce((s, r) => s + r.text, 0)} | ${rows.reduce((s, r) => s + r.whole, 0)} |`);
}
