// What the console shows and does, independent of how it is served: the
// pending questions (raced against the terminal / MCP elicitation), the
// sessions with their URL and title, the chain as it grows, and Stop. The
// host owns one hub; the HTTP server (server.ts) only reads and answers it.
import { scopedUrl, type Scope } from './guard.js';
import type { Evidence, HandoffAsk, HandoffReply, PersonInput } from '../../manifests/wire.js';
import { HandoffDesk, type HandoffView } from './handoffs.js';
import type { ChainEntry } from '../chain/entry.js';
import type { AskContext, Asker, ConsentAnswer, ConsentQuestion } from '../consent/asker.js';
import { plain } from '../consent/text.js';
import { raceAsker } from './race.js';
import { QuestionBoard, type Leaving, type PendingQuestion } from './questions.js';
import { SecretDesk } from './secret-desk.js';

interface ConsoleDeps {
  evidence(session: string, selector?: string): Promise<Evidence | undefined>;
  stopSession(session: string): Promise<boolean>;
  /** Writes a chain event (Stop's `interrupted`). */
  record(session: string | null, planId: string | null, detail: Record<string, unknown>): Promise<void>;
  redact(value: unknown): unknown;
  /** [consent] timeout_s: how long a question nobody else can answer waits for the console. */
  timeoutS: number;
  /** Live view frames on or off for a session. */
  screencast(session: string, on: boolean): Promise<boolean>;
  /** The person's input, to a session being handed off (the sidecar refuses any other). */
  input(session: string, events: PersonInput[]): Promise<number>;
}

interface RunningCall {
  capability: string;
  session?: string;
  planId?: string;
  /** plan:LINE:COL, "MCP client NAME", "CLI", "library". */
  who: string;
  params: Record<string, unknown>;
  abort: AbortController;
}

interface SessionView { name: string; url?: string; title?: string; running?: string; plan?: string; handoff?: HandoffView }

const TAIL = 50;
const LEASE_MS = 3000;

export class ConsoleHub {
  readonly board = new QuestionBoard();
  /** Secrets a call waits for a person to enter (served at /s/ID). */
  readonly secrets = new SecretDesk();
  private base: string | undefined;
  private readonly tail: ChainEntry[] = [];
  private readonly pages = new Map<string, { url?: string; title?: string }>();
  private readonly running = new Set<RunningCall>();
  private readonly stoppedPlans = new Set<string>();
  private readonly listeners = new Set<() => void>();
  /** Told when a question waits for the console alone (the CLI prints it on stderr). */
  onWaiting: (url: string, q: ConsentQuestion) => void = (url) => process.stderr.write(`webcap: a question waits for an answer in the console: ${withoutToken(url)} (open the console URL printed at start first)\n`);

  readonly handoffs: HandoffDesk;

  constructor(private readonly deps: ConsoleDeps, private readonly openSessions: () => string[]) {
    this.board.onChange(() => this.changed());
    this.handoffs = new HandoffDesk((session, events) => this.deps.input(session, events), () => this.changed());
  }

  /** web.handoff: the session is the person's until Done, the timeout or Stop; with no console serving, nobody can take it. */
  async handoff(ask: HandoffAsk): Promise<HandoffReply> {
    if (!this.base) return { outcome: 'no_console' };
    const console_url = withoutToken(this.base);
    process.stderr.write(`webcap: session ${ask.session} is handed to you in the console: ${console_url} (press Done there to hand it back)\n`);
    return { outcome: await this.handoffs.start(ask), console_url };
  }

