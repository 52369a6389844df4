// Every corpus page belongs to one half, fixed by a hash of its name
// ("<set>/<page>"): "development" pages are the only ones rules may be tuned
// on; "held-out" pages only measure. The split is also written out as
// bench/corpus/split.json (npm run bench:split) so a change of hash or of
// page names shows in review; the bench checks the two agree.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../manifests/load.js';

export type Half = 'development' | 'held-out';

/** The half of a page: the low bit of the first byte of sha256("<set>/<page>"). */
export function halfOf(name: string): Half {
  return (createHash('sha256').update(name).digest()[0] & 1) === 0 ? 'development' : 'held-out';
}

export const SPLIT_FILE = join(projectRoot(), 'bench', 'corpus', 'split.json');

export function splitList(names: string[]): Record<Half, string[]> {
  const sorted = [...names].sort();
  return { development: sorted.filter((n) => halfOf(n) === 'development'), 'held-out': sorted.filter((n) => halfOf(n) === 'held-out') };
}

/** The committed list; throws when it disagrees with the hash, so a drifted split cannot go unnoticed. */
export function checkedSplit(names: string[]): Record<Half, string[]> {
  const fresh = splitList(names);
  if (!existsSync(SPLIT_FILE)) throw new Error(`${SPLIT_FILE} is missing: run npm run bench:split`);
  const committed = JSON.parse(readFileSync(SPLIT_FILE, 'utf8')) as Record<Half, string[]>;
  if (JSON.stringify(committed) !== JSON.stringify(fresh)) throw new Error(`${SPLIT_FILE} disagrees with the hash split of bench/corpus: run npm run bench:split and review the change`);
  return committed;
}

export function writeSplit(names: string[]): void {
  writeFileSync(SPLIT_FILE, JSON.stringify(splitList(names), null, 1) + '\n');
}
