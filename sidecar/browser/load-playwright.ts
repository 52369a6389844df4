// Loads Playwright for the sidecar. Its two 3 MB bundles cost every new
// sidecar a parse on the cold-start path; v8-compile-cache-lib keeps V8's
// compiled code for them in node_modules/.cache/webcap-v8 and hands it back
// next time (V8 checks it against the source and its own version, so an
// upgrade costs one slow start). The hook stays on for this one require only:
// it replaces Node's CommonJS compile step, which would break a later
// require() of an ES module.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { projectRoot } from '../../manifests/load.js';

type CompileCache = typeof import('v8-compile-cache-lib');

export function loadPlaywright(): typeof import('playwright') {
  const require = createRequire(import.meta.url);
  const cacheDir = join(projectRoot(), 'node_modules', '.cache', 'webcap-v8');
  const cache = (require('v8-compile-cache-lib') as CompileCache).install({ cacheDir, prefix: 'playwright' });
  try {
    return require('playwright') as typeof import('playwright');
  } finally {
    try {
      cache?.uninstall(); // saves what was compiled, if anything was new
    } catch {
      // A full disk or a read-only node_modules: the next start parses again, that is all.
    }
  }
}
