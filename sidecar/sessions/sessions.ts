// Sessions: one browser context per session, each owned by the caller that
// opened it (a plan, an MCP client, a command, a library scope: the `owner` of
// every call). A caller reaches only its own sessions, and a call without
// `session` goes to its caller's latest one: there is no current session shared
// between callers. Idle sessions close themselves, and the browser closes when
// none is left, so an agent that forgets web.close does not keep Chromium alive.
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright';
import { installPristine } from '../guard/pristine.js';
import { WebcapError } from '../../manifests/errors.js';
import type { InvokeParams, SidecarInit } from '../../manifests/wire.js';
import type { BrowserSource } from '../browser/browser-source.js';
import { watchPage } from '../page-events.js';
import { hopsReady } from '../guard/redirect-hops.js';
import { SessionSlots } from './slots.js';
import { SpareContext, type Ready } from './spare.js';
import type { SessionTraces, TraceOutcome } from '../trace.js';
import { crashSignal, type CallerSessions } from './caller-sessions.js';

export type { CallerSessions } from './caller-sessions.js';

export interface Session {
  name: string;
  /** The caller that opened it; no other caller can reach it. */
  owner: string;
  context: BrowserContext;
  page: Page;
  createdAt: number;
  lastUsed: number;
  /** Calls running on it now (web.open's counts from the start): the idle sweep never closes a session mid-call. */
  calls: number;
  /** Opened from a profile: its storage goes back to the host when it closes (the host saves it, with consent). */
  keepState?: boolean;
}

/** Playwright's storage state, as the host hands it in for a profile. */
export type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

interface ContextSetup {
  /** Extra options for browser.newContext (the guard's proxy). */
  options: BrowserContextOptions;
  /** Runs on the new context before its first page exists (routes, …). */
  attach(context: BrowserContext): Promise<void>;
  /** Undo what was set up when the context could not be made. */
  abandon(): Promise<void>;
}

/** A client's own domains_allowlist, narrowing the host's for every context its calls open. */
export type Narrowing = NonNullable<InvokeParams['narrowed']>;

interface SessionHooks {
  /** Called once per new session, around the creation of its context (network guard, …). */
  prepare(name: string, remote: boolean, narrowed?: Narrowing): Promise<ContextSetup>;
  onEvent(kind: string, session: string, detail?: Record<string, unknown>): void;
  /** The number of web.open calls waiting for a slot, whenever it changes. */
  onQueue?(waiting: number): void;
  /** Playwright traces of sessions ([report] trace); absent: none recorded. */
  traces?: SessionTraces;
}

const LINGER_MS = 30_000;

export class Sessions {
  private readonly all = new Map<string, Session>();
  /** Each caller's sessions, oldest first: the last is the one its calls without `session` reach. */
  private readonly byOwner = new Map<string, string[]>();
  /**
   * Sessions a crash took, by owner (until it opens another): a caller that
   * reaches for one learns of the crash (browser_crashed), not of a session
   * it never had (session_not_found).
   */
  private readonly crashed = new Map<string, Set<string>>();
  private counter = 0;
  private scratchCounter = 0;
  /** Open scratch contexts: the browser must outlive them too. */
  private scratches = 0;
  private linger: NodeJS.Timeout | undefined;
  private readonly sweeper: NodeJS.Timeout;
  private readonly slots: SessionSlots;
  private crash = crashSignal();
  private lostBrowsers = 0;
  private readonly spare = new SpareContext((name) => this.spareFor(name), LINGER_MS);

  constructor(private readonly init: SidecarInit, private readonly source: BrowserSource, private readonly hooks: SessionHooks) {
    const idleMs = init.browser.idle_timeout_s * 1000;
    this.sweeper = setInterval(() => void this.sweep(idleMs), Math.min(idleMs / 4, 30_000));
    this.sweeper.unref();
    this.slots = new SessionSlots(init.browser.max_concurrent_sessions, (waiting) => hooks.onQueue?.(waiting));
  }

  list(): Session[] { return [...this.all.values()]; }

