// The layers of docs/architecture.md, checked on every import: host/ and
// sidecar/ never import each other, and the shared code in manifests/ imports
// neither (type-only imports included: they couple the two sides just the same).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, it } from 'vitest';

const sources = (dir: string): string[] => readdirSync(dir).flatMap((name) => {
  const path = join(dir, name);
  return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
});

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;
const layerOf = (file: string) => relative(resolve('.'), file).split('/')[0];
const FORBIDDEN: Record<string, string[]> = { host: ['sidecar'], sidecar: ['host'], manifests: ['host', 'sidecar'] };

it('host and sidecar never import each other; manifests imports neither', () => {
  const crossings: string[] = [];
  for (const layer of Object.keys(FORBIDDEN)) {
    for (const file of sources(layer)) {
      for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const target = layerOf(resolve(dirname(file), m[1] ?? m[2]));
        if (FORBIDDEN[layer].includes(target)) crossings.push(`${file} imports ${m[1] ?? m[2]}`);
      }
    }
  }
  expect(sources('host').length).toBeGreaterThan(50); // the scan sees the tree
  expect(crossings).toEqual([]);
});
