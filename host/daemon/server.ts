// The CLI daemon: one long-lived host (sessions, budgets, chain) for one
// workspace and config, serving `webcap call` / `webcap run` over a Unix
// socket so a session opened by one command is there for the next. It exits
// after [capabilities.browser] idle_timeout_s with no request, on `daemon
// stop`, or on SIGTERM/SIGINT; each of those closes the host (sessions saved
// or dropped as usual). Chain entries are fsynced as they are written, so a
// crash loses none; the next command finds the dead socket and starts anew.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { resolve } from 'node:path';
import lockfile from 'proper-lockfile';
import { toWebcapError } from '../../manifests/errors.js';
import { chooseAsker, fixedAsker, type Asker, type ConsentQuestion } from '../consent/asker.js';
import { loadConfig } from '../config/load.js';
import { createHost, type Host, type HostScope } from '../host.js';
import { onLines, type Caller, type Reply, type Request } from './protocol.js';
import { configIdentity, envNamesOf } from './identity.js';
import { callOfArgv, FALLBACK, helloFrames, nativeReplies } from './native-op.js';
import { socketPath } from './socket.js';
import { isDaemonAlive } from './client.js';
import { packageVersion } from '../cli/version.js';
import { health } from '../ops/health.js';
import { startOpsServer, type OpsServer } from '../ops/ops-server.js';

interface Client { id: string; send(reply: Reply): void; ask: Asker; session?: string }

