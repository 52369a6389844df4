#!/usr/bin/env node
// `npm run setup`: install exactly the locked dependencies, build, and make
// sure a Chromium (and, for the shared store, a redis-server) is there. Quick
// the second time: npm ci is skipped while package-lock.json is unchanged
// since the last successful install.
import { execSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

const run = (cmd) => execSync(cmd, { stdio: 'inherit', env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' } });
const lockHash = createHash('sha256').update(readFileSync('package-lock.json')).digest('hex');
const stamp = 'node_modules/.webcap-lock-sha256';

if (existsSync(stamp) && readFileSync(stamp, 'utf8') === lockHash) {
  console.log('setup: dependencies already installed (package-lock.json unchanged)');
} else {
  try {
    run('npm ci --no-audit --no-fund');
  } catch {
    console.error('setup failed: npm ci could not install the locked dependencies (see npm output above)');
    process.exit(1);
  }
  writeFileSync(stamp, lockHash);
}
try {
  // The build `npm test` makes (the product and the type-checked tests, tsconfig.test-build.json): its
  // record (dist/tests.tsbuildinfo) lets `npm test` right after setup skip a second full compile (~1 s
  // instead of ~50). tsc -b trusts that record, not the files: remove dist/ as a whole, not parts of it.
  run('npx tsc -b tsconfig.test-build.json');
  run('node dist/scripts/bundle.js');
  run('node dist/scripts/ensure-chromium.js');
  run('node dist/scripts/ensure-redis.js');
} catch (err) {
  // The failing command already printed why; one line says which step it was.
  console.error(`setup failed: ${err.cmd ?? err.message}`);
  process.exit(1);
}
// The native client for verbs is optional: without a C compiler the Node CLI answers every command.
try {
  run('node dist/scripts/build-native.js');
} catch {
  console.log('setup: native client not built; webcap verbs run through Node');
}
