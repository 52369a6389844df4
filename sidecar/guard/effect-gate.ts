// Consent and robots.txt where the effect happens: on the request leaving the
// browser, not on what a call targets. A page's own script can submit a form
// from a button that is not a submit button, a hover, a change event or a
// timer; all of them end in a request, and every request passes the network
// guard's route (network-guard.ts), which asks this gate.
//
// "Caused by an action": a request that starts while a web.* call runs in the
// sidecar, or within SETTLE_MS after it ended. A state-changing one (any
// method but GET/HEAD/OPTIONS/TRACE) is held and the host's consent gate is
// asked (same asker, remembered approvals and chain record as every other
// question); a "no" aborts it and fails the action with consent_denied. One
// the page starts outside any action (a timer, a heartbeat) is refused
// without asking: nobody is there to have caused it. Every top-level
// navigation, whoever started it, is checked against the host's robots cache.
import { WebcapError } from '../../manifests/errors.js';
import type { EffectConsent, NavigationCheck } from '../../manifests/wire.js';
import { ANNOUNCE_CAP_MS, FLUSH_CAP_MS, INPUT_CAPABILITIES, INPUT_GRACE_MS, isStateChanging, originOf, requestKey, SETTLE_MS } from './effect-rules.js';

export interface RequestFacts {
  method: string;
  url: string;
  resource: string;
  /** A navigation of a page's main frame (robots.txt applies). */
  topLevel: boolean;
  pageUrl: string;
  /** A redirect hop re-sending a body already let through to this host (or that the guard proxy asks about): not asked again. */
  bodyApproved?: boolean;
}

interface Refusal { code: 'consent_denied' | 'robots_disallowed'; reason: string }

interface EffectAsker {
  consent(q: EffectConsent): Promise<{ approved: boolean; reason?: string; timed_out?: boolean }>;
  robots(q: NavigationCheck): Promise<{ allowed: boolean; reason: string; rule?: string }>;
}

interface ActionWindow {
  readonly capability: string;
  /** undefined: the action makes its own context (web.open), so any session's requests are its. */
  readonly session?: string;
  endedAt?: number;
  failure?: WebcapError;
  /** Origins a form_submit approval of this action covers (no second question for the same submission). */
  readonly covered: Set<string>;
  readonly pending: Set<Promise<unknown>>;
  /** Requests the browser has started that the route has not decided yet (announce()). */
  readonly announced: Map<string, Array<() => void>>;
  /** Requests the route has taken, by key: a report of one that comes later is not waited for. */
  readonly arrivedFirst?: Map<string, number>;
  /** The flush the action started itself once its last input was sent (inputDone()), so its last read overlaps it. */
  early?: { flushed: Promise<boolean>; ordered: boolean };
  /** robots.txt answers asked for ahead of the navigations the action starts (expect()), by URL. */
  robots?: Map<string, Promise<RobotsAnswer>>;
}

type RobotsAnswer = Awaited<ReturnType<EffectAsker['robots']>>;

export class EffectGate {
  private readonly windows: ActionWindow[] = [];
  private readonly now: () => number;

  constructor(private readonly opts: { gateRequests: boolean; robots: boolean; ask: EffectAsker; now?: () => number; onPersonRequest?(session: string, request: { method: string; origin: string; path: string }): void }) {
    this.now = opts.now ?? Date.now;
  }

  get active(): boolean { return this.opts.gateRequests || this.opts.robots; }
  get checksRobots(): boolean { return this.opts.robots; }
  get gatesRequests(): boolean { return this.opts.gateRequests; }

  begin(capability: string, session?: string): ActionWindow {
    const w: ActionWindow = { capability, session, covered: new Set(), pending: new Set(), announced: new Map(), arrivedFirst: new Map() };
    this.windows.push(w);
    return w;
  }

  /**
   * The action returned: wait for what its handlers set off, then say whether
   * a request of it was refused. `flush` is a round trip through the page (its
   * handlers and zero-delay timers have run when it answers); `ordered`: it
   * travels with the announcements of the requests the page starts.
   */
  async end(w: ActionWindow, flush?: () => Promise<unknown>, ordered = false): Promise<WebcapError | undefined> {
    if (this.active && INPUT_CAPABILITIES.has(w.capability)) {
      if (w.early) ordered = w.early.ordered;
      const flushed = await (w.early?.flushed ?? (flush ? capped(flush) : false));
      // An ordered flush that answered has already seen every request the action started (announce());
      // otherwise nothing says when they have all been seen, and a short grace stands in.
      if (!(ordered && flushed)) await sleep(INPUT_GRACE_MS);
    }
    while (w.pending.size) await Promise.allSettled([...w.pending]);
    w.endedAt = this.now();
    this.prune();
    return w.failure;
  }