  /** The sessions as one caller sees them; `narrowed`: its client's allowlist, held by every context it opens. */
  for(owner: string, narrowed?: Narrowing): CallerSessions {
    const current = () => this.byOwner.get(owner)?.at(-1) ?? null;
    const self = this;
    return {
      get generation() { return self.lostBrowsers; },
      // A session already gone (closed) has nothing left to lose: it never fires.
      lost: (session) => (this.all.get(session.name) === session ? this.crash.promise : new Promise<never>(() => undefined)),
      owner,
      get current() { return current(); },
      list: () => (this.byOwner.get(owner) ?? []).map((n) => this.all.get(n)!).filter(Boolean),
      get: (name) => this.get(owner, name),
      open: (name, viewport, waitMs, profile) => this.open(owner, name, viewport, waitMs, profile, narrowed),
      close: (name, opts) => this.close(owner, name, opts),
      scratch: (label) => this.scratch(label, narrowed),
      storageOf: (session) => this.storageOf(session),
    };
  }

  /**
   * A new session of `owner`, its current one from now on. Over
   * max_concurrent_sessions it waits in a first-come-first-served queue
   * (slots.ts) for up to waitMs, unless [capabilities.browser] session_queue = "fail".
   */
  async open(owner: string, name?: string, viewport?: { width: number; height: number }, waitMs = this.init.browser.default_timeout_ms, profile?: { state: StorageState }, narrowed?: Narrowing): Promise<Session> {
    if (name) this.refuseTakenName(owner, name);
    await this.slots.take(this.init.browser.session_queue === 'fail' ? 0 : waitMs, () => [...this.all.keys()]);
    let context: BrowserContext;
    let ready: Ready | undefined;
    const sessionName = name ?? this.nextName();
    try {
      this.refuseTakenName(owner, sessionName);
      // The spare was made for a session of this name with nothing of its own: no viewport, storage or client allowlist.
      ready = viewport || profile || narrowed ? (await this.spare.discard(), undefined) : await this.spare.claim(sessionName);
      clearTimeout(this.linger);
      context = ready?.context ?? await this.guardedContext(sessionName, viewport, true, profile?.state, narrowed);
    } catch (err) {
      this.slots.release();
      throw err;
    }
    try {
      await this.hooks.traces?.start(context, Boolean(profile));
      const page = ready?.page ?? await context.newPage();
      if (!ready) await hopsReady(page); // its first navigation's redirect hops are checked where they happen
      const session: Session = { name: sessionName, owner, context, page, createdAt: Date.now(), lastUsed: Date.now(), calls: 1, keepState: Boolean(profile) };
      // Console, dialogs and downloads of every tab are watched from the start (page-events.ts).
      watchPage(session, page, this.init);
      // The newest page (a popup, a target=_blank link) becomes the one actions apply to.
      context.on('page', (p) => {
        watchPage(session, p, this.init);
        session.page = p;
        p.on('close', () => { if (session.page === p) session.page = context.pages().at(-1) ?? p; });
      });
      this.all.set(sessionName, session);
      this.byOwner.set(owner, [...(this.byOwner.get(owner) ?? []), sessionName]);
      this.crashed.delete(owner);
      return session;
    } catch (err) {
      await context.close().catch(() => undefined);
      this.slots.release();
      throw err;
    }
  }

  /**
   * Launches the browser before the first session asks for it (cold start); closes it later if none does.
   * `spare`: the next session's context and page too (spare.ts), for a local browser (a remote one proves its guard per context).
   */
  prelaunch(spare = false): void {
    // Asked for now, not once the browser is up: a web.open arriving meanwhile waits for this one instead of making its own.
    if (spare && !this.init.browser.remote) this.spare.prepare(this.peekName());
    this.source.get().then(() => {
      if (this.all.size === 0 && this.scratches === 0) this.closeBrowserLater();
    }, () => undefined); // the session's own get() reports a failed launch
  }

  /** A session's context and first page, as open() makes them, for the session that will be called `name`. */
  private async spareFor(name: string): Promise<Ready> {
    const context = await this.guardedContext(name, undefined, true);
    try {
      const page = await context.newPage();
      await hopsReady(page);
      return { context, page };
    } catch (err) {
      await context.close().catch(() => undefined);
      throw err;
    }
  }

