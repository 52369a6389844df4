// The reference pages are generated from the code (scripts/gen-reference.ts);
// a page that no longer matches the schema or the commands fails here. And no
// page or comment points at something a reader of this repository cannot open.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configKeys, REFERENCE_PAGES } from '../../scripts/gen-reference.js';
import { CONFIG_DESCRIPTIONS } from '../../host/config/descriptions.js';

it('every config key says what it does, and every sentence belongs to a key', () => {
  const keys = configKeys();
  expect(keys.length).toBeGreaterThan(50);
  expect(keys.filter((k) => !CONFIG_DESCRIPTIONS[k])).toEqual([]);
  expect(Object.keys(CONFIG_DESCRIPTIONS).filter((k) => !keys.includes(k))).toEqual([]);
});

describe('generated reference pages', () => {
  for (const [path, make] of Object.entries(REFERENCE_PAGES)) {
    it(`${path} is up to date (npm run docs)`, () => {
      expect(readFileSync(path, 'utf8')).toBe(make());
    });
  }
});

const OUTSIDE_REFERENCE = /\bissue \d+|\bseeds? (\d|§)|\bseed's\b|\(seed \d|DESIGN\.md|\.\.\/shared\//i;

function filesUnder(dir: string, exts: RegExp): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'dist' || name === 'corpus' || name === 'pages' ? [] : filesUnder(path, exts);
    return exts.test(name) ? [path] : [];
  });
}

it('no page or source comment refers to issue numbers, seed sections or files outside the repository', () => {
  const files = [
    'README.md',
    ...filesUnder('docs', /\.md$/),
    ...['host', 'sidecar', 'manifests', 'scripts', 'bench', 'tests', 'demo-sites', 'examples', 'site-profiles'].flatMap((d) => filesUnder(d, /\.(ts|mjs|json|rtfs|toml)$/)),
  ].filter((f) => f !== join('tests', 'unit', 'docs-reference.test.ts'));
  const offending = files.flatMap((f) => readFileSync(f, 'utf8').split('\n')
    .map((line, i) => (OUTSIDE_REFERENCE.test(line) ? `${f}:${i + 1}: ${line.trim().slice(0, 100)}` : ''))
    .filter(Boolean));
  expect(offending).toEqual([]);
});
