// `npm run setup`'s last step: compiles the native client (native/webcap-thin.c,
// libc only) with the machine's C compiler, as a native addon would be built.
// Optional: with no compiler, or a compile that fails, one line says so and
// bin/webcap runs the Node CLI for every command, as before.
import { spawnSync } from 'node:child_process';
import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../manifests/load.js';

const dir = join(projectRoot(), 'native');
const out = join(dir, 'webcap-thin');
const cc = process.env.CC || 'cc';
// Built to a temporary name and renamed: a half-written binary is never the one bin/webcap runs.
const tmp = `${out}.${process.pid}.tmp`;
const built = spawnSync(cc, ['-std=c99', '-O2', '-o', tmp, join(dir, 'webcap-thin.c')], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
if (built.error || built.status !== 0) {
  rmSync(tmp, { force: true });
  // An older build must not outlive its source: without a fresh one, bin/webcap runs the Node CLI.
  rmSync(out, { force: true });
  const why = built.error ? `${cc} not found` : (built.stderr.trim().split('\n')[0] || `${cc} failed`);
  console.log(`setup: native client not built (${why}); webcap verbs run through Node`);
} else {
  renameSync(tmp, out);
  console.log('setup: native client built (native/webcap-thin)');
}