export async function serveDaemon(configPath: string | undefined): Promise<void> {
  const configFile = configPath ? resolve(configPath) : null;
  const config = loadConfig(configFile ?? undefined);
  const identity = configIdentity(configFile, config);
  const path = socketPath(config);
  mkdirSync(config.workspace.path, { recursive: true });
  const callers = new AsyncLocalStorage<Client>();
  const running = new Set<Client>();
  // A question goes to the command whose call raised it: the one whose async
  // context it runs in (the host's policies), else, for a question the sidecar
  // raised mid-action, the only command running, or the one acting on that
  // session. Never to an earlier command; when it cannot tell, the answer is no.
  const clientFor = (q: ConsentQuestion): Client | undefined => {
    const own = callers.getStore();
    if (own && running.has(own)) return own;
    const all = [...running];
    if (all.length === 1) return all[0];
    const onSession = all.filter((c) => q.session !== undefined && c.session === q.session);
    return onSession.length === 1 ? onSession[0] : undefined;
  };
  const byConfig = chooseAsker({ nonInteractive: config.consent.non_interactive, isTTY: false });
  const routedAsker: Asker = (q) => {
    const client = clientFor(q);
    if (client) return client.ask(q);
    // Nothing running (a profile saved on idle close): the config answers; several and none named: no.
    return running.size > 1 ? fixedAsker(false)(q) : byConfig(q);
  };
  // Made on first use, so a daemon that finds another one already serving leaves without touching the chain.
  let made: Host | undefined;
  // The console starts with the host when [console] enabled (or on a command's --console); its URL goes only to
  // `daemon status` and to commands, never to the daemon's log.
  let consoleUrl: Promise<string | undefined> | undefined;
  const notify = (message: string) => (callers.getStore() ?? (running.size === 1 ? [...running][0] : undefined))?.send({ type: 'notice', message });
  const serveConsole = () => (consoleUrl ??= made!.console({ onWaiting: (url) => notify(`webcap: a question waits for an answer in the console: ${url}`) })
    .then((c) => c.url, (err: unknown) => { consoleUrl = undefined; notify(`webcap: the console could not start: ${String((err as Error)?.message ?? err)}`); return undefined; }));
  const host = () => {
    if (!made) {
      made = createHost({ config: configFile ?? undefined, ask: routedAsker, approvalScope: (q) => clientFor(q)?.id });
      if (config.console.enabled) void serveConsole();
    }
    return made;
  };
  const started = Date.now();
  let inFlight = 0;
  let idleTimer: NodeJS.Timeout | undefined;
  const idleMs = config.capabilities.browser.idle_timeout_s * 1000;

  // The handler is attached before listening: a client may connect the moment the socket exists.
  const server = createServer();
  const open = new Set<Socket>();
  let stopping: Promise<void> | undefined;
  let ops: OpsServer | undefined;
  const stop = () => (stopping ??= (async () => {
    clearTimeout(idleTimer);
    server.close();
    // Connections still open would keep the server (and this process) alive: their commands are told the daemon stopped.
    for (const socket of open) socket.end();
    try { unlinkSync(path); } catch { /* already gone */ }
    // A sidecar that already went (it shares our signal) must not stop the rest of the shutdown.
    await made?.close().catch(() => undefined);
    await ops?.close();
  })());
  const armIdle = () => {
    clearTimeout(idleTimer);
    if (inFlight === 0) idleTimer = setTimeout(() => { void stop(); }, idleMs);
  };

  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    const pending = new Map<number, (approved: boolean) => void>();
    let nextQid = 1;
    const write = (bytes: Buffer | string) => { if (!socket.destroyed) socket.write(bytes); };
    const send = (reply: Reply) => write(`${JSON.stringify(reply)}\n`);
    const clientOf = (caller: Extract<Request, { op: 'call' | 'run' }>, send: (reply: Reply) => void): Client => {
      const forward: Asker = (question: ConsentQuestion) => new Promise((done) => {
        const qid = nextQid++;
        pending.set(qid, (approved) => done({ approved, channel: 'terminal' }));
        send({ type: 'ask', qid, question });
      });
      const session = caller.op === 'call' && typeof caller.params?.session === 'string' ? caller.params.session : undefined;
      return { id: randomUUID(), send, session, ask: chooseAsker({ yes: caller.yes, ask: caller.tty ? forward : undefined, nonInteractive: config.consent.non_interactive, isTTY: false }) };
    };
    // A client that goes away mid-question has said no; one that goes away mid-call (Ctrl-C) interrupts it.
    const gone = new AbortController();
    socket.on('close', () => { for (const answer of pending.values()) answer(false); pending.clear(); gone.abort(); });
    socket.on('error', () => undefined);
    onLines(socket, (value) => {
      const req = value as Request;
      if (req.op === 'answer') { pending.get(req.qid)?.(req.approved === true); pending.delete(req.qid); return; }
      if (req.op === 'status') {
        void Promise.resolve(consoleUrl).then((url) => send({ type: 'status', status: { pid: process.pid, uptime_s: Math.round((Date.now() - started) / 1000), sessions: made?.sessions() ?? [], socket: path, config: configFile, version: packageVersion(), ...(url ? { console: url } : {}) } }));
        return;
      }
      if (req.op === 'hello') {
        const names = [...envNamesOf(config)].sort();
        if (req.framing === 'native') write(helloFrames(names, config.cli.daemon));
        else send({ type: 'hello', env_names: names, daemon: config.cli.daemon });
        return;
      }
      if (req.op === 'stop') { open.delete(socket); void stop().then(() => { send({ type: 'result', value: { stopped: true } }); socket.end(); }); return; }
      // The native client's command line becomes the call the Node thin client would send, answered in frames.
      const native = req.op === 'argv' ? callOfArgv(req) : undefined;
      if (req.op === 'argv' && !native) { write(FALLBACK); return; }
      const call = native?.call ?? (req as Extract<Request, { op: 'call' | 'run' }>);
      const reply = native ? nativeReplies(write, native.verb, native.call.caller!) : send;
      if (call.config_id !== identity) {
        const what = call.config === configFile ? `${configFile ?? 'the default config'} as it was when it started (the file or a variable it names in the environment has changed since)` : (configFile ?? 'the default config');
        reply({ type: 'error', error: { code: 'invalid_params', message: `the webcap daemon on ${path} serves ${what}`, details: { reason: 'daemon_config_differs' } } });
        return;
      }
      const client = clientOf(call, reply);
      running.add(client);
      inFlight += 1;
      clearTimeout(idleTimer);
      // Everything after the count is inside the promise that settles it: a host that cannot be made (its
      // config file broken since) answers this command with the error and leaves the daemon to its idle end.
      void (async () => {
        const h = host();
        if (call.console) void serveConsole().then((url) => { if (url) reply({ type: 'notice', message: `webcap console: ${url}` }); });
        await callers.run(client, () => answer(h, call, reply, gone.signal));
      })().catch((err: unknown) => {
        const e = toWebcapError(err);
        reply({ type: 'error', error: { code: e.code, message: e.message, details: e.details } });
      }).finally(() => {
        inFlight -= 1;
        running.delete(client);
        armIdle();
      });
    });
  });
  await listenExclusively(server, path, config.workspace.path);
  // /metrics and /healthz for operators; the daemon's host is made on first use, so health reads the config.
  ops = config.metrics.listen ? await startOpsServer({ listen: config.metrics.listen, tokenEnv: config.metrics.token_env, health: () => health(config) }) : undefined;
  // With the console on, the host starts now so `daemon status` can show the console's URL before the first command.
  if (config.console.enabled) host();
  process.once('SIGTERM', () => { void stop(); });
  process.once('SIGINT', () => { void stop(); });
  armIdle();
  await new Promise<void>((done) => server.once('close', done));
  await stopping;
}

