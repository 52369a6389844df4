// The `webcap` command (DESIGN.md contract). One catch point: any failure
// prints `error: <code>: <message>` (and JSON with --json) and exits 1.
import { readFileSync } from 'node:fs';
import { WebcapError, toWebcapError } from '../manifests/errors.js';
import { option, parseArgs, type Args } from './cli/args.js';
import { browserServerCommand } from './browser-server.js';
import { chainCommand } from './cli/chain-command.js';
import { providerMetadata } from './attestation.js';
import { discoverCommand } from './cli/discover-command.js';
import { exportCommand, replayRunOptions } from './cli/export-command.js';
import { reportCommand } from './cli/report-command.js';
import { runDemo } from './demo/demo.js';
import { printStep } from './cli/step-log.js';
import { createHost, type Host } from './host.js';
import { runMcpHttp } from './mcp/http.js';
import { runMcpStdio } from './mcp/stdio.js';

const USAGE = `usage:
  webcap demo [--serve]                     run the bundled demo (offline); --serve only serves its sites
  webcap run PLAN [--config FILE] [--json] [--yes] [--input k=v ...] [--heal] [--update-plan]
  webcap call ID [PARAMS_JSON] [--config FILE] [--json] [--yes]
  webcap manifests [--json]
  webcap chain verify [FILE] [--expect-head HASH] [--public-key FILE] | webcap chain show [FILE]
  webcap chain export [CHAIN] (--plan-id ID | --session S | --last) [-o FILE]
  webcap report [CHAIN] [--plan-id ID | --session S | --last] [-o report.html]
  webcap mcp [--config FILE] [--composite] [--yes]   MCP server on stdio
  webcap discover NEED [--input k=v ...] [--run] [--json] [--yes]
  webcap browser-server [--listen H:P] [--token-env NAME] [--config FILE]   Playwright browser server for remote_endpoint
  webcap mcp --http HOST:PORT [--token-env NAME] [--config FILE] [--composite] [--yes]   MCP over HTTP at /mcp`;

async function main(args: Args): Promise<number> {
  const [command, ...rest] = args.positional;
  const json = args.flags.has('--json');
  const hostFor = (): Host => createHost({ config: option(args, '--config'), yes: args.flags.has('--yes') });
  switch (command) {
    case 'manifests': {
      const host = hostFor();
      const list = host.capabilities();
      await host.close();
      print(json ? JSON.stringify(list.map((m) => ({ id: m.id, description: m.description, approval: m.approval, provider: providerMetadata(m.provider) }))) : list.map((m) => `${m.id.padEnd(22)} ${m.description.split('. ')[0]}`).join('\n'));
      return 0;
    }
    case 'call': {
      if (!rest[0]) throw new WebcapError('invalid_params', 'webcap call: missing capability id');
      const params = parseParams(rest[1]);
      return withHost(hostFor(), async (host) => printResult(await host.call(rest[0], params), json));
    }
    case 'run': {
      if (!rest[0]) throw new WebcapError('invalid_params', 'webcap run: missing PLAN file');
      const source = readText(rest[0]);
      const replay = replayRunOptions(args, rest[0]);
      return withHost(hostFor(), async (host) => printResult(await host.runPlan(source, { onStep: printStep, onLog: (m) => process.stderr.write(`  log: ${m}\n`), ...replay.options }).finally(replay.finish), json));
    }
    case 'chain':
      if (rest[0] === 'export') return exportCommand(args, rest[1]);
      return chainCommand(rest, option(args, '--config'), { expectHead: option(args, '--expect-head'), publicKey: option(args, '--public-key') });
    case 'report':
      return reportCommand(args, rest[0]);
    case 'demo':
      return runDemo({ serveOnly: args.flags.has('--serve') });
    case 'browser-server':
      return browserServerCommand(process.argv.slice(3));
    case 'discover':
      return discoverCommand(args, hostFor);
    case 'mcp':
      if (option(args, '--http')) {
        await runMcpHttp({ listen: option(args, '--http')!, tokenEnv: option(args, '--token-env'), config: option(args, '--config'), composite: args.flags.has('--composite'), yes: args.flags.has('--yes') });
        return 0;
      }
      await runMcpStdio({ config: option(args, '--config'), composite: args.flags.has('--composite'), yes: args.flags.has('--yes') });
      return 0;
    default:
      process.stderr.write(`${USAGE}\n`);
      return command ? 2 : 0;
  }
}

async function withHost(host: Host, body: (h: Host) => Promise<void>): Promise<number> {
  try {
    await body(host);
    return 0;
  } finally {
    await host.close();
  }
}

function parseParams(text: string | undefined): Record<string, unknown> {
  if (!text) return {};
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch (err) {
    throw new WebcapError('invalid_params', `PARAMS_JSON is not valid JSON: ${(err as Error).message}`);
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    throw new WebcapError('invalid_params', `cannot read plan file ${path}`);
  }
}

function printResult(value: unknown, json: boolean): void {
  print(json ? JSON.stringify(value ?? null) : JSON.stringify(value ?? null, null, 2));
}

function print(text: string): void {
  process.stdout.write(`${text}\n`);
}

const args = parseArgs(process.argv.slice(2));
main(args).then(
  (code) => { if (code >= 0) process.exitCode = code; },
  (err) => {
    const e = toWebcapError(err);
    process.stderr.write(`error: ${e.code}: ${e.message}\n`);
    if (args.flags.has('--json')) print(JSON.stringify({ error: { code: e.code, message: e.message, details: e.details } }));
    process.exitCode = 1;
  },
);
