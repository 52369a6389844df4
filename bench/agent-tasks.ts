// MCP calls per solved task: one scripted agent, two servers. The agent does
// what a model does with a tool's answers: it finds the element it needs by
// role and name in what the answers showed so far (the last mention wins),
// asks for a snapshot only when it has not seen the element (or its ref went
// stale), and checks the goal text in the last answer before asking for
// another look. webcap mcp (after_action = "diff", its default) and
// @playwright/mcp 0.0.83, same tasks, same run, over stdio with the SDK client.
// Run: npx tsc -p tsconfig.json && node dist/bench/agent-tasks.js
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { projectRoot } from '../manifests/load.js';
import { findChromium } from '../sidecar/browser/find-chromium.js';
import { serve } from '../tests/helpers/fixture-server.js';
import { benchConfig, writeConfig } from './bench-config.js';
import { TASK_ROUTES, TASKS, type AgentTask, type Step } from './agent-task-pages.js';

interface Server {
  name: string;
  calls: number;
  open(url: string): Promise<string>;
  act(step: Step, ref?: string): Promise<string>;
  look(): Promise<string>;
  close(): Promise<void>;
}

async function client(args: string[]): Promise<Client> {
  const c = new Client({ name: 'agent-tasks', version: '1.0.0' });
  await c.connect(new StdioClientTransport({ command: process.execPath, args, cwd: projectRoot(), stderr: 'ignore', env: { ...process.env, WEBCAP_CONFIG: '' } as Record<string, string> }));
  return c;
}

function caller(c: Client, counter: { calls: number }) {
  return async (name: string, args: Record<string, unknown>): Promise<string> => {
    counter.calls++;
    const r = await c.callTool({ name, arguments: args });
    const text = (r.content as Array<{ type: string; text?: string }>).map((b) => b.text ?? '').join('\n');
    if (process.env.TASKS_DEBUG) console.error(`>>> ${name} ${JSON.stringify(args)}\n${text}`);
    if (r.isError) throw new Error(text);
    return text;
  };
}

async function webcap(dir: string): Promise<Server> {
  const config = join(dir, 'webcap.toml');
  writeConfig(config, benchConfig(dir, { workspace: false }));
  const c = await client([join(projectRoot(), 'bin', 'webcap.js'), 'mcp', '--config', config]);
  const s: Server = {
    name: 'webcap mcp', calls: 0,
    open: async (url) => call('web_open', { url }),
    act: async (step, ref) => {
      switch (step.do) {
        case 'click': return call('web_click', { ref });
        case 'fill': return call('web_fill', { ref, text: step.text });
        case 'type': return call('web_type', { ref, text: step.text });
        case 'select': return call('web_select', { ref, label: step.value });
        case 'press': return call('web_keypress', { keys: [step.key] });
      }
    },
    look: () => call('web_snapshot', {}),
    close: () => c.close(),
  };
  const call = caller(c, s);
  let opened = false;
  const open = s.open;
  // One session for the whole run, as an agent keeps its browser: later tasks navigate.
  s.open = async (url) => (opened ? call('web_navigate', { url }) : ((opened = true), open(url)));
  return s;
}

async function playwrightMcp(dir: string, exe: string): Promise<Server> {
  const c = await client([join(projectRoot(), 'node_modules', '@playwright', 'mcp', 'cli.js'), '--headless', '--isolated', '--no-sandbox', '--executable-path', exe,
    '--proxy-server', 'http://127.0.0.1:9', '--proxy-bypass', '127.0.0.1', '--output-dir', join(dir, 'pwmcp')]);
  const s: Server = {
    name: '@playwright/mcp', calls: 0,
    open: (url) => call('browser_navigate', { url }),
    act: async (step, ref) => {
      switch (step.do) {
        case 'click': return call('browser_click', { element: step.name, target: ref });
        case 'fill': return call('browser_type', { element: step.name, target: ref, text: step.text });
        case 'type': return call('browser_type', { element: step.name, target: ref, text: step.text, slowly: true });
        case 'select': return call('browser_select_option', { element: step.name, target: ref, values: [step.value] });
        case 'press': return call('browser_press_key', { key: step.key });
      }
    },
    look: () => call('browser_snapshot', {}),
    close: () => c.close(),
  };
  const call = caller(c, s);
  return s;
}

