// Reads a verb's command line for the thin client, strictly: the program's
// options (--config, --json, -y/--yes), the verb's own (--session and those in
// the verb table), and exactly the arguments the verb takes. Anything else
// (--help, --no-daemon, an unknown option, a missing or extra argument, `--`)
// returns undefined and the full CLI parses it, with commander's messages.
import { SESSION_OPTION, VerbInputError, VERBS, type Verb } from './verb-table.js';

export interface ParsedVerb {
  verb: Verb;
  args: string[];
  options: Record<string, string>;
  session?: string;
  config?: string;
  json: boolean;
  yes: boolean;
}

const byName = new Map(VERBS.map((v) => [v.name, v]));

export function parseVerb(argv: string[]): ParsedVerb | undefined {
  let verb: Verb | undefined;
  const positional: string[] = [];
  const valued: Record<string, string> = {};
  let json = false;
  let yes = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') json = true;
    else if (a === '-y' || a === '--yes') yes = true;
    else if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      const flag = eq > 0 ? a.slice(2, eq) : a.slice(2);
      // Which flags take a value depends on the verb, which may come later: only the program's and --session are known up front.
      const known = flag === 'config' || flag === SESSION_OPTION.flag || VERBS.some((v) => v.options?.some((o) => o.flag === flag));
      if (!known || flag in valued) return undefined;
      const value = eq > 0 ? a.slice(eq + 1) : argv[++i];
      if (value === undefined) return undefined;
      valued[flag] = value;
    } else if (a.startsWith('-')) return undefined;
    else if (!verb) {
      verb = byName.get(a);
      if (!verb) return undefined;
    } else positional.push(a);
  }
  if (!verb) return undefined;
  const { config, session, ...options } = valued;
  if (Object.keys(options).some((flag) => !verb!.options?.some((o) => o.flag === flag))) return undefined;
  if (!fits(verb, positional.length)) return undefined;
  return { verb, args: positional, options, session, config, json, yes };
}

function fits(verb: Verb, count: number): boolean {
  const required = verb.args.filter((a) => a.startsWith('<')).length;
  const variadic = verb.args.some((a) => a.endsWith('...>') || a.endsWith('...]'));
  return count >= required && (variadic || count <= verb.args.length);
}

/** The capability's params, --session included; undefined when an argument cannot become params (the full CLI reports it, worded as always). */
export function verbParams(verb: ParsedVerb): Record<string, unknown> | undefined {
  try {
    return { ...verb.verb.params(verb.args, verb.options), ...(verb.session ? { session: verb.session } : {}) };
  } catch (err) {
    if (err instanceof VerbInputError) return undefined;
    throw err;
  }
}