// Each terminal (caller) that sends `webcap call`s is one caller of the host: its sessions are its own.
const callerScopes = new WeakMap<Host, Map<string, HostScope>>();
function callerScope(host: Host, caller: string | undefined): HostScope {
  const scopes = callerScopes.get(host) ?? new Map<string, HostScope>();
  callerScopes.set(host, scopes);
  const key = typeof caller === 'string' && caller ? caller : 'cli';
  let scope = scopes.get(key);
  if (!scope) scopes.set(key, (scope = host.scope('cli')));
  return scope;
}

async function answer(host: Host, req: Extract<Request, { op: 'call' | 'run' }>, send: (r: Reply) => void, signal: AbortSignal): Promise<void> {
  try {
    if (req.op === 'call') {
      const value = await callerScope(host, req.caller).call(req.id, req.params, { caller: 'CLI (webcap call)', signal });
      send({ type: 'result', value });
    } else {
      const value = await host.runPlan(req.source, {
        onStep: (step) => send({ type: 'step', step }), onLog: (message) => send({ type: 'log', message }),
        inputs: req.inputs, heal: { force: req.heal === true, onHeal: (heal) => send({ type: 'healed', heal }) }, signal,
      });
      send({ type: 'result', value });
    }
  } catch (err) {
    const e = toWebcapError(err);
    send({ type: 'error', error: { code: e.code, message: e.message, details: e.details } });
  }
}

/**
 * Listens on the socket with mode 0600 (umask while binding, chmod after).
 * Under a lock, so two commands starting a daemon at once end with one: the
 * second finds the first alive and leaves. A socket nobody answers on is a
 * dead daemon's, and is replaced.
 */
async function listenExclusively(server: Server, path: string, workspace: string): Promise<void> {
  const release = await lockfile.lock(workspace, { lockfilePath: `${path}.lock`, stale: 5000, retries: { retries: 50, minTimeout: 50, maxTimeout: 200 } });
  try {
    if (await isDaemonAlive(path)) {
      process.stderr.write(`webcap daemon: already running on ${path}\n`);
      process.exit(0);
    }
    try { unlinkSync(path); } catch { /* no stale socket */ }
    const previous = process.umask(0o177);
    try {
      await new Promise<void>((done, fail) => { server.once('error', fail); server.listen(path, () => done()); });
    } finally {
      process.umask(previous);
    }
    chmodSync(path, 0o600);
  } finally {
    await release();
  }
}
