// A program embeds the MCP server from the package entry (host/index.ts) and
// connects it to a transport of its choice: here the SDK's in-memory pair.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { createMcpServer } from '../../host/index.js';
import { testConfig } from '../helpers/host.js';

describe('createMcpServer from the package entry', () => {
  it('serves the tools over any transport, governed by the host it built', async () => {
    const mcp = createMcpServer({ config: testConfig({ browser: { domains_allowlist: ['site.test'] } }) });
    await mcp.ready;
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.server.connect(serverSide);
    const client = new Client({ name: 'embedder', version: '1.0.0' });
    await client.connect(clientSide);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['web_open', 'web_click', 'ccos_user_ask']));
      // Refused by the allowlist before any browser starts.
      const r = (await client.callTool({ name: 'web_open', arguments: { url: 'http://elsewhere.test/' } })) as CallToolResult;
      expect(r.isError).toBe(true);
      expect(JSON.parse((r.content[0] as { text: string }).text).error.code).toBe('not_allowlisted');
    } finally {
      await client.close();
      await mcp.close();
    }
  });
});
