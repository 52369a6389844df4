// Which caller a `webcap call` is, for the daemon: the terminal session it runs
// in (Linux's session id, shared by every command typed in one shell), so
// commands from one shell share their browser sessions and another shell's
// calls never reach them. WEBCAP_CALLER names the caller explicitly (scripts, CI).
import { readFileSync } from 'node:fs';

export function callerId(env: NodeJS.ProcessEnv = process.env): string {
  const named = env.WEBCAP_CALLER?.trim();
  if (named) return `named:${named.slice(0, 200)}`;
  const sid = terminalSession();
  return sid ? `sid:${sid}` : `ppid:${process.ppid}`;
}

/** Field 6 of /proc/self/stat (after the parenthesised command name, which may hold spaces). */
function terminalSession(): string | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const sid = fields[3];
    return sid && /^\d+$/.test(sid) && sid !== '0' ? sid : undefined;
  } catch {
    return undefined;
  }
}
