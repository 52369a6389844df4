// `webcap mcp [--composite]`: the MCP server on stdio, or with
// `--http HOST:PORT [--token-env NAME]` over Streamable HTTP at /mcp.
import type { Command } from 'commander';
import { optionsOf } from './args.js';

export function registerMcp(program: Command): void {
  program.command('mcp')
    .description('serve the capabilities as MCP tools on stdio, or over HTTP with --http')
    .option('--composite', 'also offer the composite browser tool')
    .option('--http <host:port>', 'serve MCP over Streamable HTTP at http://HOST:PORT/mcp instead of stdio')
    .option('--token-env <name>', 'environment variable holding the bearer token for --http (default WEBCAP_MCP_TOKEN); not with [[mcp.clients]], which names each client\'s own')
    .action(async (_o: unknown, cmd: Command) => {
      const opts = optionsOf<{ composite?: boolean; http?: string; tokenEnv?: string }>(cmd);
      if (opts.http) {
        const { runMcpHttp } = await import('../mcp/http.js');
        await runMcpHttp({ listen: opts.http, tokenEnv: opts.tokenEnv, config: opts.config, composite: opts.composite, yes: opts.yes });
        return;
      }
      const { runMcpStdio } = await import('../mcp/stdio.js');
      await runMcpStdio({ config: opts.config, composite: opts.composite, yes: opts.yes });
    });
}
