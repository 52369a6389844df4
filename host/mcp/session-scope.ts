// The browser sessions one MCP session owns. Several MCP clients share one
// host (one budget, one chain, one Chromium); each is a caller of its own
// (host.scope()), so a call without `session` reaches only the client's own
// latest session and a session another client opened is never reachable: the
// sidecar keeps them apart where the page is, and policies/session-scope.ts
// refuses a named one early, inside the chain.
import type { Manifest } from '../../manifests/load.js';
import type { CallOptions, HostScope } from '../host.js';
import type { CallResult } from '../policies/types.js';
import { OPENS_SESSION } from '../policies/session-scope.js';

/** A tool that needs an open session: it takes `session` and cannot open one itself. */
export function needsSession(m: Manifest): boolean {
  const props = (m.input_schema.properties ?? {}) as Record<string, unknown>;
  return 'session' in props && !OPENS_SESSION.has(m.id);
}

export class SessionScope {
  private readonly listeners = new Set<(open: number) => void>();
  private seen = 0;

  constructor(private readonly caller: HostScope) {}

  /** The owner this client's calls carry. */
  get owner(): string { return this.caller.owner; }
  get sessions(): readonly string[] { return this.caller.sessions(); }
  owns(name: string): boolean { return this.caller.sessions().includes(name); }

  /** A call as this client. */
  async call(id: string, params: Record<string, unknown>, opts?: CallOptions): Promise<CallResult> {
    try {
      return await this.caller.call(id, params, opts);
    } finally {
      this.changed();
    }
  }

  /** Called with the number of open sessions whenever it changes. */
  onChange(listener: (open: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Closes this client's sessions (governed, recorded). */
  async close(opts?: CallOptions): Promise<void> {
    for (const session of [...this.sessions].reverse()) await this.call('web.close', { session }, opts).catch(() => undefined);
  }

  private changed(): void {
    const open = this.caller.sessions().length;
    if (open === this.seen) return;
    this.seen = open;
    for (const l of this.listeners) l(open);
  }
}
