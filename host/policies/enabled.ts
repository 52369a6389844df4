// [capabilities.browser] enabled = false turns every browser capability off;
// host-side ones (ccos.user.ask) stay available.
import { WebcapError } from '../../manifests/errors.js';
import type { WebcapConfig } from '../config/types.js';
import type { Policy } from './types.js';

export function enabledPolicy(config: WebcapConfig): Policy {
  return async (call, next) => {
    if (call.manifest.provider === 'sidecar' && !config.capabilities.browser.enabled) {
      call.decisions.push({ policy: 'enabled', decision: 'denied', reason: 'capabilities.browser.enabled = false' });
      throw new WebcapError('capability_disabled', `${call.capability} is disabled: [capabilities.browser] enabled = false`, { capability: call.capability });
    }
    return next();
  };
}
