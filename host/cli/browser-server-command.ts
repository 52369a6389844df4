// `webcap browser-server [--listen H:P] [--token-env NAME]`: a Playwright
// browser server for hosts on other machines (host/daemon/browser-server.ts).
import type { Command } from 'commander';
import { optionsOf } from './args.js';

export function registerBrowserServer(program: Command): void {
  program.command('browser-server')
    .description('serve a Playwright browser that other hosts use through remote_endpoint; prints {"ws_endpoint": …}')
    .option('--listen <host:port>', 'address to listen on (loopback unless a token is set)', '127.0.0.1:0')
    .option('--token-env <name>', 'environment variable holding the token (the WebSocket path); required off loopback')
    .action(async (_o: unknown, cmd: Command) => {
      const o = optionsOf<{ listen: string; tokenEnv?: string }>(cmd);
      const { browserServerCommand } = await import('../daemon/browser-server.js');
      process.exitCode = await browserServerCommand({ listen: o.listen, tokenEnv: o.tokenEnv, config: o.config });
    });
}
