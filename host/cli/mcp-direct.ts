// `webcap mcp` on stdio, started without the command parser and the other
// commands' modules (plans, reports, chain tools…): a client waits for the
// server's first answer, and every module loaded before it is time spent on two
// shared cores with Chromium starting. Only the plain forms are taken here;
// anything else (--http, --help, an option this does not know) returns false and
// the full CLI parses it. Errors print as the full CLI prints them.
import { toWebcapError } from '../../manifests/errors.js';

interface McpArgs { config?: string; composite: boolean; yes: boolean }

/** argv after `mcp`: --config FILE, --config=FILE, --composite, -y/--yes; undefined for anything else. */
function plainMcpArgs(args: string[]): McpArgs | undefined {
  const out: McpArgs = { composite: false, yes: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--composite') out.composite = true;
    else if (a === '-y' || a === '--yes') out.yes = true;
    else if (a === '--config' && args[i + 1] !== undefined && out.config === undefined) out.config = args[++i];
    else if (a.startsWith('--config=') && out.config === undefined) out.config = a.slice('--config='.length);
    else return undefined;
  }
  return out;
}

/** Serves MCP on stdio until the client goes; false when the full CLI must parse this command line. */
export async function runMcpDirect(args: string[]): Promise<boolean> {
  const opts = plainMcpArgs(args);
  if (!opts) return false;
  try {
    const { runMcpStdio } = await import('../mcp/stdio.js');
    await runMcpStdio({ config: opts.config, composite: opts.composite, yes: opts.yes });
  } catch (err) {
    const e = toWebcapError(err);
    process.stderr.write(`error: ${e.code}: ${e.message}\n`);
    process.exitCode = 1;
  }
  return true;
}
