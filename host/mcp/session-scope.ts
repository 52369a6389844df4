// The browser sessions one MCP session owns. Several MCP clients share one
// host (one budget, one chain, one Chromium), so the sidecar's notion of "the
// current session" is global; this scope gives each client its own: a call
// without `session` targets the client's own latest session, and a call naming
// a session another client opened is refused exactly as if it did not exist.
import { WebcapError } from '../../manifests/errors.js';
import type { Manifest } from '../../manifests/load.js';

/** Capabilities that create a session rather than need one (web.fill_form opens one when given a url). */
const OPENS_SESSION = new Set(['web.open', 'web.fill_form']);

/** A tool that needs an open session: it takes `session` and cannot open one itself. */
export function needsSession(m: Manifest): boolean {
  const props = (m.input_schema.properties ?? {}) as Record<string, unknown>;
  return 'session' in props && !OPENS_SESSION.has(m.id);
}

export class SessionScope {
  private readonly owned: string[] = [];
  private readonly listeners = new Set<(open: number) => void>();

  constructor(
    /** Session names held by every other scope of the same host. */
    private readonly takenElsewhere: (name: string) => boolean,
  ) {}

  get sessions(): readonly string[] { return this.owned; }
  owns(name: string): boolean { return this.owned.includes(name); }

  /** Called with the number of open sessions whenever it changes. */
  onChange(listener: (open: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The params to send: the client's own session filled in, or a refusal if it names someone else's. */
  prepare(m: Manifest, params: Record<string, unknown>): Record<string, unknown> {
    const props = (m.input_schema.properties ?? {}) as Record<string, unknown>;
    if (!('session' in props)) return params;
    const named = typeof params.session === 'string' ? params.session : undefined;
    if (OPENS_SESSION.has(m.id)) {
      // Naming a new session after one another client holds would fail in the sidecar and tell this client it exists.
      if (named && this.takenElsewhere(named)) throw notFound(named, this.owned);
      if (m.id === 'web.open' || named || !this.owned.length) return params;
      return { ...params, session: this.owned.at(-1) };
    }
    if (named) {
      if (!this.owns(named)) throw notFound(named, this.owned);
      return params;
    }
    const current = this.owned.at(-1);
    if (!current) throw new WebcapError('session_not_found', 'no session is open: call web.open first', { session: null });
    return { ...params, session: current };
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

function notFound(name: string, own: readonly string[]): WebcapError {
  return new WebcapError('session_not_found', `no open session named "${name}" (open: ${own.join(', ') || 'none'})`, { session: name });
}
