// The one place consent is decided: it asks the Asker (one prompt at a time),
// reuses a recent approval for the same scope, and records every decision
// before anyone acts on it, so the chain shows why an action was allowed.
import type { EffectConsent, SensitiveAction } from '../../manifests/wire.js';
import type { WebcapConfig } from '../config/types.js';
import { metrics } from '../metrics/metrics.js';
import { MemoryValues } from '../store/memory-values.js';
import { StoreUnavailable, type SharedValues } from '../store/types.js';
import type { Asker, ConsentAnswer, ConsentQuestion } from './asker.js';
import { plain, plainDetails, quote } from './text.js';

export interface ConsentRecord {
  capability: string; origin?: string; selector?: string; reason: string;
  approved: boolean; source: 'asker' | 'remembered' | 'waived' | 'store_unavailable'; session?: string;
  /** Which channel answered (terminal, console, mcp_elicitation, …), when one did. */
  channel?: string;
  /** Nobody could be asked ([consent] non_interactive answered), or the console question timed out. */
  nobody?: boolean;
  timed_out?: boolean;
}

/** `refused_for`: the client whose own consent channel is "deny" (nobody was asked, by its configuration). */
type GateAnswer = ConsentAnswer & { source: ConsentRecord['source']; refused_for?: string };

/** A client's own consent channel ([[mcp.clients]] consent): the asker that may answer it, or 'deny': nobody may. */
export type ClientChannel = Asker | 'deny';

const SENSITIVE_WHAT: Record<SensitiveAction['reason'], string> = {
  password_field: 'type into a password field',
  payment_field: 'type into a payment field',
  form_submit: 'submit a form',
  upload: 'upload a file',
  evaluate: 'run a script',
  cookie_banner: 'answer a cookie banner',
};

// Each call carries something new the user must see (the script, the files):
// an approval of one must never cover the next.
// Each of these hands the page something new (a script, a file, a cookie): one yes never covers the next.
const ASK_EVERY_TIME = new Set(['web.evaluate', 'web.upload', 'web.cookies.set']);

export class ConsentGate {
  /**
   * Remembered approvals, scope key → expiry: this process's memory, or the shared
   * store ([store] url) so an approval given to one host covers the same scope on the others.
   * Only approvals are kept: a "no" must not stick, the user may say yes later.
   */
  private readonly remembered: SharedValues;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly now: () => number;

  constructor(private readonly opts: {
    asker: Asker;
    config: WebcapConfig['consent'];
    record: (r: ConsentRecord) => Promise<void>;
    now?: () => number;
    approvals?: SharedValues;
    /**
     * Whose approval it is, by the session asking (one MCP client among several):
     * a remembered yes covers only the same approver's calls. Absent: one approver.
     */
    approverOf?: (session: string | undefined) => string | undefined;
    /** The principal a question belongs to ([[mcp.clients]] name): an approval it gave is remembered for it alone. */
    ownerOf?: (q: ConsentQuestion) => string | undefined;
    /** Who may reuse an approval: it is remembered under the scope of the caller that gave it (a daemon's command). */
    scope?: (q: ConsentQuestion) => string | undefined;
    /** The principal's own consent channel, which narrows `asker` for its questions; undefined: `asker`. */
    channelOf?: (owner: string) => ClientChannel | undefined;
  }) {
    this.now = opts.now ?? Date.now;
    this.remembered = opts.approvals ?? new MemoryValues(this.now);
  }

