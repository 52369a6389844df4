// The thin client: a verb (`webcap click e12`) sent to a warm daemon without
// loading the host (no commander, no config loader, no schema validator) —
// node builtins, the verb table and the daemon's wire protocol only. It returns
// false, having done nothing, whenever the full CLI must answer instead: an
// option it does not know, --help, --no-daemon, no daemon answering, a daemon
// serving another configuration or told to run commands in-process. The
// daemon does the governing, so a verb here is the same call (and chain entry)
// as through the full CLI.
import { existsSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { callerId } from './caller-id.js';
import { parseVerb, verbParams, type ParsedVerb } from './thin-args.js';
import { renderVerb, type WireError } from './thin-render.js';
import { configContents, identityOf } from '../daemon/identity.js';
import { onLines, type Reply } from '../daemon/protocol.js';
import { checkSocket } from '../daemon/socket.js';

/** The file loadConfig would read (same order, same reading of an empty $WEBCAP_CONFIG), resolved; null: none. */
function configFile(explicit: string | undefined): string | null {
  const path = explicit ?? process.env.WEBCAP_CONFIG ?? (existsSync('agent_config.toml') ? 'agent_config.toml' : undefined);
  return path ? resolve(path) : null;
}

/**
 * Where the daemon for this config listens when the config keeps the default workspace. A config
 * that names its own workspace is left to the full CLI. Any guess is safe: a daemon answers a call
 * only when the config file, its contents and the environment it reads are exactly ours.
 */
function socketFor(file: string | null, contents: string | null): string | undefined {
  if (contents?.includes('workspace')) return undefined;
  return join(file ? dirname(file) : process.cwd(), '.webcap', 'daemon.sock');
}

function dial(path: string): Promise<Socket | undefined> {
  return new Promise((done) => {
    const socket = connect(path);
    socket.once('connect', () => { socket.removeAllListeners('error'); done(socket); });
    socket.once('error', () => done(undefined));
  });
}

/** Answers the verb through a warm daemon; false when the full CLI must (nothing was sent to the browser). */
export async function runThinVerb(argv: string[]): Promise<boolean> {
  if (process.env.WEBCAP_DAEMON === '0') return false;
  const verb = parseVerb(argv);
  if (!verb) return false;
  const params = verbParams(verb);
  if (!params) return false;
  const file = configFile(verb.config);
  const contents = configContents(file);
  const path = socketFor(file, contents);
  try {
    if (!path || !checkSocket(path)) return false;
  } catch {
    return false; // a socket that is not ours alone: the full CLI refuses it with its reason
  }
  const socket = await dial(path);
  if (!socket) return false;
  const lines: Reply[] = [];
  let wake: (() => void) | undefined;
  let closed = false;
  onLines(socket, (value) => { lines.push(value as Reply); wake?.(); });
  socket.on('close', () => { closed = true; wake?.(); });
  socket.on('error', () => undefined);
  const next = async (): Promise<Reply | undefined> => {
    while (!lines.length && !closed) await new Promise<void>((w) => { wake = w; });
    wake = undefined;
    return lines.shift();
  };
  socket.write(`${JSON.stringify({ op: 'hello' })}\n`);
  const hello = await next();
  if (hello?.type !== 'hello' || !hello.daemon) { socket.destroy(); return false; }
  const tty = Boolean(process.stdin.isTTY && process.stderr.isTTY);
  socket.write(`${JSON.stringify({ op: 'call', id: verb.verb.id, params, caller: callerId(), yes: verb.yes, tty, config: file, config_id: identityOf(file, contents, hello.env_names) })}\n`);
  for (;;) {
    const reply = await next();
    if (!reply) return finish(socket, verb, { code: 'internal', message: 'the webcap daemon stopped before answering (it crashed or was stopped); the next command starts a new one' });
    if (reply.type === 'notice') process.stderr.write(`${reply.message}\n`);
    else if (reply.type === 'ask') void answerQuestion(socket, reply, tty);
    else if (reply.type === 'result') return finish(socket, verb, undefined, reply.value as Record<string, unknown>);
    else if (reply.type === 'error') {
      // Nothing ran: the full CLI restarts the daemon for this configuration and sends the call.
      if (reply.error.details?.reason === 'daemon_config_differs') { socket.destroy(); return false; }
      return finish(socket, verb, reply.error);
    }
  }
}

async function answerQuestion(socket: Socket, ask: Extract<Reply, { type: 'ask' }>, tty: boolean): Promise<void> {
  let approved = false;
  if (tty) {
    const { ttyAsker } = await import('../consent/asker.js');
    const a = await ttyAsker()(ask.question);
    approved = typeof a === 'boolean' ? a : a.approved;
  }
  socket.write(`${JSON.stringify({ op: 'answer', qid: ask.qid, approved })}\n`);
}

/** Prints as the full CLI does (host/cli.ts): the answer as text or JSON; an error as `error: code: message`, exit 1. */
function finish(socket: Socket, verb: ParsedVerb, error: WireError | undefined, value?: Record<string, unknown>): true {
  // The answer is in: nothing more to say to the daemon (the call is over), and the process may exit now.
  socket.destroy();
  const out = renderVerb(verb, callerId(), Boolean(process.stdin.isTTY && process.stderr.isTTY), error, value);
  // Same order as before: stderr's lines, then --json's error object on stdout.
  if (out.stderr) process.stderr.write(out.stderr);
  if (out.stdout) process.stdout.write(out.stdout);
  if (out.exit) process.exitCode = out.exit;
  return true;
}
