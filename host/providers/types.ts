// A host-side capability: a manifest with `"provider": "host"` whose work is
// done in the host process (no browser), after the same policy chain as any
// sidecar call. Providers get what they need through this context only.
import type { Logger } from 'pino';
import type { ConsentGate } from '../consent/gate.js';
import type { WebcapConfig } from '../config/types.js';
import type { CallContext, CallResult } from '../policies/types.js';
import type { Redactor } from '../redact/redactor.js';
import type { HostCapabilityId, ParamsOf } from '../../manifests/types.generated.js';

export interface HostProviderContext {
  config: WebcapConfig;
  log: Logger;
  redactor: Redactor;
  gate: ConsentGate;
  /** Forward to the sidecar (for providers that render with the browser and fall back otherwise). */
  sidecar(id: string, params: Record<string, unknown>, timeoutMs: number): Promise<CallResult>;
  /** robots.txt for a URL the provider is about to request itself (a redirect hop), from the host's cache. */
  robots(url: string): Promise<{ allowed: boolean; reason: string; rule?: string }>;
  call: CallContext;
}

/** A host capability's work; its params are typed from its manifest (validated by the policy chain first). */
export type HostProvider<K extends HostCapabilityId> = (params: ParamsOf<K>, ctx: HostProviderContext) => Promise<CallResult>;
