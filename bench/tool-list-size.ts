// What an agent pays on every turn for the tool list: characters of the default
// `tools/list` (names, descriptions, input schemas, annotations, output schemas)
// of `webcap mcp` against @playwright/mcp's default list, both started over
// stdio with the MCP SDK client in the same run.
// Run: npx tsc -p tsconfig.json && node dist/bench/tool-list-size.js
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { projectRoot } from '../manifests/load.js';

export interface ListSize { tools: number; chars: number; outputSchemaChars: number }

async function listSize(command: string, args: string[]): Promise<ListSize> {
  const client = new Client({ name: 'tool-list-size', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command, args, cwd: projectRoot(), stderr: 'ignore', env: { ...process.env, WEBCAP_CONFIG: '' } as Record<string, string> }));
  try {
    const { tools } = await client.listTools();
    return {
      tools: tools.length,
      chars: JSON.stringify(tools).length,
      outputSchemaChars: tools.reduce((n, t) => n + (t.outputSchema ? JSON.stringify(t.outputSchema).length : 0), 0),
    };
  } finally {
    await client.close();
  }
}

export async function toolListSizes(): Promise<{ webcap: ListSize; playwrightMcp: ListSize }> {
  const dir = mkdtempSync(join(tmpdir(), 'webcap-list-size-'));
  const config = join(dir, 'agent_config.toml');
  writeFileSync(config, `[chain]\npath = "${join(dir, 'chain.jsonl')}"\n`);
  const webcap = await listSize(process.execPath, [join(projectRoot(), 'bin', 'webcap.js'), 'mcp', '--config', config]);
  const playwrightMcp = await listSize(process.execPath, [join(projectRoot(), 'node_modules', '@playwright', 'mcp', 'cli.js'), '--headless', '--isolated']);
  return { webcap, playwrightMcp };
}

if (process.argv[1]?.endsWith('tool-list-size.js')) {
  const { webcap, playwrightMcp } = await toolListSizes();
  console.log('| default tools/list | tools | characters (JSON) | of which output schemas |\n|---|---:|---:|---:|');
  console.log(`| webcap mcp | ${webcap.tools} | ${webcap.chars} | ${webcap.outputSchemaChars} |`);
  console.log(`| @playwright/mcp 0.0.83 | ${playwrightMcp.tools} | ${playwrightMcp.chars} | ${playwrightMcp.outputSchemaChars} |`);
  console.log(`\nwebcap ÷ @playwright/mcp: ${(webcap.chars / playwrightMcp.chars).toFixed(2)} (target ≤ 1.00)`);
}
