// The CLI side of the daemon: find it (or start it), send one request, print
// its step log, answer its consent questions on this terminal, and return
// its result. A daemon that dies mid-request is reported, and the next
// command starts a new one.
import { spawn } from 'node:child_process';
import { existsSync, openSync } from 'node:fs';
import { MiB, readTextSafelySync } from '../files/safe-read.js';
import { connect, type Socket } from 'node:net';
import { join, resolve } from 'node:path';
import { builtEntry } from '../../manifests/built-entry.js';
import { WebcapError } from '../../manifests/errors.js';
import { projectRoot } from '../../manifests/load.js';
import { ttyAsker } from '../consent/asker.js';
import type { WebcapConfig } from '../config/types.js';
import type { StepLog } from '../rtfs/plan-runner.js';
import type { Heal } from '../replay/heal.js';
import { onLines, type DaemonStatus, type Reply, type Request } from './protocol.js';
import { checkSocket, daemonLogPath, socketPath } from './socket.js';

const START_WAIT_MS = 20_000;

export interface Listener { onStep?(step: StepLog): void; onLog?(message: string): void; onHeal?(heal: Heal): void }

function dial(path: string): Promise<Socket | undefined> {
  return new Promise((done) => {
    const socket = connect(path);
    socket.once('connect', () => { socket.removeAllListeners('error'); done(socket); });
    socket.once('error', () => done(undefined));
  });
}

export async function isDaemonAlive(path: string): Promise<boolean> {
  const socket = await dial(path);
  socket?.destroy();
  return Boolean(socket);
}

/** Connects to the workspace's daemon; undefined when none answers. */
export async function connectDaemon(config: WebcapConfig): Promise<Socket | undefined> {
  const path = socketPath(config);
  if (!checkSocket(path)) return undefined;
  return dial(path);
}

/** Starts a daemon for this config in the background and waits until it answers. */
export async function startDaemon(config: WebcapConfig, configFile: string | undefined): Promise<Socket> {
  const root = projectRoot();
  const cli = builtEntry(root, join(root, 'dist', 'host', 'cli.js'));
  const log = daemonLogPath(config);
  const { mkdirSync } = await import('node:fs');
  mkdirSync(config.workspace.path, { recursive: true });
  const out = openSync(log, 'a');
  const args = [cli, 'daemon', 'serve', ...(configFile ? ['--config', resolve(configFile)] : [])];
  const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', out, out], env: process.env });
  let exited: number | null | undefined;
  child.once('exit', (code) => { exited = code; });
  child.unref();
  const deadline = Date.now() + START_WAIT_MS;
  while (Date.now() < deadline) {
    const socket = await connectDaemon(config);
    if (socket) return socket;
    if (exited !== undefined && exited !== 0) break;
    await new Promise((r) => setTimeout(r, 40));
  }
  // The log is webcap's own file: never read through a planted link into this message.
  const tail = existsSync(log) ? logTail(log) : '';
  throw new WebcapError('internal', `the webcap daemon did not start (log ${log})${tail ? `:\n  ${tail}` : ''}; --no-daemon runs without it`);
}

/** Sends one request and resolves with its result (step/log events go to the listener). */
export function request(socket: Socket, req: Request, listener: Listener = {}): Promise<unknown> {
  const interactive = Boolean(process.stdin.isTTY && process.stderr.isTTY);
  return new Promise((done, fail) => {
    let settled = false;
    onLines(socket, (value) => {
      const reply = value as Reply;
      if (reply.type === 'step') listener.onStep?.(reply.step);
      else if (reply.type === 'log') listener.onLog?.(reply.message);
      else if (reply.type === 'healed') listener.onHeal?.(reply.heal);
      else if (reply.type === 'notice') process.stderr.write(`${reply.message}\n`);
      else if (reply.type === 'ask') {
        const ask = interactive ? ttyAsker() : async () => ({ approved: false });
        void Promise.resolve(ask(reply.question)).then((a) => {
          const approved = typeof a === 'boolean' ? a : a.approved;
          socket.write(`${JSON.stringify({ op: 'answer', qid: reply.qid, approved })}\n`);
        });
      } else {
        settled = true;
        socket.end();
        if (reply.type === 'error') fail(new WebcapError(reply.error.code as never, reply.error.message, reply.error.details));
        else done(reply.type === 'status' ? reply.status : reply.type === 'hello' ? reply : reply.value);
      }
    });
    socket.once('close', () => {
      if (!settled) fail(new WebcapError('internal', 'the webcap daemon stopped before answering (it crashed or was stopped); the next command starts a new one'));
    });
    socket.write(`${JSON.stringify(req)}\n`);
  });
}

/**
 * Sends a call or run to the workspace's daemon, starting one if none runs.
 * A daemon serving another configuration (file, contents or environment)
 * is stopped and one for this configuration started, with a notice.
 */
export async function requestOwnDaemon(config: WebcapConfig, configFile: string | null, req: Request, listener?: Listener): Promise<unknown> {
  const socket = (await connectDaemon(config)) ?? (await startDaemon(config, configFile ?? undefined));
  try {
    return await request(socket, req, listener);
  } catch (err) {
    if (!(err instanceof WebcapError && err.details?.reason === 'daemon_config_differs')) throw err;
    process.stderr.write(`webcap: ${err.message}; restarting it for this configuration\n`);
    const old = await connectDaemon(config);
    if (old) await request(old, { op: 'stop' }).catch(() => undefined);
    return request(await startDaemon(config, configFile ?? undefined), req, listener);
  }
}

export async function daemonStatus(config: WebcapConfig): Promise<DaemonStatus | undefined> {
  const socket = await connectDaemon(config);
  return socket ? (await request(socket, { op: 'status' })) as DaemonStatus : undefined;
}

function logTail(log: string): string {
  try {
    return readTextSafelySync(log, { what: 'daemon log', maxBytes: 16 * MiB }).trim().split('\n').slice(-3).join('\n  ');
  } catch {
    return '';
  }
}
