// Loads Playwright for the sidecar. Its two 3 MB bundles cost every new
// sidecar a parse and a compile on the cold-start path, so V8's compiled code
// for them is kept in node_modules/.cache/webcap-v8 and handed back next time.
// The cache is made after the bundles have run, so it also holds the functions
// their start-up compiled on the way (a cache made at compile time holds only
// the top level: about 300 ms to load instead of about 220 here). V8 checks a
// cache against the source, its own version and its flags and ignores one that
// does not match (an upgrade costs one slow start, then a new cache is
// written). The cache sits with the code it caches: whoever can write it can
// already rewrite Playwright itself.
import { mkdirSync, readFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { projectRoot } from '../../manifests/load.js';
import { writeFileSafelySync } from '../../manifests/safe-write.js';

interface Compiled { script: Script; cacheFile: string; fresh: boolean }
type Compile = (this: Module, content: string, filename: string) => unknown;

export function loadPlaywright(): typeof import('playwright') {
  const cacheDir = join(projectRoot(), 'node_modules', '.cache', 'webcap-v8');
  const require = createRequire(import.meta.url);
  const proto = Module.prototype as unknown as { _compile: Compile };
  const original = proto._compile;
  const compiled: Compiled[] = [];
  // Only for this one require: Node's own compile step comes back after it
  // (left in place, it would break a later require() of an ES module).
  proto._compile = function compileWithCache(this: Module, content: string, filename: string) {
    if (!/[\\/]node_modules[\\/]playwright(-core)?[\\/]/.test(filename)) return original.call(this, content, filename);
    return runCached(this, content, filename, cacheDir, compiled);
  };
  try {
    return require('playwright') as typeof import('playwright');
  } finally {
    proto._compile = original;
    saveFresh(cacheDir, compiled);
  }
}

function runCached(module: Module, content: string, filename: string, cacheDir: string, compiled: Compiled[]): unknown {
  // Named by its path inside node_modules, so two packages' lib/index.js never share a cache.
  const cacheFile = join(cacheDir, `${filename.slice(filename.lastIndexOf('node_modules') + 13).replace(/[\\/]/g, '+')}.v8`);
  let cachedData: Buffer | undefined;
  try { cachedData = readFileSync(cacheFile); } catch { cachedData = undefined; }
  // No import() loader: the bundles' one import() (kerberos, for Negotiate proxy auth, not installed) fails into
  // its own catch either way, and Node 20's default-loader option prints an experimental warning.
  const script = new Script(Module.wrap(content.replace(/^#!.*/, '')), { filename, cachedData });
  compiled.push({ script, cacheFile, fresh: !cachedData || script.cachedDataRejected === true });
  const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
  const require = createRequire(filename);
  return wrapper.call(module.exports, module.exports, require, module, filename, dirname(filename));
}

/** Writes a cache for each script that had none (or a rejected one), now that its start-up code has run. */
function saveFresh(cacheDir: string, compiled: Compiled[]): void {
  const fresh = compiled.filter((c) => c.fresh);
  if (fresh.length === 0) return;
  try {
    mkdirSync(cacheDir, { recursive: true });
    // A fresh file renamed into place (the one safe writer): another sidecar starting now reads the old cache or the new, whole.
    for (const { script, cacheFile } of fresh) writeFileSafelySync(cacheFile, script.createCachedData(), { what: 'Playwright code cache' });
  } catch {
    // A full disk or a read-only node_modules: the next start compiles again, that is all.
  }
}
