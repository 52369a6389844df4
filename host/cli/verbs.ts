// Short verbs for agents that drive a browser from a shell: `webcap open URL`,
// `webcap click e12`, `webcap snapshot`… Each is exactly `webcap call web.*`
// (same governance, same chain entry, through the daemon) with the session
// named explicitly: a verb without --session uses the session the previous
// `open` of the same caller opened. The caller is $WEBCAP_CALLER when set, else
// the parent process (one shell or one agent runtime), so two terminals never
// share a "current" session and nothing depends on the daemon's own notion of
// one. Output is text (a snapshot prints as its outline); --json for programs.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { WebcapError } from '../../manifests/errors.js';
import { writeFileSafelySync } from '../../manifests/safe-write.js';
import { readJsonSafelySync } from '../files/safe-read.js';
import { loadConfig } from '../config/load.js';
import { optionsOf, parseParams, print, printResult } from './args.js';
import { withExecutor } from './executor.js';

const SNAPSHOT_REF = /^(f\d+)?e\d+$|^wa-\d+$/;

/** e12 / f1e3 / wa-7 is a ref; anything else a selector. */
const target = (it: string) => (SNAPSHOT_REF.test(it) ? { ref: it } : { selector: it });

function callerName(): string {
  return (process.env.WEBCAP_CALLER || `ppid-${process.ppid}`).replace(/[^a-zA-Z0-9_.-]/g, '_');
}

function callerFile(configPath: string | undefined): string {
  return join(loadConfig(configPath).workspace.path, '.webcap-cli', `${callerName()}.json`);
}

function lastSession(configPath: string | undefined): string | undefined {
  try {
    // webcap's own file in the workspace: never through a link, bounded (host/files/safe-read.ts).
    const saved = readJsonSafelySync(callerFile(configPath), { what: 'CLI session memory', maxBytes: 4096 }) as { session?: unknown };
    return typeof saved.session === 'string' ? saved.session : undefined;
  } catch {
    return undefined;
  }
}

interface Verb { name: string; args: string[]; about: string; id: string; params(args: string[], o: Record<string, unknown>): Record<string, unknown>; text(r: Record<string, unknown>): string; extra?: (cmd: Command) => Command }

const VERBS: Verb[] = [
  { name: 'open', args: ['<url>'], about: 'open URL in a new session (web.open); later verbs use it', id: 'web.open', params: ([url]) => ({ url }), text: (r) => `${r.session} ${r.status} ${r.url}\n${r.title ?? ''}` },
  { name: 'snapshot', args: [], about: 'print the page outline with refs (web.snapshot)', id: 'web.snapshot', params: (_a, o) => (o.mode ? { mode: o.mode } : {}), text: (r) => String(r.snapshot), extra: (c) => c.option('--mode <mode>', 'compact | interactive | full') },
  { name: 'click', args: ['<target>'], about: 'click a ref (e12) or selector (web.click)', id: 'web.click', params: ([t]) => target(t), text: (r) => `ok ${r.url ?? ''}` },
  { name: 'fill', args: ['<target>', '<text>'], about: 'set a field\'s value (web.fill)', id: 'web.fill', params: ([t, text]) => ({ ...target(t), text }), text: () => 'ok' },
  { name: 'type', args: ['<target>', '<text>'], about: 'type text key by key (web.type)', id: 'web.type', params: ([t, text]) => ({ ...target(t), text }), text: () => 'ok' },
  { name: 'press', args: ['<keys...>'], about: 'press keys in order, e.g. Enter Tab (web.keypress)', id: 'web.keypress', params: (keys) => ({ keys }), text: () => 'ok' },
  { name: 'extract', args: ['<selector>'], about: 'print matching elements (web.extract)', id: 'web.extract',
    params: ([selector], o) => ({ selector, ...(o.schema ? { schema: parseParams(String(o.schema)) } : {}), ...(o.limit ? { limit: Number(o.limit) } : {}) }),
    text: (r) => (r.items as unknown[]).map((i) => JSON.stringify(i)).join('\n'),
    extra: (c) => c.option('--schema <json>', '{"field":"selector"} for each item').option('--limit <n>', 'at most N items') },
  { name: 'screenshot', args: ['[path]'], about: 'save a screenshot (web.screenshot)', id: 'web.screenshot', params: ([path]) => (path ? { path } : {}), text: (r) => String(r.path) },
  { name: 'close', args: [], about: 'close the session (web.close)', id: 'web.close', params: () => ({}), text: () => 'closed' },
];

export function registerVerbs(program: Command): void {
  for (const verb of VERBS) {
    let cmd = program.command(verb.name).description(verb.about).option('--session <name>', 'session to act in (default: the one this shell opened last)');
    for (const a of verb.args) cmd = cmd.argument(a);
    cmd = verb.extra?.(cmd) ?? cmd;
    cmd.action(async (...all: unknown[]) => {
      const c = all.at(-1) as Command;
      const opts = optionsOf<{ session?: string } & Record<string, unknown>>(c);
      const args = (all.slice(0, verb.args.length) as Array<string | string[]>).flat().filter((a): a is string => typeof a === 'string');
      const session = opts.session ?? (verb.id === 'web.open' ? undefined : lastSession(opts.config));
      // Never fall back to whatever session the daemon last saw: that may be another shell's.
      if (!session && verb.id !== 'web.open') throw new WebcapError('session_not_found', `no session opened from this shell (caller ${callerName()}): run \`webcap open URL\` first, or pass --session NAME`);
      const params = { ...verb.params(args, opts), ...(session ? { session } : {}) };
      const result = (await withExecutor(opts, (x) => x.call(verb.id, params))) as Record<string, unknown>;
      const file = callerFile(opts.config);
      if (verb.id === 'web.open' && typeof result.session === 'string') {
        mkdirSync(join(file, '..'), { recursive: true });
        writeFileSafelySync(file, JSON.stringify({ session: result.session }), { what: 'CLI session memory' });
      }
      if (verb.id === 'web.close' && session === lastSession(opts.config)) rmSync(file, { force: true });
      if (opts.json) printResult(result, true);
      else print(verb.text(result));
    });
  }
}