  /** Waits while the person drives `session` (at most `ms`): true once it is handed back, false if still driven. */
  waitWhileDriven(session: string, ms: number, signal?: AbortSignal): Promise<boolean> {
    if (!this.handoffs.driving(session)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (free: boolean) => { clearTimeout(timer); unsubscribe(); signal?.removeEventListener('abort', onAbort); resolve(free); };
      const onAbort = () => done(false);
      const timer = setTimeout(() => done(false), ms);
      const unsubscribe = this.onChange(() => { if (!this.handoffs.driving(session)) done(true); });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** The console's URL (with its token) while one serves; undefined otherwise. */
  get url(): string | undefined { return this.base; }
  serveAt(url: string | undefined): void { this.base = url; this.changed(); }
  /** A link that opens this one question's page only (sent to an MCP client: it never carries the console's token). */
  questionUrl(id: string): string | undefined { return this.scoped({ kind: 'q', id }); }
  /** A link that opens this one missing secret's entry page only. */
  secretUrl(id: string): string | undefined { return this.scoped({ kind: 's', id }); }
  private scoped(scope: Scope): string | undefined {
    const token = this.base ? new URL(this.base).searchParams.get('token') : null;
    return this.base && token ? scopedUrl(this.base, token, scope) : undefined;
  }

  /** The gate's asker: `inner` (terminal, MCP, callback, config) raced against the console while one serves. */
  asker(inner: Asker): Asker {
    return (q: ConsentQuestion, ctx?: AskContext): Promise<boolean | ConsentAnswer> => {
      if (!this.base) return Promise.resolve(inner(q, ctx));
      return raceAsker(this, inner, q, this.post(q), this.deps.timeoutS);
    };
  }

  private post(q: ConsentQuestion) {
    const call = this.callFor(q.session);
    const posted = this.board.post({
      question: this.deps.redact(q) as ConsentQuestion,
      asked_by: call?.who ?? (q.session ? `the page of session ${q.session}` : 'the host'),
      leaving: leavingOf(q, call ? this.deps.redact(call.params) : undefined),
      rememberable: Boolean(q.origin) && q.reason !== 'user_ask',
    });
    // The picture comes after the question is up: it never delays the terminal or the elicitation.
    if (q.session) {
      const selector = typeof call?.params.selector === 'string' ? call.params.selector : undefined;
      void this.deps.evidence(q.session, selector).then((e) => {
        if (!e) return;
        const current = this.board.get(posted.id);
        const leaving = e.form && current ? { ...current.leaving, fields: e.form.fields.map((f) => plain(f, 80)).slice(0, 50), method: current.leaving.method ?? e.form.method, ...(current.leaving.path ? {} : { path: pathOf(e.form.action) }) } : undefined;
        const known = this.pages.get(q.session!);
        posted.update({ evidence: { url: plain(e.url || known?.url || '', 500), title: plain(e.title || known?.title || '', 200), element: e.element && plain(e.element, 200), has_picture: Boolean(e.png) }, ...(leaving ? { leaving } : {}) }, e.png ? Buffer.from(e.png, 'base64') : undefined);
      }, () => undefined);
    }
    return posted;
  }

  /** A call starts (governance): who is asking, for the questions it raises, and what Stop can cancel. */
  begin(call: Omit<RunningCall, 'abort'>): RunningCall | 'stopped' {
    if (call.planId && this.stoppedPlans.has(call.planId)) return 'stopped';
    const running = { ...call, abort: new AbortController() };
    this.running.add(running);
    this.changed();
    return running;
  }

  end(running: RunningCall, result?: Record<string, unknown>): void {
    this.running.delete(running);
    const session = typeof result?.session === 'string' ? result.session : running.session;
    if (session && result && (typeof result.url === 'string' || typeof result.title === 'string')) {
      const before = this.pages.get(session) ?? {};
      this.pages.set(session, { url: typeof result.url === 'string' ? result.url : before.url, title: typeof result.title === 'string' ? result.title : before.title });
    }
    this.changed();
  }

  entry(e: ChainEntry): void {
    this.tail.push(e);
    if (this.tail.length > TAIL) this.tail.shift();
    this.changed();
  }

  /**
   * Stop: the running calls on the session fail as interrupted, their plans
   * make no further call, its pending questions are answered no, and the
   * sidecar lets nothing more leave its pages.
   */
  async stop(session: string, by = 'console'): Promise<{ stopped: boolean; calls: number }> {
    const calls = [...this.running].filter((c) => c.session === session || (c.session === undefined && c.capability === 'web.open'));
    for (const c of calls) if (c.planId) this.stoppedPlans.add(c.planId);
    this.handoffs.stopSession(session);
    await this.deps.stopSession(session).catch(() => false);
    this.board.settleSession(session, { approved: false, channel: by });
    for (const c of calls) c.abort.abort();
    await this.deps.record(session, calls.find((c) => c.planId)?.planId ?? null, { event: 'interrupted', by, calls: calls.map((c) => c.capability) }).catch(() => undefined);
    this.changed();
    return { stopped: true, calls: calls.length };
  }

  /** Stops whatever runs for a plan (Ctrl-C on `webcap run` through the daemon). */
  async stopPlan(planId: string, by: string): Promise<void> {
    this.stoppedPlans.add(planId);
    const sessions = new Set([...this.running].filter((c) => c.planId === planId && c.session).map((c) => c.session!));
    for (const s of sessions) await this.stop(s, by);
    for (const c of this.running) if (c.planId === planId) c.abort.abort();
  }

  sessions(): SessionView[] {
    return this.openSessions().map((name) => {
      const page = this.pages.get(name) ?? {};
      const call = [...this.running].find((c) => c.session === name);
      const handoff = this.handoffs.of(name);
      return { name, url: page.url, title: page.title, ...(call ? { running: call.capability, ...(call.planId ? { plan: call.planId } : {}) } : {}), ...(handoff ? { handoff } : {}) };
    });
  }

  state(): { questions: PendingQuestion[]; sessions: SessionView[]; chain: ChainEntry[] } {
    return { questions: this.board.pending(), sessions: this.sessions(), chain: [...this.tail].reverse() };
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** A viewer of a session's live view: frames flow while at least one watches (the screencast starts and stops with them). */
  watch(session: string, viewer: (jpeg: Buffer) => void): () => void {
    let set = this.viewers.get(session);
    if (!set) this.viewers.set(session, (set = new Set()));
    set.add(viewer);
    // A page that does not repaint sends no new frame: a viewer joining a running screencast starts from the latest one.
    const latest = this.latest.get(session);
    if (latest) viewer(latest);
    if (set.size === 1) void this.deps.screencast(session, true);
    return () => {
      set!.delete(viewer);
      if (set!.size === 0 && this.viewers.get(session) === set) {
        this.viewers.delete(session);
        this.latest.delete(session);
        void this.deps.screencast(session, false);
      }
    };
  }

  /**
   * The latest frame for a viewer that polls (the console page): the screencast runs while polls keep
   * coming and stops LEASE_MS after the last one.
   */
  peek(session: string): Buffer | undefined {
    const lease = this.leases.get(session);
    if (lease) clearTimeout(lease.timer);
    const stop = lease?.stop ?? this.watch(session, () => undefined);
    const timer = setTimeout(() => { this.leases.delete(session); stop(); }, LEASE_MS);
    timer.unref?.();
    this.leases.set(session, { stop, timer });
    return this.latest.get(session);
  }

  private readonly leases = new Map<string, { stop(): void; timer: NodeJS.Timeout }>();

  frame(session: string, jpeg: string): void {
    const set = this.viewers.get(session);
    if (!set?.size) return;
    const bytes = Buffer.from(jpeg, 'base64');
    this.latest.set(session, bytes);
    for (const v of set) { try { v(bytes); } catch { /* one broken viewer must not stop the others */ } }
  }

  private readonly viewers = new Map<string, Set<(jpeg: Buffer) => void>>();
  private readonly latest = new Map<string, Buffer>();

  private callFor(session: string | undefined): RunningCall | undefined {
    const all = [...this.running];
    return (session ? all.reverse().find((c) => c.session === session) : undefined) ?? all.at(-1);
  }

  private changed(): void {
    for (const l of this.listeners) { try { l(); } catch { /* a broken viewer must not stop the host */ } }
  }
}

/** The token is printed once, at start; later pointers to the console leave it out (the page's cookie carries it). */
export function withoutToken(url: string): string {
  const u = new URL(url);
  u.searchParams.delete('token');
  return u.href;
}

function pathOf(url: string): string | undefined {
  try { return new URL(url).pathname; } catch { return undefined; }
}

/** What would leave, from the question itself: a held request names "METHOD /path". */
function leavingOf(q: ConsentQuestion, params: unknown): Leaving {
  const m = /^([A-Z]+) (\/.*)$/.exec(q.selector ?? '');
  return {
    ...(m ? { method: m[1], path: m[2] } : {}),
    ...(q.origin ? { origin: q.origin } : {}),
    ...(params !== undefined ? { params } : {}),
  };
}
