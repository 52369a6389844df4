// The three tools the snapshot bench compares, each through its own agent
// interface: webcap and @playwright/mcp over MCP stdio (the SDK client; the
// answer is every text block the client hands the model), agent-browser
// through its CLI (the answer is what it prints). Each driver opens a URL and
// takes its default snapshot; nothing else. Their browsers reach only
// loopback: webcap's allowlist names 127.0.0.1, the peers get a dead proxy.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { projectRoot } from '../manifests/load.js';
import { benchConfig, writeConfig } from './bench-config.js';

const run = promisify(execFile);
const DEAD_PROXY = 'http://127.0.0.1:9';

export interface Answer { text: string; title: string }
export interface SnapshotTool {
  name: string;
  open(url: string): Promise<void>;
  /** The default snapshot as the agent receives it, and the page's title (read apart when the answer lacks it). */
  snapshot(): Promise<Answer>;
  close(): Promise<void>;
}

async function mcp(args: string[]): Promise<Client> {
  const client = new Client({ name: 'webcap-snapshot-bench', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args, cwd: projectRoot(), stderr: 'ignore', env: { ...process.env, WEBCAP_CONFIG: '' } as Record<string, string> }));
  return client;
}

async function callText(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
  const text = (r.content as Array<{ type: string; text?: string }>).filter((c) => c.type === 'text').map((c) => c.text ?? '').join('\n');
  if (r.isError) throw new Error(`${name} failed: ${text.slice(0, 300)}`);
  return text;
}

export async function webcapTool(dir: string): Promise<SnapshotTool> {
  const config = join(dir, 'webcap.toml');
  writeConfig(config, benchConfig(dir));
  const client = await mcp([join(projectRoot(), 'bin', 'webcap.js'), 'mcp', '--config', config]);
  let opened = false;
  return {
    name: 'webcap',
    async open(url) {
      await callText(client, opened ? 'web_navigate' : 'web_open', { url });
      opened = true;
    },
    async snapshot() {
      const text = await callText(client, 'web_snapshot', process.env.SNAP_MAX_CHARS ? { max_chars: Number(process.env.SNAP_MAX_CHARS) } : {});
      return { text, title: /"title":"([^"]*)"|\ntitle: ([^\n]*)/.exec(text)?.slice(1).find((t) => t !== undefined) ?? '' };
    },
    close: () => client.close(),
  };
}

export async function playwrightMcpTool(dir: string, exe: string): Promise<SnapshotTool> {
  const client = await mcp([join(projectRoot(), 'node_modules', '@playwright', 'mcp', 'cli.js'), '--headless', '--isolated', '--no-sandbox',
    '--executable-path', exe, '--proxy-server', DEAD_PROXY, '--proxy-bypass', '127.0.0.1', '--output-dir', join(dir, 'pwmcp')]);
  return {
    name: '@playwright/mcp',
    async open(url) { await callText(client, 'browser_navigate', { url }); },
    async snapshot() {
      const text = await callText(client, 'browser_snapshot', {});
      return { text, title: /Page Title: ([^\n]*)/.exec(text)?.[1] ?? '' };
    },
    close: () => client.close(),
  };
}

const agentBrowserCli = (exe: string) => {
  const bin = join(projectRoot(), 'node_modules', 'agent-browser', 'bin', `agent-browser-${process.platform}-${process.arch}`);
  const base = ['--session', `webcap-snapshot-bench-${process.pid}`, '--executable-path', exe, '--args', `--no-sandbox,--disable-gpu,--proxy-server=${DEAD_PROXY}`];
  return async (...args: string[]) => (await run(bin, [...base, ...args], { maxBuffer: 64 << 20, timeout: 120_000 })).stdout;
};

export function agentBrowserTool(exe: string): SnapshotTool {
  const cli = agentBrowserCli(exe);
  return {
    name: 'agent-browser',
    async open(url) { await cli('open', url); },
    async snapshot() {
      const text = (await cli('snapshot', '-i')).trimEnd();
      return { text, title: '' };
    },
    close: async () => { await cli('close').catch(() => undefined); },
  };
}

/** agent-browser's snapshot -i carries no title: the coverage pass reads it apart. */
export async function agentBrowserTitle(exe: string): Promise<string> {
  return (await agentBrowserCli(exe)('get', 'title')).trim();
}
