// One MCP client connection to a Playwright MCP server: a child process
// (`[playwright_mcp] command`) or an HTTP endpoint (`url`). Each webcap session
// gets its own connection, so sessions never share cookies or pages (with
// --isolated each process or HTTP session has its own browser context).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { WebcapError } from '../../../manifests/errors.js';

export const PROVIDER = 'playwright-mcp';

export type Target = { command: string[]; cwd: string } | { url: string };

export class PlaywrightMcpConnection {
  private constructor(private readonly client: Client) {}

  static async open(target: Target, timeoutMs: number): Promise<PlaywrightMcpConnection> {
    const client = new Client({ name: 'webcap', version: '0.1.0' });
    const transport = 'url' in target
      ? new StreamableHTTPClientTransport(new URL(target.url))
      : new StdioClientTransport({ command: target.command[0], args: target.command.slice(1), cwd: target.cwd, stderr: 'ignore' });
    try {
      await client.connect(transport, { timeout: timeoutMs });
    } catch (err) {
      await client.close().catch(() => undefined);
      throw new WebcapError('provider_error', `could not start or reach the Playwright MCP server (${reason(err)})`, { provider: PROVIDER, reason: reason(err) });
    }
    return new PlaywrightMcpConnection(client);
  }

  /** Calls one of the server's tools; its text answer, or the WebcapError its error maps to. */
  async tool(name: string, args: Record<string, unknown>, timeoutMs: number): Promise<{ text: string; result: CallToolResult }> {
    let result: CallToolResult;
    try {
      result = (await this.client.callTool({ name, arguments: args }, undefined, { timeout: timeoutMs })) as CallToolResult;
    } catch (err) {
      if (/timed? ?out/i.test(reason(err))) throw new WebcapError('timeout', `${name} took longer than ${timeoutMs} ms on the Playwright MCP server`, { provider: PROVIDER, tool: name });
      throw new WebcapError('provider_error', `${name} failed on the Playwright MCP server: ${reason(err)}`, { provider: PROVIDER, tool: name });
    }
    const text = result.content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text).join('\n');
    if (result.isError) throw errorFrom(name, section(text, 'Error') ?? text);
    return { text, result };
  }

  /** Runs a function in the page (browser_evaluate) and returns its JSON value. */
  async evaluate<T>(fn: string, timeoutMs: number): Promise<T> {
    const { text } = await this.tool('browser_evaluate', { function: fn }, timeoutMs);
    const value = section(text, 'Result');
    if (value === undefined) throw new WebcapError('provider_error', 'browser_evaluate returned no result', { provider: PROVIDER });
    try {
      return JSON.parse(value) as T;
    } catch {
      return value as T; // a plain string result
    }
  }

  close(): Promise<void> {
    return this.client.close().catch(() => undefined);
  }
}

/** The body of a "### Name" section of the server's markdown answer. */
export function section(text: string, name: string): string | undefined {
  const m = new RegExp(`(?:^|\\n)### ${name}\\n([\\s\\S]*?)(?=\\n### |$)`).exec(text);
  return m?.[1].trim();
}

function errorFrom(tool: string, message: string): WebcapError {
  const first = message.split('\n')[0].replace(/^Error:\s*/, '');
  if (/does not match any elements|not found|no element/i.test(first)) return new WebcapError('selector_not_found', first, { provider: PROVIDER, tool });
  if (/timeout|timed out/i.test(first)) return new WebcapError('timeout', first, { provider: PROVIDER, tool });
  if (/net::ERR_|navigation/i.test(first)) return new WebcapError('navigation_failed', first, { provider: PROVIDER, tool });
  return new WebcapError('provider_error', `${tool}: ${first}`, { provider: PROVIDER, tool });
}

function reason(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
