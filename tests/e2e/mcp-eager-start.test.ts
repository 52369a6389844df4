// `webcap mcp` on stdio starts its sidecar before the host has loaded and has
// Chromium launched while the client's handshake runs, so the first web_open
// finds a browser (README: what starts eagerly). Seen as a user would: the
// process tree under the server, before any tool call, and after the first.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../manifests/load.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { descendants } from '../helpers/processes.js';
import { tempDir } from '../helpers/host.js';

let site: FixtureServer;
let dir: string;

beforeAll(async () => {
  site = await serve({ '/': (_q, res) => send(res, html('<h1>Hello</h1>')) });
  dir = tempDir('webcap-eager-');
});
afterAll(async () => { await site?.close(); });

function config(): string {
  const file = join(dir, 'agent_config.toml');
  writeFileSync(file, `[capabilities.browser]
domains_allowlist = ["127.0.0.1"]
respect_robots = false

[network]
allow_private = ["127.0.0.1"]

[chain]
path = "${join(dir, 'chain.jsonl')}"

[workspace]
path = "${join(dir, 'ws')}"

[logging]
file = "${join(dir, 'webcap.log')}"
`);
  return file;
}

const sidecars = (pid: number) => descendants(pid).filter((p) => p.args.includes('sidecar/main.js'));
const chromiums = (pid: number) => descendants(pid).filter((p) => /chrom/i.test(p.args) && !p.args.includes('node'));

async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) if (check()) return true;
  return check();
}

describe('webcap mcp starts its browser eagerly', () => {
  it('has one sidecar and a running Chromium before any tool call, and the first web_open uses that same sidecar', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [join(projectRoot(), 'bin', 'webcap.js'), 'mcp', '--config', config()], stderr: 'ignore' });
    const client = new Client({ name: 'eager-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const server = transport.pid!;
      expect(await until(() => chromiums(server).length > 0, 30_000)).toBe(true);
      const before = sidecars(server);
      expect(before).toHaveLength(1);
      const r = await client.callTool({ name: 'web_open', arguments: { url: site.url('127.0.0.1', '/') } });
      expect(r.isError).toBeFalsy();
      // Adopted, not spawned again: still the one sidecar, same pid.
      expect(sidecars(server).map((p) => p.pid)).toEqual(before.map((p) => p.pid));
    } finally {
      await client.close();
    }
  }, 90_000);
});