  /**
   * The running action of `session` has sent its last input: the flush starts
   * now, and end() waits for this one instead of starting its own, so a read
   * the action still makes (a field's value) overlaps it. Call it only after
   * the last input: what comes later is not covered by the order.
   */
  inputDone(session: string, flush: () => Promise<unknown>, ordered: boolean): void {
    const w = this.windowFor(session);
    if (!w || w.endedAt !== undefined || w.early || !this.active || !INPUT_CAPABILITIES.has(w.capability)) return;
    w.early = { flushed: capped(flush), ordered };
  }

  /** The user approved a form submission in this action: its request to that origin is not asked again. */
  cover(session: string, url: string): void {
    const origin = originOf(url);
    const w = this.windowFor(session);
    if (origin && w) w.covered.add(origin);
  }

  /**
   * The page's CDP watch saw a request leave, before the route decides it
   * (a few ms later). One this gate will judge (a state-changing request, a
   * top-level navigation) is held in the running action's pending set until
   * its decision starts, so the action cannot answer in between.
   */
  announce(session: string, method: string, url: string, topLevel: boolean): void {
    // Only what the route sees (http/https) is ever decided there.
    const judged = /^https?:/i.test(url) && ((this.opts.gateRequests && isStateChanging(method)) || (this.opts.robots && topLevel));
    const w = judged ? this.windowFor(session) : undefined;
    if (!w || w.endedAt !== undefined) return;
    const key = requestKey(method, url);
    // Already with the route: nothing to wait for (holding it would only wait out the cap).
    const early = w.arrivedFirst?.get(key) ?? 0;
    if (early > 0) {
      if (early === 1) w.arrivedFirst!.delete(key); else w.arrivedFirst!.set(key, early - 1);
      return;
    }
    const release = keepOpen(w, () => {
      clearTimeout(timer);
      const left = (w.announced.get(key) ?? []).filter((r) => r !== release);
      if (left.length) w.announced.set(key, left); else w.announced.delete(key);
    });
    const timer = setTimeout(release, ANNOUNCE_CAP_MS);
    w.announced.set(key, [...(w.announced.get(key) ?? []), release]);
  }

  /**
   * The running action of `session` is about to navigate its page to `url` (already through the network
   * policy): robots.txt is asked now, while the browser starts the request, and the decision on that request
   * when it leaves (check()) waits for this answer instead of asking again. Nothing is let go earlier.
   */
  expect(session: string, url: string): void {
    if (!this.opts.robots || !/^https?:/i.test(url)) return;
    const w = this.windowFor(session);
    if (!w || w.endedAt !== undefined) return;
    const key = withoutFragment(url);
    if (w.robots?.has(key)) return;
    const answer = this.opts.ask.robots({ session, capability: w.capability, url: key });
    answer.catch(() => undefined); // awaited by check(); a failure refuses there
    (w.robots ??= new Map()).set(key, answer);
  }

  /** Keeps the session's running action from answering until the returned function is called (a redirect walk). */
  hold(session: string): () => void {
    const w = this.windowFor(session);
    return w ? keepOpen(w) : () => undefined;
  }

  /** Undefined: let it go. Never throws (a failure to ask refuses). */
  decide(session: string, facts: RequestFacts): Promise<Refusal | undefined> {
    const w = this.windowFor(session);
    const work = this.check(session, facts, w).catch((err: Error) => this.refuse(w, facts, 'consent_denied', `could not ask the host (${err.message}): refused`));
    if (w) {
      w.pending.add(work);
      void work.finally(() => w.pending.delete(work));
    }
    // Its decision is pending now: the announcement that held the action can go.
    this.arrived(session, facts.method, facts.url);
    return work;
  }

  /**
   * The route has the announced request (deciding it, or refusing it on the
   * network policy). Every announcement of it goes: a navigation is announced
   * twice (when the page asks for it and when its request leaves).
   */
  arrived(session: string, method: string, url: string): void {
    const w = this.windowFor(session);
    const key = requestKey(method, url);
    const waiting = w?.announced.get(key) ?? [];
    // A report of it still on its way (a navigation is reported up to three times) must not hold the action.
    if (w?.arrivedFirst) w.arrivedFirst.set(key, (w.arrivedFirst.get(key) ?? 0) + 1);
    for (const release of waiting) release();
  }

