// [capabilities.browser] provider = "playwright-mcp": the host's policy chain
// is unchanged, and the approved browser calls go to an existing Playwright
// MCP server instead of webcap's sidecar. Each webcap session is one MCP
// connection to that server (its own process or HTTP session, so its own
// browser context); the actions live in actions.ts.
import type { Logger } from 'pino';
import { WebcapError } from '../../../manifests/errors.js';
import type { WebcapConfig } from '../../config/types.js';
import type { BrowserBackend, Narrowed } from '../browser-backend.js';
import { ACTIONS } from './actions.js';
import { PlaywrightMcpConnection, PROVIDER } from './connection.js';
import { targetFrom } from './target.js';

export interface PwSession { name: string; owner: string; conn: PlaywrightMcpConnection }

/** One caller's sessions (as the sidecar keeps them): the only ones its actions can reach. */
export interface OwnerSessions {
  readonly config: WebcapConfig;
  openSession(requested: string | undefined, timeoutMs: number): Promise<PwSession>;
  session(params: Record<string, unknown>): PwSession;
  closeSession(s: PwSession): Promise<{ closed: string; current: string | null }>;
}

export class PlaywrightMcpBackend implements BrowserBackend {
  readonly name = PROVIDER;
  private readonly sessions = new Map<string, PwSession>();
  private counter = 0;

  constructor(readonly config: WebcapConfig, private readonly log: Logger) {}

  prestart(): void {}
  prelaunch(): void {}

  async invoke(capability: string, params: Record<string, unknown>, timeoutMs: number, owner: string, narrowed?: Narrowed): Promise<Record<string, unknown>> {
    // That server's browser is not behind webcap's network guard: a client's own allowlist could not be held at the page.
    if (narrowed) throw new WebcapError('capability_disabled', `client ${narrowed.client} has its own domains_allowlist, which only webcap's sidecar can hold for every request a page makes; the ${PROVIDER} provider cannot serve it`, { provider: PROVIDER, client: narrowed.client });
    const action = ACTIONS[capability];
    if (!action) {
      // Reached only by host-side providers that render with the browser (web.scrape); the enabled policy refuses the rest.
      throw new WebcapError('capability_disabled', `${capability} is not available with the ${PROVIDER} provider (it serves ${Object.keys(ACTIONS).join(', ')})`, { provider: PROVIDER, capability });
    }
    return action(this.for(owner), params, timeoutMs);
  }

  private for(owner: string): OwnerSessions {
    return {
      config: this.config,
      openSession: (requested, ms) => this.openSession(owner, requested, ms),
      session: (params) => this.session(owner, params),
      closeSession: (s) => this.closeSession(s),
    };
  }

  private currentOf(owner: string): string | undefined {
    return [...this.sessions.values()].filter((s) => s.owner === owner).at(-1)?.name;
  }

  /** web.open: a new connection (and browser context) named like the sidecar's sessions. */
  private async openSession(owner: string, requested: string | undefined, timeoutMs: number): Promise<PwSession> {
    let name = requested;
    if (!name) do name = `s${++this.counter}`; while (this.sessions.has(name));
    if (this.sessions.has(name)) throw new WebcapError('invalid_params', `session "${name}" is already open or its name is in use; choose another name or leave it out`, { session: name });
    const max = this.config.capabilities.browser.max_concurrent_sessions;
    if (this.sessions.size >= max) throw new WebcapError('session_limit', `${this.sessions.size} sessions are open (max_concurrent_sessions = ${max}); close one with web.close`, { open: [...this.sessions.keys()], max });
    const conn = await PlaywrightMcpConnection.open(targetFrom(this.config), timeoutMs);
    const session = { name, owner, conn };
    this.sessions.set(name, session);
    this.log.info({ session: name, provider: PROVIDER }, 'session opened on the Playwright MCP server');
    return session;
  }

  /** The owner's session by name, or its latest; another caller's is answered as one that does not exist. */
  private session(owner: string, params: Record<string, unknown>): PwSession {
    const wanted = (typeof params.session === 'string' ? params.session : undefined) ?? this.currentOf(owner);
    const s = wanted ? this.sessions.get(wanted) : undefined;
    if (!s || s.owner !== owner) {
      const own = [...this.sessions.values()].filter((x) => x.owner === owner).map((x) => x.name);
      throw new WebcapError('session_not_found', wanted ? `no open session named "${wanted}" among this caller's sessions (open: ${own.join(', ') || 'none'})` : 'this caller has no open session: call web.open first', { session: wanted ?? null });
    }
    return s;
  }

  private async closeSession(s: PwSession): Promise<{ closed: string; current: string | null }> {
    this.sessions.delete(s.name);
    await s.conn.tool('browser_close', {}, 10_000).catch(() => undefined);
    await s.conn.close();
    return { closed: s.name, current: this.currentOf(s.owner) ?? null };
  }

  async close(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => this.closeSession(s)));
  }
}
