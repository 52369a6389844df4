// The last step of `npm run build`: bundles the entry points a process starts
// from (the CLI and `webcap mcp`'s fast path, and the sidecar) into
// dist/bundle/, so a new process loads a few files instead of a few hundred
// modules (manifests/built-entry.ts says which build runs). The sidecar is one file of
// its own, so its attestation hashes exactly the code it runs. Written to a
// temporary folder and renamed: a process never starts from a half-written bundle.
import { renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'rolldown';
import { projectRoot } from '../manifests/load.js';

const dist = join(projectRoot(), 'dist');
const target = join(dist, 'bundle');
const tmp = `${target}.${process.pid}.tmp`;
// The thin client for verbs stays compiled: it loads a handful of modules, none of the host's.
const HOST_ENTRIES = ['host/cli', 'host/cli/mcp-direct', 'host/sidecar-link/early-sidecar', 'host/sidecar-link/early-init'];
// Packages every start loads go into the bundle too: the ES-module ones of many small files, and the
// JSON-RPC, glob and address ones (loaded from node_modules, through Node's CommonJS interop, they cost a
// sidecar start ~0.1 s of CPU more). Playwright, ajv, pino and the packages loaded on first use stay outside.
const INLINE = [
  'zod', 'zod-to-json-schema', '@modelcontextprotocol/sdk', 'smol-toml', 'eventsource-parser', 'pkce-challenge',
  'vscode-jsonrpc', 'micromatch', 'braces', 'picomatch', 'fill-range', 'to-regex-range', 'is-number', 'ipaddr.js',
];
const packageOf = (id: string) => id.split('/').slice(0, id.startsWith('@') ? 2 : 1).join('/');
const isExternal = (id: string) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0') && !INLINE.includes(packageOf(id));

/** `oneFile`: no shared chunks, every dynamic import inlined (the sidecar: its attestation hashes its folder). */
async function bundle(entries: string[], oneFile: boolean): Promise<void> {
  await build({
    input: Object.fromEntries(entries.map((e) => [e, join(dist, `${e}.js`)])),
    platform: 'node',
    external: isExternal,
    logLevel: 'warn',
    output: { dir: tmp, format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'host/chunks/[name]-[hash].js', codeSplitting: !oneFile },
  });
}

try {
  await bundle(HOST_ENTRIES, false);
  await bundle(['sidecar/main'], true);
  rmSync(target, { recursive: true, force: true });
  renameSync(tmp, target);
} catch (err) {
  rmSync(tmp, { recursive: true, force: true });
  // Without a bundle every process runs the compiled modules: slower to start, the same code.
  rmSync(target, { recursive: true, force: true });
  throw err;
}
