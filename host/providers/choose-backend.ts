// [capabilities.browser] provider: webcap's sidecar (default) or a Playwright MCP server.
import type { Logger } from 'pino';
import type { WebcapConfig } from '../config/types.js';
import type { SidecarClient } from '../sidecar-link/sidecar-client.js';
import type { BrowserBackend } from './browser-backend.js';
import { PlaywrightMcpBackend } from './playwright-mcp/backend.js';

export function chooseBackend(config: WebcapConfig, log: Logger, sidecar: SidecarClient): BrowserBackend {
  if (config.capabilities.browser.provider === 'playwright-mcp') return new PlaywrightMcpBackend(config, log);
  return {
    name: 'sidecar',
    invoke: (id, params, ms, owner, narrowed) => sidecar.invoke(id, params, ms, owner, narrowed),
    prestart: () => sidecar.prestart(),
    prelaunch: (spare) => sidecar.prelaunch(spare),
    close: () => sidecar.close(),
  };
}
