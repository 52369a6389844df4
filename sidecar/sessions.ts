// Sessions: one browser context per session, made current on open. Idle
// sessions close themselves, and the browser closes when none is left, so an
// agent that forgets web.close does not keep Chromium alive.
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright';
import { installPristine } from './pristine.js';
import { WebcapError } from '../manifests/errors.js';
import type { SidecarInit } from '../manifests/wire.js';
import type { BrowserSource } from './browser-source.js';
import { watchPage } from './page-events.js';
import { hopsReady } from './redirect-hops.js';
import { SessionSlots } from './slots.js';
import type { SessionTraces, TraceOutcome } from './trace.js';

export interface Session {
  name: string;
  context: BrowserContext;
  page: Page;
  createdAt: number;
  lastUsed: number;
  /** Opened from a profile: its storage goes back to the host when it closes (the host saves it, with consent). */
  keepState?: boolean;
}

/** Playwright's storage state, as the host hands it in for a profile. */
export type StorageState = Exclude<BrowserContextOptions['storageState'], string | undefined>;

export interface ContextSetup {
  /** Extra options for browser.newContext (the guard's proxy). */
  options: BrowserContextOptions;
  /** Runs on the new context before its first page exists (routes, …). */
  attach(context: BrowserContext): Promise<void>;
  /** Undo what was set up when the context could not be made. */
  abandon(): Promise<void>;
}

export interface SessionHooks {
  /** Called once per new session, around the creation of its context (network guard, …). */
  prepare(name: string, remote: boolean): Promise<ContextSetup>;
  onEvent(kind: string, session: string, detail?: Record<string, unknown>): void;
  /** Playwright traces of sessions ([report] trace); absent: none recorded. */
  traces?: SessionTraces;
}

const SCRATCH_LINGER_MS = 30_000;

export class Sessions {
  private readonly all = new Map<string, Session>();
  private currentName: string | null = null;
  private counter = 0;
  private scratchCounter = 0;
  /** Open scratch contexts: the browser must outlive them too. */
  private scratches = 0;
  private linger: NodeJS.Timeout | undefined;
  private readonly sweeper: NodeJS.Timeout;
  private readonly slots: SessionSlots;

  constructor(private readonly init: SidecarInit, private readonly source: BrowserSource, private readonly hooks: SessionHooks) {
    const idleMs = init.browser.idle_timeout_s * 1000;
    this.sweeper = setInterval(() => void this.sweep(idleMs), Math.min(idleMs / 4, 30_000));
    this.sweeper.unref();
    this.slots = new SessionSlots(init.browser.max_concurrent_sessions);
  }

  get current(): string | null { return this.currentName; }
  list(): Session[] { return [...this.all.values()]; }

  /**
   * A new session, current from now on. Over max_concurrent_sessions it waits
   * in a first-come-first-served queue (slots.ts) for up to waitMs, unless
   * [capabilities.browser] session_queue = "fail".
   */
  async open(name?: string, viewport?: { width: number; height: number }, waitMs = this.init.browser.default_timeout_ms, profile?: { state: StorageState }): Promise<Session> {
    if (name && this.all.has(name)) {
      throw new WebcapError('invalid_params', `session "${name}" is already open; use web.navigate with session "${name}" or web.close it first`, { session: name });
    }
    await this.slots.take(this.init.browser.session_queue === 'fail' ? 0 : waitMs, () => [...this.all.keys()]);
    let context: BrowserContext;
    const sessionName = name ?? this.nextName();
    try {
      if (this.all.has(sessionName)) throw new WebcapError('invalid_params', `session "${sessionName}" is already open`, { session: sessionName });
      context = await this.guardedContext(sessionName, viewport, true, profile?.state);
    } catch (err) {
      this.slots.release();
      throw err;
    }
    try {
      await this.hooks.traces?.start(context, Boolean(profile));
      const page = await context.newPage();
      await hopsReady(page); // its first navigation's redirect hops are checked where they happen
      const session: Session = { name: sessionName, context, page, createdAt: Date.now(), lastUsed: Date.now(), keepState: Boolean(profile) };
      // Console, dialogs and downloads of every tab are watched from the start (page-events.ts).
      watchPage(session, page, this.init);
      // The newest page (a popup, a target=_blank link) becomes the one actions apply to.
      context.on('page', (p) => {
        watchPage(session, p, this.init);
        session.page = p;
        p.on('close', () => { if (session.page === p) session.page = context.pages().at(-1) ?? p; });
      });
      this.all.set(sessionName, session);
      this.currentName = sessionName;
      return session;
    } catch (err) {
      await context.close().catch(() => undefined);
      this.slots.release();
      throw err;
    }
  }

