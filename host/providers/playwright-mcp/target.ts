// How to reach the Playwright MCP server from [playwright_mcp]. For a spawned
// server (command), webcap adds what its own browser would get from the
// config, unless the command already says otherwise: an output folder inside
// the workspace (the server writes snapshots and logs there), and a config
// file with [network] resolve as host-resolver rules, the viewport, the user
// agent and ignore_https_errors.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileSafelySync } from '../../../manifests/safe-write.js';
import { WebcapError } from '../../../manifests/errors.js';
import type { WebcapConfig } from '../../config/types.js';
import { PROVIDER, type Target } from './connection.js';

export function targetFrom(config: WebcapConfig): Target {
  const { command, url } = config.playwright_mcp;
  if (url) return { url };
  if (!command?.length) {
    throw new WebcapError('capability_disabled', `[capabilities.browser] provider = "${PROVIDER}" needs [playwright_mcp] command = [...] or url = "http://…/mcp"`, { provider: PROVIDER });
  }
  const workspace = resolve(config.workspace.path);
  const dir = join(workspace, 'playwright-mcp');
  mkdirSync(dir, { recursive: true });
  const extra: string[] = [];
  if (!command.includes('--output-dir')) extra.push('--output-dir', dir);
  if (!command.includes('--config')) {
    const file = join(dir, 'config.json');
    writeFileSafelySync(file, JSON.stringify(serverConfig(config), null, 2), { root: workspace, what: 'playwright-mcp config' });
    extra.push('--config', file);
  }
  return { command: [...command, ...extra], cwd: workspace };
}

/** Playwright MCP's config file format: browser.launchOptions / contextOptions are Playwright's own. */
function serverConfig(config: WebcapConfig): Record<string, unknown> {
  const b = config.capabilities.browser;
  const rules = Object.entries(config.network.resolve).map(([host, ip]) => `MAP ${host} ${ip}`);
  const args = rules.length ? [`--host-resolver-rules=${rules.join(', ')}`] : [];
  return {
    browser: {
      launchOptions: { args, headless: b.headless },
      contextOptions: { viewport: { width: b.viewport_width, height: b.viewport_height }, userAgent: b.user_agent, ignoreHTTPSErrors: b.ignore_https_errors },
    },
  };
}
