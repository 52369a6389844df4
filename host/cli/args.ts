// A tiny argv reader: positional words, --flag, --key value, repeated --input k=v.
export interface Args { positional: string[]; flags: Set<string>; options: Map<string, string[]> }

const VALUED = new Set(['--config', '--input', '--file', '--http', '--token-env', '--expect-head', '--public-key', '-o', '--plan-id', '--session']);

export function parseArgs(argv: string[]): Args {
  const args: Args = { positional: [], flags: new Set(), options: new Map() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (VALUED.has(a)) {
      const list = args.options.get(a) ?? [];
      list.push(argv[++i] ?? '');
      args.options.set(a, list);
    } else if (a.startsWith('--')) args.flags.add(a);
    else args.positional.push(a);
  }
  return args;
}

export function option(args: Args, name: string): string | undefined {
  return args.options.get(name)?.at(-1);
}