  /**
   * A context for one call (web.scrape renders a page in one): guarded like a
   * session, but never current and not counted against max_concurrent_sessions,
   * so a scrape neither moves the agent's current session nor takes its slot.
   * The caller closes it; the browser closes when no session or scratch is left.
   */
  async scratch(label: string, narrowed?: Narrowing): Promise<{ name: string; page: Page; close(): Promise<void> }> {
    const name = `${label}-${++this.scratchCounter}`;
    this.scratches += 1;
    let context: BrowserContext | undefined;
    let open = true;
    const close = async () => {
      if (!open) return;
      open = false;
      await context?.close().catch(() => undefined);
      this.scratches -= 1;
      if (this.all.size === 0 && this.scratches === 0) this.closeBrowserLater();
    };
    try {
      context = await this.guardedContext(name, undefined, false, undefined, narrowed);
      const page = await context.newPage();
      await hopsReady(page);
      return { name, page, close };
    } catch (err) {
      await close();
      throw err;
    }
  }

  /**
   * Scrapes and sessions come in runs (an agent reads several search results in
   * a row, a plan closes and opens again) and a Chromium start costs a second or
   * more: after the last context the browser stays LINGER_MS for the next one,
   * then closes if still unused.
   */
  private closeBrowserLater(): void {
    clearTimeout(this.linger);
    this.linger = setTimeout(() => {
      if (this.all.size === 0 && this.scratches === 0) {
        // Not one after the other: closing the browser also ends a spare still being made.
        void this.spare.discard();
        void this.source.close();
      }
    }, LINGER_MS);
    this.linger.unref();
  }

  /** A new browser context with the network guard attached before its first page exists. */
  private async guardedContext(name: string, viewport?: { width: number; height: number }, downloads = false, storageState?: StorageState, narrowed?: Narrowing): Promise<BrowserContext> {
    clearTimeout(this.linger);
    const browser = await this.source.get();
    const setup = await this.hooks.prepare(name, Boolean(this.init.browser.remote), narrowed);
    let context: BrowserContext;
    try {
      context = await browser.newContext({
        ...setup.options,
        viewport: viewport ?? this.init.browser.viewport,
        userAgent: this.init.browser.user_agent,
        serviceWorkers: 'block', // a service worker could fetch past the network guard
        // Sessions take downloads (saved under the workspace, executables refused: downloads.ts); scratch contexts never do.
        acceptDownloads: downloads,
        // Only a profile's session starts with storage; every other context starts empty and its storage dies with it.
        storageState,
        ignoreHTTPSErrors: this.init.browser.ignore_https_errors ?? false,
      });
    } catch (err) {
      await setup.abandon();
      throw err;
    }
    try {
      await installPristine(context);
      await setup.attach(context);
      return context;
    } catch (err) {
      await context.close().catch(() => undefined);
      // The guard may have failed before it tied its proxy to the context's close: stop the proxy here.
      await setup.abandon().catch(() => undefined);
      throw err;
    }
  }

  /**
   * The owner's session by name, or its latest. Another caller's session is
   * answered exactly as one that does not exist: its name, page and state
   * never reach this caller.
   */
  get(owner: string, name?: string): Session {
    const own = this.byOwner.get(owner) ?? [];
    const wanted = name ?? own.at(-1);
    const session = wanted ? this.all.get(wanted) : undefined;
    const lostInCrash = this.crashed.get(owner);
    if (!session && lostInCrash && (name === undefined || lostInCrash.has(name))) {
      throw new WebcapError('browser_crashed', `the browser crashed and took ${name ? `session "${name}"` : "this caller's sessions"} with it; web.open starts a new one`, { session: name ?? null });
    }
    if (!session || session.owner !== owner) {
      throw new WebcapError('session_not_found', wanted
        ? `no open session named "${wanted}" among this caller's sessions (open: ${own.join(', ') || 'none'}); a session opened by another caller (another plan, MCP client or command) is never reachable`
        : 'this caller has no open session: call web.open first (sessions opened by other callers are not reachable)', { session: wanted ?? null });
    }
    session.lastUsed = Date.now();
    return session;
  }

