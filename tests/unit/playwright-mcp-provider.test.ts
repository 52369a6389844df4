// The playwright-mcp provider's pure parts: which capabilities it serves, how
// the server's markdown answers are read, what webcap adds to its command, and
// the image sizes of the screenshots it writes.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../host/config/load.js';
import { ACTIONS } from '../../host/providers/playwright-mcp/actions.js';
import { section } from '../../host/providers/playwright-mcp/connection.js';
import { imageSize } from '../../host/providers/playwright-mcp/screenshot.js';
import { PLAYWRIGHT_MCP_SERVES } from '../../host/providers/playwright-mcp/served.js';
import { targetFrom } from '../../host/providers/playwright-mcp/target.js';
import { failure } from '../helpers/failure.js';
import { tempDir } from '../helpers/host.js';

describe('the playwright-mcp provider', () => {
  it('serves exactly the capabilities the enabled policy lets through', () => {
    expect(Object.keys(ACTIONS).sort()).toEqual([...PLAYWRIGHT_MCP_SERVES].sort());
  });

  it('reads a section of the server\'s answer', () => {
    const text = '### Result\n{\n  "a": 1\n}\n### Ran Playwright code\n```js\nawait page.evaluate(...)\n```';
    expect(JSON.parse(section(text, 'Result')!)).toEqual({ a: 1 });
    expect(section('### Error\nError: "#x" does not match any elements.', 'Error')).toBe('Error: "#x" does not match any elements.');
    expect(section(text, 'Snapshot')).toBeUndefined();
  });

  it('adds an output folder and a config with the resolve rules to a spawned server, unless the command sets them', () => {
    const dir = tempDir();
    const config = loadConfig({ workspace: { path: dir }, network: { resolve: { 'shop.test': '127.0.0.1:8443' } }, capabilities: { browser: { provider: 'playwright-mcp' } }, playwright_mcp: { command: ['npx', '@playwright/mcp', '--headless'] } });
    const t = targetFrom(config) as { command: string[]; cwd: string };
    expect(t.command.slice(0, 3)).toEqual(['npx', '@playwright/mcp', '--headless']);
    expect(t.command).toEqual(expect.arrayContaining(['--output-dir', join(dir, 'playwright-mcp'), '--config', join(dir, 'playwright-mcp', 'config.json')]));
    const own = loadConfig({ workspace: { path: dir }, playwright_mcp: { command: ['pw', '--config', 'mine.json', '--output-dir', 'out'] } });
    expect((targetFrom(own) as { command: string[] }).command).toEqual(['pw', '--config', 'mine.json', '--output-dir', 'out']);
    expect(targetFrom(loadConfig({ playwright_mcp: { url: 'http://127.0.0.1:8931/mcp' } }))).toEqual({ url: 'http://127.0.0.1:8931/mcp' });
  });

  it('is capability_disabled without a command or url', async () => {
    const e = await failure(Promise.resolve().then(() => targetFrom(loadConfig({ workspace: { path: tempDir() } }))));
    expect(e.code).toBe('capability_disabled');
    expect(e.message).toContain('[playwright_mcp] command');
  });

  it('rejects a bad [playwright_mcp] key at start-up', async () => {
    const e = await failure(Promise.resolve().then(() => loadConfig({ playwright_mcp: { url: 'ftp://x' } })));
    expect(e.message).toContain('playwright_mcp.url');
  });

  it('reads PNG and JPEG sizes', () => {
    const png = Buffer.alloc(24);
    png.writeUInt32BE(0x89504e47, 0); png.writeUInt32BE(1280, 16); png.writeUInt32BE(800, 20);
    expect(imageSize(png)).toEqual({ width: 1280, height: 800 });
    // SOI, an APP0 segment of 16 bytes, then SOF0 with height 600 and width 900.
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, ...Array(14).fill(0), 0xff, 0xc0, 0x00, 0x11, 0x08, 0x02, 0x58, 0x03, 0x84, 0x03]);
    expect(imageSize(jpeg)).toEqual({ width: 900, height: 600 });
  });
});
