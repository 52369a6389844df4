// What travels over the daemon's Unix socket: one JSON object per line, both
// ways. A client sends one request and reads events until `result` or `error`;
// while it waits it answers `ask` questions (consent prompts reach the
// terminal of the command that caused them).
import type { ConsentQuestion } from '../consent/asker.js';
import type { StepLog } from '../rtfs/plan-runner.js';
import type { Heal } from '../replay/heal.js';

export interface Caller {
  /** --yes on the calling command. */
  yes: boolean;
  /** The calling command has a terminal to ask on. */
  tty: boolean;
  /** The config file the command was given (resolved; null: none). */
  config: string | null;
  /**
   * Which caller a `webcap call` is (host/cli/caller-id.ts: its terminal session):
   * calls of one caller share their browser sessions, other callers' never reach them.
   * A `webcap run` plan is always a caller of its own.
   */
  caller?: string;
  /** configIdentity() of the command's configuration and environment; a daemon serving another refuses (reason daemon_config_differs). */
  config_id: string;
  /** --console: serve the console (even with [console] enabled = false) and tell this command its URL. */
  console?: boolean;
}

export type Request =
  | ({ op: 'call'; id: string; params: Record<string, unknown> } & Caller)
  | ({ op: 'run'; source: string; inputs?: Record<string, string>; heal?: boolean } & Caller)
  | { op: 'status' }
  /** What a thin client needs to compute config_id without loading the config: the variable names it reads. */
  | { op: 'hello'; framing?: 'native' }
  /**
   * The native client's verb (native/webcap-thin.c): its command line as typed, parsed by the daemon as the
   * Node thin client parses it, answered in frames (host/daemon/native-op.ts). It never has a terminal to ask on.
   */
  | ({ op: 'argv'; argv: string[]; cwd: string; caller: string; tty: false } & Pick<Caller, 'config' | 'config_id'>)
  | { op: 'stop' }
  | { op: 'answer'; qid: number; approved: boolean };

export interface DaemonStatus {
  pid: number;
  uptime_s: number;
  sessions: string[];
  socket: string;
  /** The config file it serves (null: defaults / cwd's). */
  config: string | null;
  version: string;
  /** The console's URL with its token, while it serves one (status goes to the owner's terminal only, never to the log). */
  console?: string;
}

export type Reply =
  | { type: 'result'; value: unknown }
  | { type: 'error'; error: { code: string; message: string; details?: Record<string, unknown> } }
  | { type: 'step'; step: StepLog }
  | { type: 'log'; message: string }
  | { type: 'healed'; heal: Heal }
  | { type: 'ask'; qid: number; question: ConsentQuestion }
  | { type: 'status'; status: DaemonStatus }
  /** env_names: envNamesOf(config) (names only, never values); daemon: [cli] daemon (false: commands must run in-process). */
  | { type: 'hello'; env_names: string[]; daemon: boolean }
  /** Printed on the command's stderr: the console URL (--console), or where a question waits. */
  | { type: 'notice'; message: string };

/** Splits a stream into JSON lines. */
export function onLines(stream: NodeJS.ReadableStream, each: (value: unknown) => void): void {
  let buffer = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (!line.trim()) continue;
      try { each(JSON.parse(line)); } catch { /* a line that is not JSON is ignored */ }
    }
  });
}
