// The browser sessions one MCP session owns. Several MCP clients share one
// host (one budget, one chain, one Chromium), so the sidecar's notion of "the
// current session" is global; this scope gives each client its own: a call
// without `session` targets the client's own latest session. The scope rides
// along with the call (CallOptions.scope) and policies/session-scope.ts refuses,
// inside the chain, a call naming a session another client opened.
import { WebcapError } from '../../manifests/errors.js';
import type { Manifest } from '../../manifests/load.js';
import { OPENS_SESSION, type SessionOwner } from '../policies/session-scope.js';

/** A tool that needs an open session: it takes `session` and cannot open one itself. */
export function needsSession(m: Manifest): boolean {
  const props = (m.input_schema.properties ?? {}) as Record<string, unknown>;
  return 'session' in props && !OPENS_SESSION.has(m.id);
}

export class SessionScope implements SessionOwner {
  private readonly owned: string[] = [];
  private readonly listeners = new Set<(open: number) => void>();

  constructor(
    /** Session names held by every other scope of the same host. */
    readonly takenElsewhere: (name: string) => boolean,
    /** The [[mcp.clients]] principal whose MCP session this is (absent with a single token). */
    readonly owner?: string,
  ) {}

  get sessions(): readonly string[] { return this.owned; }
  owns(name: string): boolean { return this.owned.includes(name); }

  /** Called with the number of open sessions whenever it changes. */
  onChange(listener: (open: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The params to send: without a session name, the client's own latest session (the policy checks a named one). */
  prepare(m: Manifest, params: Record<string, unknown>): Record<string, unknown> {
    const props = (m.input_schema.properties ?? {}) as Record<string, unknown>;
    if (!('session' in props) || typeof params.session === 'string' || m.id === 'web.open') return params;
    const current = this.owned.at(-1);
    return current ? { ...params, session: current } : params;
  }

  /** Learns from results (web.open / web.close / a web.fill_form that opened one), like the host's tracker. */
  observe(capability: string, result: Record<string, unknown>): void {
    if (capability === 'web.open' && typeof result.session === 'string') this.add(result.session);
    if (result.opened_session === true && typeof result.session === 'string') this.add(result.session);
    if (capability === 'web.close' && typeof result.closed === 'string') this.remove(result.closed);
  }

  /** web.status lists every session of the browser; a client sees only its own. */
  visible(capability: string, result: Record<string, unknown>): Record<string, unknown> {
    if (capability !== 'web.status' || !Array.isArray(result.sessions)) return result;
    const sessions = (result.sessions as Array<{ session?: string }>).filter((s) => typeof s.session === 'string' && this.owns(s.session))
      .map((s) => ({ ...s, current: s.session === this.owned.at(-1) }));
    return { ...result, current: this.owned.at(-1) ?? null, sessions };
  }

  /** A session the sidecar no longer has (idle-closed, crashed) is dropped when a call says so. */
  forgetIfGone(err: unknown, params: Record<string, unknown>): void {
    if (err instanceof WebcapError && err.code === 'session_not_found' && typeof params.session === 'string') this.remove(params.session);
  }

  add(name: string): void {
    if (this.owns(name)) return;
    this.owned.push(name);
    this.changed();
  }

  remove(name: string): void {
    const i = this.owned.indexOf(name);
    if (i < 0) return;
    this.owned.splice(i, 1);
    this.changed();
  }

  private changed(): void {
    for (const l of this.listeners) l(this.owned.length);
  }
}
