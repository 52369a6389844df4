// A sidecar with no host in front: no policies, no chain, no consent. The
// "governance off" side of the bench, and the sidecar's own start-up cost.
import pino from 'pino';
import { loadConfig } from '../host/config/load.js';
import { SidecarClient } from '../host/sidecar-link/sidecar-client.js';
import { sidecarInit } from '../host/sidecar-link/sidecar-init.js';

export function bareSidecar(config: Record<string, unknown>): SidecarClient {
  return new SidecarClient(() => sidecarInit(loadConfig(config)), {
    onBlocked: () => undefined, onEvent: () => undefined, onSensitive: async () => ({ approved: false }),
  }, pino({ level: 'silent' }));
}
