// The host's end of the wire: starts the sidecar lazily, forwards calls, and
// turns a dead sidecar into sidecar_crashed at once (not at the call timeout);
// the next call starts a fresh one.
import { AsyncResource } from 'node:async_hooks';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import { CancellationTokenSource, createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import { WebcapError, toWebcapError } from '../../manifests/errors.js';
import { sidecarEntry, startRecord } from './attestation.js';
import { adoptEarlySidecar, hasEarlySidecar } from './early-sidecar.js';
import { metrics } from '../metrics/metrics.js';
import {
  BlockedNotification, EffectConsentRequest, EventNotification, EvidenceRequest, InitRequest, PrelaunchNotification, InvokeRequest,
  RefuseEndpointNotification, RobotsCheckRequest, SecretRequest, SessionQueueNotification, SensitiveRequest, ShutdownRequest, StopRequest, ScreencastRequest, FrameNotification, HandoffRequest, InputRequest,
  type BlockedRequest, type EffectConsent, type HandoffAsk, type HandoffReply, type PersonInput,
  type Evidence, type EvidenceParams, type InvokeParams, type NavigationCheck, type RefuseEndpoint, type SecretAnswer, type SecretResolve, type SensitiveAction, type SidecarEvent, type SidecarInit,
} from '../../manifests/wire.js';

interface SidecarHandlers {
  onBlocked(b: BlockedRequest): void;
  onEvent(e: SidecarEvent): void;
  onSensitive(a: SensitiveAction): Promise<{ approved: boolean; reason?: string }>;
  /** A state-changing request an action caused, held in the browser (sidecar/guard/effect-gate.ts). Absent: refused. */
  onEffectConsent?(q: EffectConsent): Promise<{ approved: boolean; reason?: string }>;
  /** A live-view frame (JPEG, base64) of a session someone watches in the console. */
  onFrame?(session: string, jpeg: string): void;
  /** A top-level navigation about to leave the browser. Absent: allowed (robots is the host's policy to apply). */
  onRobotsCheck?(q: NavigationCheck): Promise<{ allowed: boolean; reason: string; rule?: string }>;
  /** A vault reference about to be typed (host/secrets/resolver.ts). Absent: refused. */
  onSecret?(q: SecretResolve): Promise<SecretAnswer>;
  /** web.handoff: the person drives the session in the console until Done, the timeout or Stop. Absent: nobody can take over. */
  onHandoff?(ask: HandoffAsk): Promise<HandoffReply>;
}

interface Running { child: ChildProcess; connection: MessageConnection; exited: Promise<never>; ready: Promise<unknown> }

const GRACE_MS = 2000;

// The sidecar's questions belong to no caller by where they arrive: its pipes
// carry the async context of whichever call happened to start it, and a host
// that routes questions per caller (the daemon, MCP) would hand every later
// question to that first caller's asker. They run in the context this module
// was loaded in (no caller's), and are routed by what they say (their session).
const neutral = new AsyncResource('webcap.sidecar-question');
const outsideAnyCall = <T>(fn: () => T): T => neutral.runInAsyncScope(fn);

export class SidecarClient {
  private running: Running | undefined;
  /** Sidecar processes started so far: every one after the first is a restart. */
  private starts = 0;
  // Time spent waiting for the user's answer does not count against a call's
  // timeout: a person reading a consent prompt is not a hung browser.
  private asking = 0;
  private askedMs = 0;
  private askStartedAt = 0;
  private readonly refused: RefuseEndpoint[] = [];
  private waiting = 0;

  /** web.open calls waiting for a session slot in the running sidecar (what it last said). */
  get queued(): number { return this.waiting; }

  /** `init` runs at each start, just after the spawn, so its work overlaps the sidecar's boot. */
  constructor(private readonly init: () => SidecarInit, private readonly handlers: SidecarHandlers, private readonly log: Logger) {}

  get pid(): number | undefined { return this.running?.child.pid; }

  /** `owner`: the caller the call belongs to; the sidecar lets it reach only that caller's sessions. `narrowed`: see InvokeParams. */
  async invoke(capability: string, params: Record<string, unknown>, timeoutMs: number, owner: string, narrowed?: InvokeParams['narrowed']): Promise<Record<string, unknown>> {
    const run = this.start();
    const cancel = new CancellationTokenSource();
    let timer: NodeJS.Timeout | undefined;
    const started = Date.now();
    const askedBefore = this.askedTotal();
    const watchdog = new Promise<never>((_, reject) => {
      const check = () => {
        const remaining = timeoutMs + GRACE_MS - (Date.now() - started - (this.askedTotal() - askedBefore));
        if (this.asking > 0 || remaining > 0) {
          timer = setTimeout(check, this.asking > 0 ? 1000 : remaining);
          return;
        }
        cancel.cancel();
        reject(new WebcapError('timeout', `${capability} did not finish within ${timeoutMs} ms`, { timeout_ms: timeoutMs }));
      };
      timer = setTimeout(check, timeoutMs + GRACE_MS);
    });
    try {
      await Promise.race([run.ready, run.exited]);
      const request = run.connection.sendRequest(InvokeRequest, { capability, params, owner, ...(narrowed ? { narrowed } : {}) }, cancel.token);
      return await Promise.race([request, run.exited, watchdog]);
    } catch (err) {
      throw toWebcapError(err);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Start the process without sending anything (a failure surfaces on the next invoke). */
  prestart(): void {
    try {
      this.start();
    } catch {
      // invoke() will report it with its own error.
    }
  }

  /** Have the sidecar launch Chromium now: a web.open is on its way (starts the process if needed). `spare`: see PrelaunchParams. */
  prelaunch(spare = false): void {
    try {
      void this.start().connection.sendNotification(PrelaunchNotification, { spare }).catch(() => undefined);
    } catch {
      // invoke() will report it with its own error.
    }
  }

  /** The page behind a question, for the console; undefined when no sidecar runs or it does not answer in time. */
  async evidence(p: EvidenceParams, timeoutMs = 5000): Promise<Evidence | undefined> {
    const run = this.running;
    if (!run) return undefined;
    return Promise.race([run.connection.sendRequest(EvidenceRequest, p).catch(() => undefined), sleep(timeoutMs).then(() => undefined)]);
  }

  /** An endpoint no page may reach (the console): told to the running sidecar now and to every later one at init. */
  refuse(endpoint: RefuseEndpoint): void {
    this.refused.push(endpoint);
    void this.running?.connection.sendNotification(RefuseEndpointNotification, endpoint).catch(() => undefined);
  }

  /** Live view on or off for a session (only while the console has a viewer for it). */
  async screencast(session: string, on: boolean): Promise<boolean> {
    const run = this.running;
    if (!run) return false;
    return (await run.connection.sendRequest(ScreencastRequest, { session, on }).catch(() => ({ on: false }))).on;
  }

  /** The person's input during a hand-off, to that session's page (the sidecar takes it only while the session is handed off). */
  async input(session: string, events: PersonInput[]): Promise<number> {
    const run = this.running;
    if (!run) return 0;
    return (await run.connection.sendRequest(InputRequest, { session, events }).catch(() => ({ delivered: 0 }))).delivered;
  }

  /** The person pressed Stop: the sidecar stops the session's pages and lets nothing more leave them until its next call. */
  async stop(session: string): Promise<boolean> {
    const run = this.running;
    if (!run) return false;
    const answer = await Promise.race([run.connection.sendRequest(StopRequest, { session }).catch(() => ({ stopped: false })), sleep(5000).then(() => ({ stopped: false }))]);
    return answer.stopped;
  }

  /** Runs a question to the user; its time does not count against the call's timeout. */
  private async whileAsking<T>(ask: () => Promise<T>): Promise<T> {
    if (this.asking++ === 0) this.askStartedAt = Date.now();
    try {
      return await ask();
    } finally {
      if (--this.asking === 0) this.askedMs += Date.now() - this.askStartedAt;
    }
  }

  private askedTotal(): number {
    return this.askedMs + (this.asking > 0 ? Date.now() - this.askStartedAt : 0);
  }

  async close(): Promise<void> {
    const run = this.running;
    this.running = undefined;
    if (!run) return;
    const gone = new Promise<void>((done) => run.child.once('exit', () => done()));
    const alive = () => run.child.exitCode === null && run.child.signalCode === null;
    if (alive()) {
      await Promise.race([run.connection.sendRequest(ShutdownRequest).catch(() => undefined), run.exited.catch(() => undefined), sleep(5000)]);
    }
    if (alive()) run.child.kill('SIGKILL');
    if (alive()) await Promise.race([gone, sleep(2000)]);
    run.connection.dispose();
  }

  /** The init for comparing with an early sidecar's; undefined when it throws (start() reports that). */
  private safeInit(): SidecarInit | undefined {
    try {
      return this.init();
    } catch {
      return undefined;
    }
  }

  private start(): Running {
    if (this.running) return this.running;
    const entry = sidecarEntry();
    if (!existsSync(entry)) throw new WebcapError('internal', `sidecar not built (${entry} missing): run \`npm run build\``);
    // An early sidecar (host/sidecar-link/early-sidecar.ts) is adopted only if it had this very init; else spawn, then
    // compute init while the new process boots.
    const early = hasEarlySidecar() ? this.safeInit() : undefined;
    const adopted = adoptEarlySidecar(entry, early);
    const child = adopted?.child ?? spawn(process.execPath, [entry], { stdio: ['pipe', 'pipe', 'pipe'] });
    let init: SidecarInit;
    try {
      init = early ?? this.init();
      if (this.refused.length) init = { ...init, refuse_endpoints: [...(init.refuse_endpoints ?? []), ...this.refused] };
    } catch (err) {
      child.kill('SIGKILL'); // a bad site profile: nothing to start it for
      throw err;
    }
    const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    child.stderr!.on('data', (d: Buffer) => this.log.debug({ sidecar: d.toString().trim() }, 'sidecar stderr'));
    const exited = new Promise<never>((_, reject) => {
      const fail = (code: number | null, signal: NodeJS.Signals | null) => {
        // Not asked to stop (close() forgets it first): a crash, recorded as such; every call in flight fails below, at once.
        const crashed = this.running?.child === child;
        if (crashed) this.running = undefined;
        this.log.warn({ code, signal }, 'sidecar exited');
        if (crashed) this.handlers.onEvent({ kind: 'sidecar_crashed', detail: { pid: child.pid, code, signal } });
        reject(new WebcapError('sidecar_crashed', `the browser sidecar exited (${signal ?? `code ${code}`}); the next call starts a new one`, { code, signal }));
      };
      child.once('exit', fail);
      child.once('error', (err) => reject(new WebcapError('sidecar_crashed', `cannot start the sidecar: ${err.message}`)));
    });
    exited.catch(() => undefined);
    connection.onNotification(BlockedNotification, (b) => this.handlers.onBlocked(b));
    connection.onNotification(EventNotification, (e) => this.handlers.onEvent(e));
    // Only this process's word counts: a sidecar that exited has nobody waiting any more.
    connection.onNotification(SessionQueueNotification, (q) => { if (this.running?.child === child && Number.isSafeInteger(q.queued) && q.queued >= 0) this.waiting = q.queued; });
    child.once('exit', () => { if (this.running === undefined || this.running.child === child) this.waiting = 0; });
    connection.onNotification(FrameNotification, (f) => this.handlers.onFrame?.(f.session, f.jpeg));
    connection.onRequest(SensitiveRequest, (a) => outsideAnyCall(() => this.whileAsking(() => this.handlers.onSensitive(a))));
    connection.onRequest(EffectConsentRequest, (q) => outsideAnyCall(() => this.whileAsking(async () => (
      this.handlers.onEffectConsent ? this.handlers.onEffectConsent(q) : { approved: false, reason: 'this host does not answer request-level consent' }))));
    connection.onRequest(SecretRequest, (q) => outsideAnyCall(() => this.whileAsking(async () => (
      this.handlers.onSecret ? this.handlers.onSecret(q) : { ok: false as const, error: { code: 'consent_denied', message: 'this host does not resolve secrets', details: { reason: 'secret_origin' } } }))));
    // The person driving is a person answering: the hand-off's time does not count against the call's timeout either.
    connection.onRequest(HandoffRequest, (q) => outsideAnyCall(() => this.whileAsking(async () => (
      this.handlers.onHandoff ? this.handlers.onHandoff(q) : { outcome: 'no_console' as const }))));
    connection.onRequest(RobotsCheckRequest, (q) => outsideAnyCall(async () => (this.handlers.onRobotsCheck ? this.handlers.onRobotsCheck(q) : { allowed: true, reason: 'not checked' })));
    connection.onError(([err]) => this.log.debug({ err: err.message }, 'sidecar wire error'));
    connection.listen();
    // An early sidecar (host/sidecar-link/early-sidecar.ts) had this very init already; it handles messages in order.
    const ready = adopted?.initSent ? Promise.resolve() : connection.sendRequest(InitRequest, init);
    // An early sidecar got its init before any console existed: it learns the refused endpoints now, before any call.
    if (adopted?.initSent) for (const e of this.refused) void connection.sendNotification(RefuseEndpointNotification, e).catch(() => undefined);
    ready.catch(() => undefined);
    this.running = { child, connection, exited, ready };
    if (this.starts++ > 0) metrics.sidecarRestarted();
    const forget = metrics.sidecarStarted(child.pid);
    child.once('exit', forget);
    this.log.info({ pid: child.pid }, 'sidecar started');
    // Attestation (host/sidecar-link/attestation.ts): which code this sidecar runs, in the chain.
    try {
      const { event, detail } = startRecord(entry);
      this.handlers.onEvent({ kind: event, detail: { pid: child.pid, ...detail } });
    } catch (err) {
      this.handlers.onEvent({ kind: 'sidecar_attestation_failed', detail: { pid: child.pid, reason: String((err as Error)?.message ?? err) } });
    }
    return this.running;
  }
}

function sleep(ms: number) {
  return new Promise<void>((r) => setTimeout(r, ms).unref());
}
