// Lists exported names that no other file uses: candidates to un-export.
// `node scripts/local-exports.mjs` prints file:name per line. A name counts
// as used when another source file (host, sidecar, manifests, bench, tests, bin,
// scripts, demo-sites) mentions it as a word; the generated capability types
// are the library's public types and are left out.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOTS = ['host', 'sidecar', 'manifests', 'bench', 'tests', 'scripts', 'demo-sites', 'examples', 'bin'];
const SKIP = new Set(['manifests/types.generated.ts']);
const sources = (dir) => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name);
  if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : sources(path);
  return /\.(ts|mjs|js)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
});

const files = ROOTS.flatMap((r) => { try { return sources(r); } catch { return []; } });
const text = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));
const DECLARED = /^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:function\*?|const|let|var|class|abstract\s+class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm;
const words = new Map();
const wordsOf = (f) => {
  if (!words.has(f)) words.set(f, new Set(text.get(f).match(/[A-Za-z_$][\w$]*/g) ?? []));
  return words.get(f);
};

const local = [];
for (const file of files) {
  if (SKIP.has(file) || !/^(host|sidecar|manifests)\//.test(file)) continue;
  for (const [, name] of text.get(file).matchAll(DECLARED)) {
    if (!files.some((other) => other !== file && wordsOf(other).has(name))) local.push(`${file}:${name}`);
  }
}
console.log(local.join('\n'));
console.error(`${local.length} exported names used only in their own file`);