  /** Ask, or reuse an approval for the same capability + origin + selector (+ reason) within approval_ttl_s. */
  confirm(q: ConsentQuestion): Promise<GateAnswer> {
    const safe: ConsentQuestion = {
      ...q,
      capability: plain(q.capability, 100),
      reason: plain(q.reason, 40),
      origin: q.origin === undefined ? undefined : plain(q.origin),
      selector: q.selector === undefined ? undefined : plain(q.selector),
      question: plain(q.question, 2000),
    };
    if (this.opts.config.waive.includes(safe.capability)) return this.decide(safe, { approved: true }, 'waived');
    // Serialized: parallel prompts would interleave on a terminal, and a question
    // queued behind an identical one should reuse that approval, not ask again.
    const run = this.queue.then(() => this.askOrReuse(safe));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** The sidecar's SensitiveRequest. The secret is never read: only its presence is implied by the reason. */
  async confirmSensitive(a: SensitiveAction): Promise<{ approved: boolean; reason?: string; timed_out?: boolean }> {
    // Belt and braces: should the sidecar ever echo the typed value in a selector
    // or in page text, it is cut out before anything is shown or recorded.
    // Hidden before flattening (so truncation cannot keep half of it) and after
    // (so removed control characters cannot reassemble it).
    const hide = (s: string) => (a.secret && a.secret.length >= 3 ? s.split(a.secret).join('[secret]') : s);
    const clean = (s: string, max = 200) => hide(plain(hide(s), max));
    const origin = clean(originOf(hide(a.url)));
    const selector = a.selector ? clean(a.selector) : undefined;
    const what = SENSITIVE_WHAT[a.reason] ?? `perform "${plain(a.reason, 40)}"`;
    const target = selector ? ` (${quote(selector)})` : '';
    const details = a.details
      ? Object.fromEntries(Object.entries(plainDetails(a.details, Infinity)).map(([k, v]) => [k, clean(v, 500)]))
      : undefined;
    const answer = await this.confirm({
      capability: a.capability, origin, selector, reason: a.reason, session: a.session,
      question: `Allow ${a.capability} to ${what}${target} on ${quote(origin)}?`, details,
    });
    return answer.approved
      ? { approved: true }
      : { approved: false, reason: `${whyNot(answer)} ${a.reason} by ${a.capability} on ${origin}${hintFor(answer)}`, ...(answer.timed_out ? { timed_out: true } : {}) };
  }

  /**
   * The sidecar's EffectConsentRequest: the page is sending a state-changing
   * request that an action caused. Scoped (and remembered) per action, target
   * origin and "METHOD /path": the query is left out, it may carry what was typed.
   */
  async confirmRequest(q: EffectConsent): Promise<{ approved: boolean; reason?: string; timed_out?: boolean }> {
    const origin = originOf(q.url);
    let path = '';
    try { path = new URL(q.url).pathname; } catch { /* opaque URL: the origin says it */ }
    const method = plain(q.method, 20).toUpperCase();
    const selector = plain(`${method} ${path}`);
    const from = originOf(q.page_url);
    const answer = await this.confirm({
      capability: q.capability, origin, selector, reason: 'state_changing_request', session: q.session,
      question: `Allow ${q.capability} to make the page send ${method} ${quote(`${origin}${path}`)} (${plain(q.resource, 20)})${q.page_url ? ` from ${quote(from)}` : ''}?`,
    });
    return answer.approved
      ? { approved: true }
      : { approved: false, reason: `${whyNot(answer)} ${method} ${origin}${path} by ${q.capability}${hintFor(answer)}`, ...(answer.timed_out ? { timed_out: true } : {}) };
  }

  private async askOrReuse(q: ConsentQuestion): Promise<GateAnswer> {
    const { config } = this.opts;
    // ccos.user.ask is a question, not a permission: each one gets a fresh answer.
    // An approval is scoped to an origin: without one (a call that names no URL)
    // it would cover every site and session, so it is not remembered.
    const rememberable = q.reason !== 'user_ask' && !ASK_EVERY_TIME.has(q.capability) && config.approval_ttl_s > 0 && Boolean(q.origin);
    const approver = this.opts.approverOf?.(q.session);
    const owner = this.opts.ownerOf?.(q);
    const caller = this.opts.scope?.(q);
    const scope = [q.capability, q.origin ?? '', q.selector ?? '', q.reason, ...(approver ? [approver] : []), ...(caller === undefined ? [] : [caller])];
    const key = JSON.stringify(owner === undefined ? scope : [`client:${owner}`, ...scope]);
    // A store that cannot answer (or cannot keep the approval) refuses: recorded, then
    // StoreUnavailable, which the caller turns into a refusal of the call.
    let expiry = NaN;
    if (rememberable) {
      try { expiry = Number(await this.remembered.get(`approval:${key}`)); } catch (err) { return this.refuseOnStore(q, err); }
    }
    if (expiry > this.now()) return this.decide(q, { approved: true }, 'remembered');
    const channel = owner === undefined ? undefined : this.opts.channelOf?.(owner);
    if (channel === 'deny') return { ...(await this.decide(q, { approved: false, nobody: true, channel: 'client_deny' }, 'asker')), refused_for: owner };
    const asked = performance.now();
    const raw = await (channel ?? this.opts.asker)(q);
    metrics.consentAnswered((performance.now() - asked) / 1000);
    const answer: ConsentAnswer = typeof raw === 'boolean' ? { approved: raw } : raw;
    // "Approve for this origin for N minutes" (the console) says how long; otherwise the configured TTL.
    const remember = answer.remember_s !== undefined ? answer.remember_s > 0 && Boolean(q.origin) && q.reason !== 'user_ask' : rememberable && answer.remember !== false;
    if (answer.approved === true && remember) {
      const ttlMs = (answer.remember_s ?? config.approval_ttl_s) * 1000;
      try { await this.remembered.set(`approval:${key}`, String(this.now() + ttlMs), ttlMs); } catch (err) { return this.refuseOnStore(q, err); }
    }
    return this.decide(q, { ...answer, approved: answer.approved === true }, 'asker');
  }

  private async refuseOnStore(q: ConsentQuestion, err: unknown): Promise<never> {
    await this.decide(q, { approved: false }, 'store_unavailable');
    throw err instanceof StoreUnavailable ? err : new StoreUnavailable(err instanceof Error ? err.message : String(err));
  }

  private async decide(q: ConsentQuestion, a: ConsentAnswer, source: ConsentRecord['source']): Promise<GateAnswer> {
    // Built field by field so nothing else in the question (details, a secret) reaches the chain.
    const rec: ConsentRecord = { capability: q.capability, reason: q.reason, approved: a.approved, source };
    if (q.origin !== undefined) rec.origin = q.origin;
    if (q.selector !== undefined) rec.selector = q.selector;
    if (q.session !== undefined) rec.session = q.session;
    if (a.channel !== undefined) rec.channel = plain(a.channel, 40);
    if (a.nobody) rec.nobody = true;
    if (a.timed_out) rec.timed_out = true;
    await this.opts.record(rec);
    const out: GateAnswer = { approved: a.approved, source };
    if (a.answer !== undefined) out.answer = a.answer;
    if (a.channel !== undefined) out.channel = a.channel;
    if (a.nobody) out.nobody = true;
    if (a.timed_out) out.timed_out = true;
    return out;
  }
}

/** The start of a refusal: a person's no, nobody to ask, or nobody answering in time. */
export function whyNot(a: Pick<GateAnswer, 'nobody' | 'timed_out' | 'refused_for'>): string {
  if (a.refused_for !== undefined) return `nobody was asked (the consent channel of client ${plain(a.refused_for, 64)} is "deny") to approve`;
  if (a.timed_out) return 'timed out: nobody answered in the console to approve';
  if (a.nobody) return 'nobody was asked (no terminal, no MCP form elicitation, no console) to approve';
  return 'the user did not approve';
}

/** How to reach a person next time, when nobody was asked. */
export function hintFor(a: Pick<GateAnswer, 'nobody' | 'timed_out' | 'refused_for'>): string {
  return a.nobody && !a.timed_out && a.refused_for === undefined ? '; to be asked, open the console (`webcap run --console`, or [console] enabled for the daemon and `webcap mcp`) or approve up front with --yes' : '';
}

/** Scheme + host + port (punycode, so look-alike hosts show as xn--…); opaque URLs keep their text. */
function originOf(url: string): string {
  try {
    const u = new URL(url);
    return plain(u.origin !== 'null' ? u.origin : u.href);
  } catch {
    return plain(url);
  }
}
