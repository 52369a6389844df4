#!/usr/bin/env node
// The CLI runs from the build (npm run setup / npm run build): its bundle when current, else the compiled modules.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
// `--version` alone answers from package.json without loading the host (an agent may call it to probe).
if (process.argv.length === 3 && (process.argv[2] === '--version' || process.argv[2] === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
  process.exit(0);
}
const root = fileURLToPath(new URL('..', import.meta.url));
if (!existsSync(new URL('../dist/host/cli.js', import.meta.url))) {
  process.stderr.write('error: internal: webcap is not built; run `npm run setup` (or `npm run build`)\n');
  process.exit(1);
}
// The bundled build when it is current (manifests/built-entry.ts), else the compiled modules; one choice for
// every module below, so the early sidecar handed over by one is the one the other adopts.
const { builtEntry } = await import(new URL('../dist/manifests/built-entry.js', import.meta.url).href);
const cli = builtEntry(root, join(root, 'dist', 'host', 'cli.js'));
const built = (path) => pathToFileURL(join(dirname(cli), path)).href;
const entry = pathToFileURL(cli);
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
  const sidecar = process.env.WEBCAP_SIDECAR_ENTRY || builtEntry(root, join(root, 'dist', 'sidecar', 'main.js'));
  if (existsSync(sidecar)) {
    const early = await import(built('sidecar-link/early-sidecar.js'));
    early.spawnEarlySidecar(sidecar);
    // Config and site profiles only (not the whole host): Chromium launches while the host loads.
    const init = (await import(built('sidecar-link/early-init.js'))).earlyInit(args.slice(1));
    if (init) early.sendEarlyInit(init);
  }
  // Its plain forms skip the command parser and the other commands' modules (host/cli/mcp-direct.ts).
  handled = await (await import(built('cli/mcp-direct.js'))).runMcpDirect(args.slice(1));
}
if (!handled) await import(entry.href);
