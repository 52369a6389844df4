// Which build of an entry point a new process runs. `npm run build` compiles
// every module (dist/<path>.js) and then bundles the entry points a process
// starts from into dist/bundle/<path>.js (scripts/bundle.ts): one file per
// entry instead of a few hundred modules to resolve, open and link, which is
// most of a process's start. A bundle older than its compiled entry was made
// from older code (tsc rewrites every output on each run), so the compiled
// module runs instead: a `tsc` alone never runs stale code.
import { statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The bundle of `compiled` (an absolute path under `<root>/dist/`) when it is at least as new, else `compiled`. */
export function builtEntry(root: string, compiled: string): string {
  const bundled = join(root, 'dist', 'bundle', relative(join(root, 'dist'), compiled));
  const made = statSync(bundled, { throwIfNoEntry: false })?.mtimeMs;
  const source = statSync(compiled, { throwIfNoEntry: false })?.mtimeMs;
  return made !== undefined && source !== undefined && made >= source ? bundled : compiled;
}
