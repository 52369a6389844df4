// Imports the newspaper library's regression pages as an unseen token-F1 set:
// tests/data/html/<name>.html is the page, tests/data/text/<name>.txt the
// article text newspaper's own tests expect from it. Writes
// bench/corpus/newspaper/<name>/source.html (the bytes unchanged) and
// expected.html (one escaped <p> per blank-line-separated paragraph).
// English article pages only: the language samples, pages without a text,
// and texts under MIN_WORDS words are left out, each with its reason printed.
// `node dist/bench/newspaper-import.js <directory holding tests/data>`
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../manifests/load.js';
import { escapeHtml } from '../host/report/html-printer.js';

const MIN_WORDS = 50;
// Share of a text's words that are common English function words; English prose sits near 0.4.
const MIN_ENGLISH_SHARE = 0.2;
const ENGLISH = new Set('the of and to a in is it that for was on are with as be at by this have from or an but not they his her he she we you i their which has were been'.split(' '));
// newspaper's own test reads cnn_article.html against cnn.txt; every other page shares its text's name.
const TEXT_NAME: Record<string, string> = { cnn_article: 'cnn' };
// Samples of other languages, named by their language rather than their site.
const LANGUAGE_SAMPLE = /^(arabic|chinese|japanese|thai|spanish)_article\d*$/;

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];

/** The expected text as an HTML fragment: paragraphs split on blank lines, each escaped. */
export function expectedFragment(text: string): string {
  return text.replace(/\r\n?/g, '\n').split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean).map((p) => `<p>${escapeHtml(p)}</p>`).join('\n') + '\n';
}

export function importNewspaper(source: string, target = join(projectRoot(), 'bench', 'corpus', 'newspaper')): { kept: number; skipped: string[] } {
  const htmlDir = join(source, 'tests', 'data', 'html');
  const textDir = join(source, 'tests', 'data', 'text');
  rmSync(target, { recursive: true, force: true });
  const skipped: string[] = [];
  let kept = 0;
  for (const file of readdirSync(htmlDir).filter((f) => f.endsWith('.html')).sort()) {
    const name = file.slice(0, -'.html'.length);
    const textFile = join(textDir, `${TEXT_NAME[name] ?? name}.txt`);
    if (LANGUAGE_SAMPLE.test(name)) { skipped.push(`${name}: a language sample`); continue; }
    if (!existsSync(textFile)) { skipped.push(`${name}: no expected text`); continue; }
    const text = readFileSync(textFile, 'utf8');
    const w = words(text);
    if (w.length < MIN_WORDS) { skipped.push(`${name}: expected text of ${w.length} words`); continue; }
    const share = w.filter((x) => ENGLISH.has(x)).length / w.length;
    if (share < MIN_ENGLISH_SHARE) { skipped.push(`${name}: not English prose (${share.toFixed(2)} of its words are English function words)`); continue; }
    const dir = join(target, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'source.html'), readFileSync(join(htmlDir, file)));
    writeFileSync(join(dir, 'expected.html'), expectedFragment(text));
    kept++;
  }
  return { kept, skipped };
}

if (process.argv[1]?.endsWith('newspaper-import.js')) {
  const source = process.argv[2];
  if (!source) throw new Error('usage: node dist/bench/newspaper-import.js <directory holding tests/data/html and tests/data/text>');
  const { kept, skipped } = importNewspaper(source);
  process.stdout.write(`kept ${kept} pages\nleft out ${skipped.length}:\n${skipped.map((s) => `- ${s}`).join('\n')}\n`);
}
