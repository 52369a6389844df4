// `webcap mcp` on stdio: stdout carries the protocol only (logs go to the log
// file or stderr). The server lives until the client closes stdin or sends a
// signal; then the host closes, which stops the sidecar and its browser.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer, type McpOptions } from './server.js';

export async function runMcpStdio(options: McpOptions): Promise<void> {
  const mcp = createMcpServer(options);
  // Chromium launches while the client's handshake runs, so the first web_open finds a browser (README: what starts eagerly).
  mcp.host.warm();
  await mcp.ready;
  // [console] enabled: a person can watch and answer where the client cannot ask (URL on stderr, once).
  if (mcp.host.config.console.enabled) process.stderr.write(`webcap console: ${(await mcp.host.console({ ...(options.consoleTokenEnv ? { tokenEnv: options.consoleTokenEnv } : {}) })).url}\n`);
  const done = new Promise<void>((resolve) => {
    const stop = () => { void mcp.close().finally(resolve); };
    process.stdin.once('end', stop);
    process.stdin.once('close', stop);
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  await mcp.server.connect(new StdioServerTransport());
  await done;
  // Nothing more will be read; an open stdin would keep the process alive after a signal.
  process.stdin.destroy();
}
