// How a verb's answer prints, as bytes and an exit code: the answer as text
// (or JSON with --json); an error as `error: code: message` on stderr, exit 1.
// Shared by the Node thin client (host/cli/thin-client.ts), which writes it to
// its own streams, and by the daemon's argv op (host/daemon/native-op.ts),
// which sends it to the native client, so both print a verb identically.
import { NO_TTY_HINT } from './hints.js';
import type { ParsedVerb } from './thin-args.js';
import { noSessionMessage } from './verb-table.js';

export interface WireError { code: string; message: string; details?: Record<string, unknown> }

export interface Rendered { stdout: string; stderr: string; exit: 0 | 1 }

/** As the full CLI prints it (host/cli.ts). tty: the command has a terminal (stdin and stderr). */
export function renderVerb(verb: ParsedVerb, caller: string, tty: boolean, error: WireError | undefined, value?: Record<string, unknown>): Rendered {
  if (!error) return { stdout: `${verb.json ? JSON.stringify(value ?? null) : verb.verb.text(value ?? {})}\n`, stderr: '', exit: 0 };
  const e = error.code === 'session_not_found' && !verb.session && verb.verb.id !== 'web.open' ? { ...error, message: noSessionMessage(caller) } : error;
  let stderr = `error: ${e.code}: ${e.message}\n`;
  if (e.code === 'consent_denied' && !tty) stderr += NO_TTY_HINT;
  return { stdout: verb.json ? `${JSON.stringify({ error: e })}\n` : '', stderr, exit: 1 };
}
