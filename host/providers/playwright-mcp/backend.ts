// [capabilities.browser] provider = "playwright-mcp": the host's policy chain
// is unchanged, and the approved browser calls go to an existing Playwright
// MCP server instead of webcap's sidecar. Each webcap session is one MCP
// connection to that server (its own process or HTTP session, so its own
// browser context); the actions live in actions.ts.
import type { Logger } from 'pino';
import { WebcapError } from '../../../manifests/errors.js';
import type { WebcapConfig } from '../../config/types.js';
import type { BrowserBackend } from '../browser-backend.js';
import { ACTIONS } from './actions.js';
import { PlaywrightMcpConnection, PROVIDER } from './connection.js';
import { targetFrom } from './target.js';

export interface PwSession { name: string; conn: PlaywrightMcpConnection }

export class PlaywrightMcpBackend implements BrowserBackend {
  readonly name = PROVIDER;
  private readonly sessions = new Map<string, PwSession>();
  private current: string | undefined;
  private counter = 0;

  constructor(readonly config: WebcapConfig, private readonly log: Logger) {}

  prestart(): void {}
  prelaunch(): void {}

  async invoke(capability: string, params: Record<string, unknown>, timeoutMs: number): Promise<Record<string, unknown>> {
    const action = ACTIONS[capability];
    if (!action) {
      // Reached only by host-side providers that render with the browser (web.scrape); the enabled policy refuses the rest.
      throw new WebcapError('capability_disabled', `${capability} is not available with the ${PROVIDER} provider (it serves ${Object.keys(ACTIONS).join(', ')})`, { provider: PROVIDER, capability });
    }
    return action(this, params, timeoutMs);
  }

  /** web.open: a new connection (and browser context) named like the sidecar's sessions. */
  async openSession(requested: string | undefined, timeoutMs: number): Promise<PwSession> {
    const name = requested ?? `s${++this.counter}`;
    if (this.sessions.has(name)) throw new WebcapError('invalid_params', `session "${name}" is already open; use web.navigate with session "${name}" or web.close it first`, { session: name });
    const max = this.config.capabilities.browser.max_concurrent_sessions;
    if (this.sessions.size >= max) throw new WebcapError('session_limit', `${this.sessions.size} sessions are open (max_concurrent_sessions = ${max}); close one with web.close`, { open: [...this.sessions.keys()], max });
    const conn = await PlaywrightMcpConnection.open(targetFrom(this.config), timeoutMs);
    const session = { name, conn };
    this.sessions.set(name, session);
    this.current = name;
    this.log.info({ session: name, provider: PROVIDER }, 'session opened on the Playwright MCP server');
    return session;
  }

  session(params: Record<string, unknown>): PwSession {
    const wanted = (params.session as string | undefined) ?? this.current;
    const s = wanted ? this.sessions.get(wanted) : undefined;
    if (!s) {
      throw new WebcapError('session_not_found', wanted ? `no open session named "${wanted}" (open: ${[...this.sessions.keys()].join(', ') || 'none'})` : 'no session is open: call web.open first', { session: wanted ?? null });
    }
    return s;
  }

  async closeSession(s: PwSession): Promise<{ closed: string; current: string | null }> {
    this.sessions.delete(s.name);
    if (this.current === s.name) this.current = [...this.sessions.keys()].at(-1);
    await s.conn.tool('browser_close', {}, 10_000).catch(() => undefined);
    await s.conn.close();
    return { closed: s.name, current: this.current ?? null };
  }

  async close(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((s) => this.closeSession(s)));
  }
}
