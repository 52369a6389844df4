// [capabilities.browser] enabled = false turns every browser capability off;
// host-side ones (ccos.user.ask) stay available. web.evaluate also needs
// [capabilities.browser] evaluate_enabled = true.
import { WebcapError } from '../../manifests/errors.js';
import type { WebcapConfig } from '../config/types.js';
import { PLAYWRIGHT_MCP_SERVES } from '../providers/playwright-mcp/served.js';
import type { Policy } from './types.js';

const served = new Set<string>(PLAYWRIGHT_MCP_SERVES);

export function enabledPolicy(config: WebcapConfig): Policy {
  return async (call, next) => {
    if (call.manifest.provider === 'sidecar' && !config.capabilities.browser.enabled) {
      call.decisions.push({ policy: 'enabled', decision: 'denied', reason: 'capabilities.browser.enabled = false' });
      throw new WebcapError('capability_disabled', `${call.capability} is disabled: [capabilities.browser] enabled = false`, { capability: call.capability });
    }
    // Running page scripts is off unless the config says otherwise; checked before consent so nobody is asked in vain.
    if (call.capability === 'web.evaluate' && !config.capabilities.browser.evaluate_enabled) {
      call.decisions.push({ policy: 'enabled', decision: 'denied', reason: 'capabilities.browser.evaluate_enabled = false' });
      throw new WebcapError('capability_disabled', 'web.evaluate is disabled: running scripts in pages is off by default; set [capabilities.browser] evaluate_enabled = true to allow it (each call still asks the user)', { capability: call.capability, config_key: 'capabilities.browser.evaluate_enabled' });
    }
    if (call.manifest.provider === 'sidecar' && config.capabilities.browser.provider === 'playwright-mcp' && !served.has(call.capability)) {
      call.decisions.push({ policy: 'enabled', decision: 'denied', reason: 'not served by the playwright-mcp provider' });
      throw new WebcapError('capability_disabled', `${call.capability} is not available with [capabilities.browser] provider = "playwright-mcp" (it serves ${PLAYWRIGHT_MCP_SERVES.join(', ')})`, { capability: call.capability, provider: 'playwright-mcp' });
    }
    return next();
  };
}