  /**
   * `failed`: the session ends because a call failed (its trace is kept on-failure); `announce`: say where the trace went
   * in an event, no caller will; `idle`: nobody used it for idle_timeout_s, so the browser goes with the last one at once.
   */
  async close(owner: string, name?: string, opts: { failed?: boolean; announce?: boolean; idle?: boolean } = {}): Promise<{ closed: string; current: string | null } & TraceOutcome> {
    const session = this.get(owner, name);
    this.drop(session);
    const trace = (await this.hooks.traces?.finish(session.context, session.name, opts.failed)) ?? {};
    if (opts.announce && Object.keys(trace).length) this.hooks.onEvent('session_trace', session.name, { ...trace });
    await session.context.close().catch(() => undefined);
    // The last session gone, the browser lingers for the next web.open as it does for scrapes (an agent or a
    // plan closes and opens again within seconds, and a start costs a second); a queued web.open that was just
    // given this slot needs it anyway. Sessions never share state through it: each has its own context.
    if (this.all.size === 0 && this.scratches === 0 && this.slots.busy === 0) {
      if (opts.idle) await this.source.close(); else this.closeBrowserLater();
    }
    return { closed: session.name, current: this.byOwner.get(owner)?.at(-1) ?? null, ...trace };
  }

  /** Forgets a session and frees its slot at once (the next waiter in line gets it). */
  private drop(session: Session): void {
    if (this.all.get(session.name) !== session) return;
    this.all.delete(session.name);
    const own = (this.byOwner.get(session.owner) ?? []).filter((n) => n !== session.name);
    if (own.length) this.byOwner.set(session.owner, own); else this.byOwner.delete(session.owner);
    this.slots.release();
  }

  /**
   * The browser went away: every session with it, at once, so their slots go
   * to the opens waiting in line (which launch a new browser) instead of
   * waiting for closes that will never come. Returns the sessions lost.
   */
  forgetAll(): Session[] {
    const lost = this.list();
    for (const s of lost) {
      this.drop(s);
      this.crashed.set(s.owner, (this.crashed.get(s.owner) ?? new Set<string>()).add(s.name));
    }
    this.lostBrowsers += 1;
    const crash = this.crash;
    this.crash = crashSignal();
    crash.fire();
    return lost;
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    clearTimeout(this.linger);
    void this.spare.discard(); // not awaited: the browser's close below also ends a spare still being made
    for (const s of this.list()) await this.close(s.owner, s.name).catch(() => undefined);
    await this.source.close();
  }

  /** A name is one session's: the owner's own open one, or another caller's, cannot be opened again. */
  private refuseTakenName(owner: string, name: string): void {
    const held = this.all.get(name);
    if (!held) return;
    throw new WebcapError('invalid_params', held.owner === owner
      ? `session "${name}" is already open; use web.navigate with session "${name}" or web.close it first`
      : `the session name "${name}" is in use; choose another name or leave it out`, { session: name });
  }

  /** Cookies, localStorage and IndexedDB of a session, for the host to save into its profile. */
  async storageOf(session: Session): Promise<StorageState> {
    return session.context.storageState({ indexedDB: true });
  }

  private nextName(): string {
    this.counter = this.counterOfNextName();
    return `s${this.counter}`;
  }

  /** The name nextName() will give, without taking it. */
  private peekName(): string {
    return `s${this.counterOfNextName()}`;
  }

  private counterOfNextName(): number {
    let n = this.counter;
    do n += 1; while (this.all.has(`s${n}`));
    return n;
  }

  private async sweep(idleMs: number): Promise<void> {
    const now = Date.now();
    for (const s of this.list()) {
      if (s.calls === 0 && now - s.lastUsed >= idleMs) {
        const state = s.keepState ? await this.storageOf(s).catch(() => undefined) : undefined;
        const closed = await this.close(s.owner, s.name, { idle: true }).catch(() => undefined);
        const trace = closed ? { ...(closed.trace ? { trace: closed.trace } : {}), ...(closed.trace_dropped ? { trace_dropped: closed.trace_dropped } : {}) } : {};
        this.hooks.onEvent('session_idle_closed', s.name, state || Object.keys(trace).length ? { ...trace, ...(state ? { storage_state: state } : {}) } : undefined);
      }
    }
  }
}
