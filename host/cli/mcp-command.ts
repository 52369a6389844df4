// `webcap mcp [--composite]`: the MCP server on stdio.
import type { Command } from 'commander';
import { runMcpStdio } from '../mcp/stdio.js';
import { optionsOf } from './args.js';

export function registerMcp(program: Command): void {
  program.command('mcp')
    .description('serve the capabilities as MCP tools on stdio')
    .option('--composite', 'also offer the composite browser tool')
    .action(async (_o: unknown, cmd: Command) => {
      const opts = optionsOf<{ composite?: boolean }>(cmd);
      await runMcpStdio({ config: opts.config, composite: opts.composite, yes: opts.yes });
    });
}
