// The short verbs (`webcap open URL`, `webcap click e12`…), one row each: the
// web.* capability it calls, its arguments, its options, and how its answer
// prints as text. Read by the thin client (host/cli/thin-client.ts, which must
// load nothing but node builtins) and by the full CLI (host/cli/verbs.ts), so
// both parse and print a verb the same way. Imports nothing on purpose.

interface VerbOption { flag: string; value: string; about: string }

export interface Verb {
  name: string;
  /** Commander's spelling: <one>, [optional], <many...>. */
  args: string[];
  about: string;
  id: string;
  options?: VerbOption[];
  /** The capability's params from the verb's arguments and options (throws VerbInputError on bad input). */
  params(args: string[], o: Record<string, unknown>): Record<string, unknown>;
  text(r: Record<string, unknown>): string;
}

/** A verb's argument or option that cannot become params (the CLI reports it as invalid_params). */
export class VerbInputError extends Error {}

const SNAPSHOT_REF = /^(f\d+)?e\d+$|^wa-\d+$/;

/** e12 / f1e3 / wa-7 is a ref; anything else a selector. */
const target = (it: string) => (SNAPSHOT_REF.test(it) ? { ref: it } : { selector: it });

function json(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch (err) {
    throw new VerbInputError(`--schema is not valid JSON: ${(err as Error).message}`);
  }
}

export const VERBS: Verb[] = [
  { name: 'open', args: ['<url>'], about: 'open URL in a new session (web.open); later verbs use it', id: 'web.open', params: ([url]) => ({ url }), text: (r) => `${r.session} ${r.status} ${r.url}\n${r.title ?? ''}` },
  { name: 'snapshot', args: [], about: 'print the page outline with refs (web.snapshot)', id: 'web.snapshot',
    options: [{ flag: 'mode', value: '<mode>', about: 'compact | interactive | full' }],
    params: (_a, o) => (o.mode ? { mode: o.mode } : {}), text: (r) => String(r.snapshot) },
  { name: 'click', args: ['<target>'], about: 'click a ref (e12) or selector (web.click)', id: 'web.click', params: ([t]) => target(t), text: (r) => `ok ${r.url ?? ''}` },
  { name: 'fill', args: ['<target>', '<text>'], about: 'set a field\'s value (web.fill)', id: 'web.fill', params: ([t, text]) => ({ ...target(t), text }), text: () => 'ok' },
  { name: 'type', args: ['<target>', '<text>'], about: 'type text key by key (web.type)', id: 'web.type', params: ([t, text]) => ({ ...target(t), text }), text: () => 'ok' },
  { name: 'press', args: ['<keys...>'], about: 'press keys in order, e.g. Enter Tab (web.keypress)', id: 'web.keypress', params: (keys) => ({ keys }), text: () => 'ok' },
  { name: 'extract', args: ['<selector>'], about: 'print matching elements (web.extract)', id: 'web.extract',
    options: [{ flag: 'schema', value: '<json>', about: '{"field":"selector"} for each item' }, { flag: 'limit', value: '<n>', about: 'at most N items' }],
    params: ([selector], o) => ({ selector, ...(o.schema ? { schema: json(String(o.schema)) } : {}), ...(o.limit ? { limit: Number(o.limit) } : {}) }),
    text: (r) => (r.items as unknown[]).map((i) => JSON.stringify(i)).join('\n') },
  { name: 'screenshot', args: ['[path]'], about: 'save a screenshot (web.screenshot)', id: 'web.screenshot', params: ([path]) => (path ? { path } : {}), text: (r) => String(r.path) },
  { name: 'close', args: [], about: 'close the session (web.close)', id: 'web.close', params: () => ({}), text: () => 'closed' },
];

export const SESSION_OPTION: VerbOption = { flag: 'session', value: '<name>', about: 'session to act in (default: the one this shell opened last)' };

/** The message when a verb without --session finds no session of this caller's. */
export const noSessionMessage = (caller: string) => `no session opened from this shell (caller ${caller}): run \`webcap open URL\` first, or pass --session NAME`;