/** The ref of `role "name"` in what was seen, the latest mention first; a line a diff marks as gone does not count. */
export function findRef(seen: string, role: string, name: string): string | undefined {
  const quoted = JSON.stringify(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const lines = seen.split('\n').filter((l) => !/^- (- |\s)/.test(l));
  for (const line of lines.reverse()) {
    const m = new RegExp(`(?:${role} )?${quoted}(?: \\[[^\\]]*\\])*? \\[ref=([^\\]]+)\\]`).exec(line);
    if (m && (line.includes(`${role} ${JSON.stringify(name)}`) || line.includes(`${role}s:`) || line.includes(`links:`))) return m[1];
    // webcap's link and element lists: `- links: e3 "Next" · e4,e5 "More"`, `- elements: e7 button "Go"`.
    const listed = /- (links|elements): /.test(line) && new RegExp(`(?<=^|[\\s:])((?:f\\d+)?e\\d+|wa-\\d+)(?:,\\S+?)? (?:(${role}) )?(?:\\[[^\\]]*\\] )*${quoted}`).exec(line);
    if (listed && (listed[2] === role || (role === 'link' && line.includes('links:')))) return listed[1];
  }
  return undefined;
}

async function solve(server: Server, task: AgentTask, url: string): Promise<{ solved: boolean; calls: number }> {
  const before = server.calls;
  let seen = await server.open(url);
  let last = seen;
  for (const step of task.steps) {
    if (step.do === 'press') { last = await server.act(step); seen += `\n${last}`; continue; }
    let ref = findRef(seen, step.role, step.name);
    if (!ref) { seen = last = await server.look(); ref = findRef(seen, step.role, step.name); }
    if (!ref) return { solved: false, calls: server.calls - before };
    try {
      last = await server.act(step, ref);
    } catch {
      // A stale ref: look again and retry once, as an agent would.
      seen = await server.look();
      ref = findRef(seen, step.role, step.name);
      if (!ref) return { solved: false, calls: server.calls - before };
      last = await server.act(step, ref).catch(() => '');
    }
    seen += `\n${last}`;
  }
  if (!last.includes(task.expect)) last = await server.look();
  return { solved: last.includes(task.expect), calls: server.calls - before };
}

export async function agentTasks(): Promise<Array<{ server: string; solved: number; calls: number; perSolved: number; failed: string[] }>> {
  const site = await serve(TASK_ROUTES);
  const dir = mkdtempSync(join(tmpdir(), 'webcap-agent-tasks-'));
  const exe = (await findChromium())!.path;
  const servers = [await webcap(dir), await playwrightMcp(dir, exe)];
  const rows = [];
  try {
    for (const server of servers) {
      let solved = 0;
      let calls = 0;
      const failed: string[] = [];
      for (const task of TASKS.filter((t) => !process.env.TASKS_ONLY || t.id === process.env.TASKS_ONLY)) {
        const r = await solve(server, task, site.url('127.0.0.1', `/task/${task.id}`)).catch(() => ({ solved: false, calls: 0 }));
        calls += r.calls;
        if (r.solved) solved++; else failed.push(task.id);
      }
      rows.push({ server: server.name, solved, calls, perSolved: calls / Math.max(1, solved), failed });
    }
  } finally {
    for (const s of servers) await s.close().catch(() => undefined);
    await site.close();
  }
  return rows;
}

if (process.argv[1]?.endsWith('agent-tasks.js')) {
  const rows = await agentTasks();
  console.log(`| server (${TASKS.length} tasks) | solved | MCP calls | calls per solved task | not solved |\n|---|---:|---:|---:|---|`);
  for (const r of rows) console.log(`| ${r.server} | ${r.solved} | ${r.calls} | ${r.perSolved.toFixed(2)} | ${r.failed.join(', ') || '—'} |`);
}
