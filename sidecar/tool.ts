// A tool is one literal: its manifest id and its handler. Checks every page
// tool needs (find the session, resolve the timeout, map errors, remember the
// last blocked request) live once here, as in Playwright's MCP tools.
import type { SessionTraces } from './trace.js';
import type { Page } from 'playwright';
import { WebcapError } from '../manifests/errors.js';
import type { BlockedRequest, HandoffAsk, HandoffReply, SecretAnswer, SecretResolve, SensitiveAction, SidecarInit } from '../manifests/wire.js';
import type { EffectGate } from './effect-gate.js';
import { mapError } from './errors.js';
import { callEvents } from './page-events.js';
import type { SiteProfile } from './profiles.js';
import { resolveSelector } from './selectors.js';
import type { CallerSessions, Session } from './sessions.js';

export type Params = Record<string, unknown> & { session?: string; timeout?: number };
export type Result = Record<string, unknown>;

export interface ToolContext {
  init: SidecarInit;
  /** The calling owner's sessions only (sessions.ts). */
  sessions: CallerSessions;
  profiles: SiteProfile[];
  /** Consent and robots.txt on the requests an action causes (effect-gate.ts). */
  effects: EffectGate;
  /** Playwright traces of sessions ([report] trace). */
  traces: SessionTraces;
  /** Ask the host (and so the user) before a sensitive step; throws consent_denied on no. */
  confirm(action: Omit<SensitiveAction, 'session' | 'url'>, session: Session): Promise<void>;
  /** Ask the host (and so the user) a question; resolves to the user's yes/no. */
  askUser(action: Omit<SensitiveAction, 'session' | 'url'>, session: Session): Promise<boolean>;
  /** A vault value for a reference about to be typed into a frame of q.origin (the host checks and asks). */
  resolveSecret(q: SecretResolve): Promise<SecretAnswer>;
  /** Hand the session to the person in the console (web.handoff) and wait for Done, the timeout or Stop. */
  handOff(ask: HandoffAsk): Promise<HandoffReply>;
  /** An event for the chain (the host records it like the sidecar's other events). */
  event(kind: string, session: string, detail: Record<string, unknown>): void;
  lastBlocked(session: string): BlockedRequest | undefined;
  forgetBlocked(): void;
  /** Waits a site profile's polite delay before acting on its domain. */
  polite(session: Session): Promise<void>;
}

export interface Tool {
  id: string;
  handle(ctx: ToolContext, params: Params): Promise<Result>;
}

export interface PageCall {
  page: Page;
  session: Session;
  timeout: number;
  ctx: ToolContext;
  /** Resolve @name selectors against the current page's site profile. */
  selector(s: string): string;
}

export function defineTool(id: string, handle: Tool['handle']): Tool {
  return { id, handle };
}

export function pageTool(id: string, run: (call: PageCall, params: Params) => Promise<Result>): Tool {
  return defineTool(id, async (ctx, params) => {
    const session = ctx.sessions.get(params.session);
    const page = session.page;
    session.lastUsed = Date.now();     // a long call must not look idle to the sweeper
    const timeout = params.timeout ?? ctx.init.browser.default_timeout_ms;
    // Dialogs answered and downloads started during this call are reported in its result (page-events.ts).
    const report = callEvents(session);
    try {
      const result = await run({ page, session, timeout, ctx, selector: (s) => resolveSelector(s, ctx.profiles, page.url()) }, params);
      return { session: session.name, ...(await report(timeout)), ...result };
    } catch (err) {
      throw mapError(err, { url: page.url(), blocked: ctx.lastBlocked(session.name) });
    } finally {
      session.lastUsed = Date.now();
    }
  });
}

/** Waits for a selector, turning "never appeared" into selector_not_found (not a bare timeout). */
export async function waitForSelector(page: Page, selector: string, timeout: number, state: 'visible' | 'attached' = 'visible', frame?: string) {
  const locator = (frame === undefined ? page : page.frameLocator(frame)).locator(selector).first();
  try {
    await locator.waitFor({ state, timeout });
  } catch (err) {
    if ((err as Error).name === 'TimeoutError') {
      throw new WebcapError('selector_not_found', `no element matching ${selector} appeared within ${timeout} ms`, { selector, timeout_ms: timeout });
    }
    throw err;
  }
  return locator;
}

/** An element lookup that timed out means the selector never matched: say so. */
export async function notFoundAsSelector<T>(lookup: Promise<T>, selector: string, timeout: number): Promise<T> {
  try {
    return await lookup;
  } catch (err) {
    if ((err as Error).name === 'TimeoutError') {
      throw new WebcapError('selector_not_found', `no element matching ${selector} appeared within ${timeout} ms`, { selector, timeout_ms: timeout });
    }
    throw err;
  }
}
