#!/usr/bin/env node
// The CLI runs from the compiled build (npm run setup / npm run build).
import { existsSync } from 'node:fs';
const entry = new URL('../dist/host/cli.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('error: internal: webcap is not built; run `npm run setup` (or `npm run build`)\n');
  process.exit(1);
}
await import(entry.href);
