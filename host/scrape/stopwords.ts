// The stopword list of a page's language, for the jusText reading (justext.ts):
// the `stopword` package's lists (62 languages, keyed by ISO 639-3 codes).
// The list is the declared language's (html lang, Content-Language, …) when
// the package has one, else the list whose words the page's text uses most.
// Loaded on first use, so a pipeline that never asks for it pays nothing.
import { createRequire } from 'node:module';

type Lists = Record<string, unknown>;
let lists: Map<string, Set<string>> | undefined;
let owners: Map<string, string[]> | undefined;

// Two-letter language tags (ISO 639-1) to the package's list names (ISO 639-3; panGu is Punjabi in Gurmukhi).
const ISO1: Record<string, string> = {
  af: 'afr', ar: 'ara', bn: 'ben', br: 'bre', bg: 'bul', ca: 'cat', cs: 'ces', da: 'dan', de: 'deu', el: 'ell', en: 'eng', eo: 'epo',
  et: 'est', eu: 'eus', fa: 'fas', fi: 'fin', fr: 'fra', ga: 'gle', gl: 'glg', gu: 'guj', ha: 'hau', he: 'heb', hi: 'hin', hr: 'hrv',
  hu: 'hun', hy: 'hye', id: 'ind', it: 'ita', ja: 'jpn', ko: 'kor', ku: 'kur', la: 'lat', lv: 'lav', lt: 'lit', mr: 'mar', ms: 'msa',
  my: 'mya', nl: 'nld', nb: 'nob', no: 'nob', pa: 'panGu', pl: 'pol', pt: 'por', ro: 'ron', ru: 'rus', sk: 'slk', sl: 'slv', so: 'som',
  st: 'sot', es: 'spa', sw: 'swa', sv: 'swe', tl: 'tgl', th: 'tha', tr: 'tur', uk: 'ukr', ur: 'urd', vi: 'vie', yo: 'yor', zh: 'zho', zu: 'zul',
};
// How many of the text's words the language guess reads.
const SAMPLE_WORDS = 3000;
// The guessed list must hold at least this share of the sampled words: below it, no list fits the page.
const GUESS_SHARE = 0.15;

function load(): Map<string, Set<string>> {
  if (lists) return lists;
  const pkg = createRequire(import.meta.url)('stopword') as Lists;
  lists = new Map();
  owners = new Map();
  for (const code of new Set(Object.values(ISO1))) {
    const words = pkg[code];
    if (!Array.isArray(words)) continue;
    const set = new Set(words.map((w) => String(w).toLowerCase()));
    lists.set(code, set);
    for (const w of set) owners.set(w, [...(owners.get(w) ?? []), code]);
  }
  return lists;
}

/** The stopword list for a page: its declared language's (a BCP 47 tag), else the best fit to its text; undefined when none fits. */
export function stopwordsFor(tag: string | null | undefined, text: string): Set<string> | undefined {
  const all = load();
  const declared = tag ? all.get(ISO1[tag.slice(0, 2).toLowerCase()] ?? '') : undefined;
  if (declared) return declared;
  const words = text.toLowerCase().match(/\p{L}+/gu)?.slice(0, SAMPLE_WORDS) ?? [];
  const counts = new Map<string, number>();
  for (const w of words) for (const code of owners!.get(w) ?? []) counts.set(code, (counts.get(code) ?? 0) + 1);
  const [best] = [...counts].sort((a, b) => b[1] - a[1]);
  return best && best[1] >= words.length * GUESS_SHARE ? all.get(best[0]) : undefined;
}
