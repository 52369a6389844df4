// A tool is one literal: its manifest id and its handler. Checks every page
// tool needs (find the session, resolve the timeout, map errors, remember the
// last blocked request) live once here, as in Playwright's MCP tools.
import type { SessionTraces } from './trace.js';
import type { Page } from 'playwright';
import { WebcapError } from '../manifests/errors.js';
import type { BlockedRequest, HandoffAsk, HandoffReply, SecretAnswer, SecretResolve, SensitiveAction, SidecarInit } from '../manifests/wire.js';
import type { EffectGate } from './guard/effect-gate.js';
import { mapError } from './errors.js';
import { pageFlush } from './guard/redirect-hops.js';
import { callEvents } from './page-events.js';
import type { SiteProfile } from './profiles.js';
import { resolveSelector } from './selectors.js';
import type { CallerSessions, Session, StorageState } from './sessions/sessions.js';
import type { Fingerprint } from './fingerprint.js';
import type { ParamsOf, SidecarCapabilityId } from '../manifests/types.generated.js';

export type Params = Record<string, unknown> & { session?: string; timeout?: number };
export type Result = Record<string, unknown>;

/** What the host adds to a capability's params on the way to the sidecar (never from the caller). */
interface HostAdded {
  /** web.open {profile}: the profile's storage, decrypted and cut to allowlisted origins. */
  'web.open': { keep_state?: undefined } | { keep_state: true; storage_state: StorageState };
  /** Closing a profile's session: hand its storage back for saving. */
  'web.close': { storage_state?: boolean };
}

/** Handlers that answer the host only, not capabilities: their params are declared here. */
interface InternalParams {
  /** The plan runner heals a selector that found nothing. */
  'webcap.heal_probe': { fingerprint: Partial<Fingerprint>; session?: string };
  /** An action's answer over MCP shows what changed on the page. */
  'webcap.page_view': { session?: string; mode?: 'diff' | 'snapshot'; timeout?: number };
  /** After a plan step: does the page show a CAPTCHA, a 2FA prompt or a login wall (the URL the step asked for, if any)? */
  'webcap.challenge_probe': { session?: string; requested?: string };
}

/** web.scrape is a host capability whose rendering the sidecar does. */
type ToolId = SidecarCapabilityId | 'web.scrape' | keyof InternalParams;

/** The params a handler receives: the manifest's (generated from its schema), plus what the host adds; every call may name its session and timeout. */
type ToolParams<K extends ToolId> =
  (K extends SidecarCapabilityId | 'web.scrape' ? ParamsOf<K> : K extends keyof InternalParams ? InternalParams[K] : never)
  & (K extends keyof HostAdded ? HostAdded[K] : unknown)
  & { session?: string; timeout?: number };

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
  /** The call is about to navigate the session's page to `url` (network-guard.ts expectNavigation). */
  expectNavigation?(session: string, url: string): void;
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
  /**
   * The action sent its last input: the effect gate's flush starts now, overlapping what the action still reads.
   * `flushed`: a flush the action already sent on the page's watch session (ordered), to wait for instead.
   */
  inputDone(flushed?: Promise<unknown>): void;
}

export function defineTool<K extends ToolId>(id: K, handle: (ctx: ToolContext, params: ToolParams<K>) => Promise<Result>): Tool {
  // The host validated the params against the manifest (ajv) before sending them: here they take its type.
  return { id, handle: (ctx, params) => handle(ctx, params as ToolParams<K>) };
}

export function pageTool<K extends ToolId>(id: K, run: (call: PageCall, params: ToolParams<K>) => Promise<Result>): Tool {
  return defineTool(id, async (ctx, params) => {
    const session = ctx.sessions.get(params.session);
    const page = session.page;
    session.calls += 1;                // a long call must not look idle to the sweeper
    const timeout = params.timeout ?? ctx.init.browser.default_timeout_ms;
    // Dialogs answered and downloads started during this call are reported in its result (page-events.ts).
    const report = callEvents(session);
    try {
      const inputDone = (flushed?: Promise<unknown>) => {
        const flush = flushed ? { run: () => flushed, ordered: true } : pageFlush(page);
        ctx.effects.inputDone(session.name, flush.run, flush.ordered);
      };
      const result = await run({ page, session, timeout, ctx, selector: (s) => resolveSelector(s, ctx.profiles, page.url()), inputDone }, params);
      return { session: session.name, ...(await report(timeout)), ...result };
    } catch (err) {
      throw mapError(err, { url: page.url(), blocked: ctx.lastBlocked(session.name) });
    } finally {
      session.calls -= 1;
      session.lastUsed = Date.now();
    }
  });
}

/** Waits for a selector, turning "never appeared" into selector_not_found (not a bare timeout). */
export async function waitForSelector(page: Page, selector: string, timeout: number, state: 'visible' | 'attached' | 'hidden' | 'detached' = 'visible', frame?: string) {
  const locator = (frame === undefined ? page : page.frameLocator(frame)).locator(selector).first();
  await notFoundAsSelector(locator.waitFor({ state, timeout }), selector, timeout);
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