  /** Launches the browser before the first session asks for it (cold start); closes it later if none does. */
  prelaunch(): void {
    this.source.get().then(() => {
      if (this.all.size === 0 && this.scratches === 0) this.closeBrowserLater();
    }, () => undefined); // the session's own get() reports a failed launch
  }

  /**
   * A context for one call (web.scrape renders a page in one): guarded like a
   * session, but never current and not counted against max_concurrent_sessions,
   * so a scrape neither moves the agent's current session nor takes its slot.
   * The caller closes it; the browser closes when no session or scratch is left.
   */
  async scratch(label: string): Promise<{ name: string; page: Page; close(): Promise<void> }> {
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
      context = await this.guardedContext(name);
      const page = await context.newPage();
      await hopsReady(page);
      return { name, page, close };
    } catch (err) {
      await close();
      throw err;
    }
  }

  /**
   * Scrapes come in runs (an agent reads several search results in a row) and a
   * Chromium start costs a second or more: after the last scratch context the
   * browser stays SCRATCH_LINGER_MS for the next one, then closes if still unused.
   */
  private closeBrowserLater(): void {
    clearTimeout(this.linger);
    this.linger = setTimeout(() => {
      if (this.all.size === 0 && this.scratches === 0) void this.source.close();
    }, SCRATCH_LINGER_MS);
    this.linger.unref();
  }

  /** A new browser context with the network guard attached before its first page exists. */
  private async guardedContext(name: string, viewport?: { width: number; height: number }, downloads = false, storageState?: StorageState): Promise<BrowserContext> {
    clearTimeout(this.linger);
    const browser = await this.source.get();
    const setup = await this.hooks.prepare(name, Boolean(this.init.browser.remote));
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

  get(name?: string): Session {
    const wanted = name ?? this.currentName;
    const session = wanted ? this.all.get(wanted) : undefined;
    if (!session) {
      throw new WebcapError('session_not_found', wanted
        ? `no open session named "${wanted}" (open: ${[...this.all.keys()].join(', ') || 'none'})`
        : 'no session is open: call web.open first', { session: wanted ?? null });
    }
    session.lastUsed = Date.now();
    return session;
  }

  /** `failed`: the session ends because a call failed (its trace is kept on-failure); `announce`: say where the trace went in an event, no caller will. */
  async close(name?: string, opts: { failed?: boolean; announce?: boolean } = {}): Promise<{ closed: string; current: string | null } & TraceOutcome> {
    const session = this.get(name);
    this.all.delete(session.name);
    this.slots.release();
    if (this.currentName === session.name) this.currentName = [...this.all.keys()].at(-1) ?? null;
    const trace = (await this.hooks.traces?.finish(session.context, session.name, opts.failed)) ?? {};
    if (opts.announce && Object.keys(trace).length) this.hooks.onEvent('session_trace', session.name, { ...trace });
    await session.context.close().catch(() => undefined);
    // A queued web.open that was just given this slot needs the browser: keep it.
    if (this.all.size === 0 && this.scratches === 0 && this.slots.busy === 0) await this.source.close();
    return { closed: session.name, current: this.currentName, ...trace };
  }

  /** The browser went away: every session with it. */
  forgetAll(): void {
    for (let i = 0; i < this.all.size; i++) this.slots.release();
    this.all.clear();
    this.currentName = null;
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    clearTimeout(this.linger);
    for (const name of [...this.all.keys()]) await this.close(name).catch(() => undefined);
    await this.source.close();
  }

  /** Cookies, localStorage and IndexedDB of a session, for the host to save into its profile. */
  async storageOf(session: Session): Promise<StorageState> {
    return session.context.storageState({ indexedDB: true });
  }

  private nextName(): string {
    do this.counter += 1; while (this.all.has(`s${this.counter}`));
    return `s${this.counter}`;
  }

  private async sweep(idleMs: number): Promise<void> {
    const now = Date.now();
    for (const s of this.list()) {
      if (now - s.lastUsed >= idleMs) {
        const state = s.keepState ? await this.storageOf(s).catch(() => undefined) : undefined;
        const closed = await this.close(s.name).catch(() => undefined);
        const trace = closed ? { ...(closed.trace ? { trace: closed.trace } : {}), ...(closed.trace_dropped ? { trace_dropped: closed.trace_dropped } : {}) } : {};
        this.hooks.onEvent('session_idle_closed', s.name, state || Object.keys(trace).length ? { ...trace, ...(state ? { storage_state: state } : {}) } : undefined);
      }
    }
  }
}
