#!/usr/bin/env node
// The CLI runs from the compiled build (npm run setup / npm run build).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
// `--version` alone answers from package.json without loading the host (an agent may call it to probe).
if (process.argv.length === 3 && (process.argv[2] === '--version' || process.argv[2] === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
  process.exit(0);
}
const entry = new URL('../dist/host/cli.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('error: internal: webcap is not built; run `npm run setup` (or `npm run build`)\n');
  process.exit(1);
}
const args = process.argv.slice(2);
// A short verb (`webcap click e12`) against a warm daemon is answered by the thin client, which loads no host;
// it hands back (having sent nothing) whenever the full CLI must answer.
let handled = false;
const word = args.find((a, i) => !a.startsWith('-') && args[i - 1] !== '--config');
if (word && ['open', 'snapshot', 'click', 'fill', 'type', 'press', 'extract', 'screenshot', 'close'].includes(word)) {
  const thin = await import(new URL('../dist/host/cli/thin-client.js', import.meta.url).href);
  handled = await thin.runThinVerb(args);
}
// `webcap mcp` (stdio) exists to drive a browser: its sidecar boots while the host's modules load (host/sidecar-link/early-sidecar.ts).
if (args[0] === 'mcp' && !args.some((a) => a === '--http' || a.startsWith('--http=') || a === '--help' || a === '-h')) {
  const sidecar = process.env.WEBCAP_SIDECAR_ENTRY || fileURLToPath(new URL('../dist/sidecar/main.js', import.meta.url));
  if (existsSync(sidecar)) {
    const early = await import(new URL('../dist/host/sidecar-link/early-sidecar.js', import.meta.url).href);
    early.spawnEarlySidecar(sidecar);
    // Config and site profiles only (not the whole host): Chromium launches while the host loads.
    const init = (await import(new URL('../dist/host/sidecar-link/early-init.js', import.meta.url).href)).earlyInit(args.slice(1));
    if (init) early.sendEarlyInit(init);
  }
  // Its plain forms skip the command parser and the other commands' modules (host/cli/mcp-direct.ts).
  const direct = new URL('../dist/host/cli/mcp-direct.js', import.meta.url);
  if (existsSync(direct)) handled = await (await import(direct.href)).runMcpDirect(args.slice(1));
}
if (!handled) await import(entry.href);