  private async check(session: string, facts: RequestFacts, w: ActionWindow | undefined): Promise<Refusal | undefined> {
    if (this.opts.robots && facts.topLevel && /^https?:/i.test(facts.url)) {
      const v = await (w?.robots?.get(withoutFragment(facts.url)) ?? this.opts.ask.robots({ session, capability: w?.capability, url: facts.url }));
      if (!v.allowed) return this.refuse(w, facts, 'robots_disallowed', `robots.txt disallows ${facts.url} (${v.rule ? `rule "${v.rule}"` : v.reason})`);
    }
    if (!this.opts.gateRequests || !isStateChanging(facts.method) || facts.bodyApproved) return undefined;
    if (!w) {
      return this.refuse(w, facts, 'consent_denied', `the page sent ${facts.method} ${facts.url} on its own, outside any action: refused (nothing the user approved caused it)`);
    }
    const origin = originOf(facts.url);
    // During a hand-off the person drives: a request their action sends is their own consent, recorded as theirs (never its body).
    if (w.capability === HANDOFF) {
      this.opts.onPersonRequest?.(session, { method: facts.method.toUpperCase(), origin: origin ?? '', path: pathOf(facts.url) });
      return undefined;
    }
    if (origin && w.covered.has(origin)) return undefined;
    const answer = await this.opts.ask.consent({
      capability: w.capability, session, method: facts.method.toUpperCase(), url: facts.url, resource: facts.resource, page_url: facts.pageUrl,
    });
    if (answer.approved) return undefined;
    return this.refuse(w, facts, 'consent_denied', `${w.capability} made the page send ${facts.method.toUpperCase()} ${facts.url} (${facts.resource}); ${answer.reason ?? 'the user did not approve'}`, answer.timed_out ? { timed_out: true } : {});
  }

  private refuse(w: ActionWindow | undefined, facts: RequestFacts, code: Refusal['code'], reason: string, more: Record<string, unknown> = {}): Refusal {
    if (w) w.failure ??= new WebcapError(code, reason, { url: facts.url, method: facts.method.toUpperCase(), resource: facts.resource, ...more });
    return { code, reason };
  }

  /** The newest running action of this session (or of a new context), else one that ended within SETTLE_MS. */
  private windowFor(session: string): ActionWindow | undefined {
    const now = this.now();
    const mine = (w: ActionWindow) => w.session === undefined || w.session === session;
    for (let i = this.windows.length - 1; i >= 0; i--) if (mine(this.windows[i]) && this.windows[i].endedAt === undefined) return this.windows[i];
    for (let i = this.windows.length - 1; i >= 0; i--) {
      const w = this.windows[i];
      if (mine(w) && now - (w.endedAt ?? now) <= SETTLE_MS) return w;
    }
    return undefined;
  }

  private prune(): void {
    const now = this.now();
    for (let i = this.windows.length - 1; i >= 0; i--) {
      const ended = this.windows[i].endedAt;
      if (ended !== undefined && now - ended > SETTLE_MS) this.windows.splice(i, 1);
    }
  }
}

/** A pending entry of `w` (end() waits for it) until the returned function is called; `after` runs once then. */
function keepOpen(w: ActionWindow, after?: () => void): () => void {
  let release!: () => void;
  const open = new Promise<void>((resolve) => { release = resolve; });
  w.pending.add(open);
  void open.then(() => {
    w.pending.delete(open);
    after?.();
  });
  return release;
}

const HANDOFF = 'web.handoff';

/** The URL as the browser's request carries it: normalised, no fragment (a string that is no URL stays as it is). */
function withoutFragment(url: string): string {
  try { const u = new URL(url); u.hash = ''; return u.href; } catch { return url; }
}

function pathOf(url: string): string {
  try { return new URL(url).pathname; } catch { return ''; }
}

/** Whether the page round trip answered within FLUSH_CAP_MS (a busy or navigating page must not hold the call). */
function capped(flush: () => Promise<unknown>): Promise<boolean> {
  return Promise.race([flush().then(() => true, () => false), sleep(FLUSH_CAP_MS).then(() => false)]);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
