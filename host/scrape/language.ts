// The page's language: what the page declares (html lang, Content-Language,
// meta http-equiv, og:locale, in that order), else a guess from the text's
// most frequent function words, else "und" (BCP 47 for undetermined).
const STOPWORDS: Record<string, string[]> = {
  en: ['the', 'and', 'of', 'to', 'is', 'in', 'that', 'it', 'for', 'with', 'was', 'on', 'are', 'this', 'be', 'as', 'by', 'not', 'have', 'from'],
  fr: ['le', 'la', 'les', 'et', 'des', 'est', 'une', 'du', 'que', 'dans', 'pour', 'qui', 'pas', 'sur', 'au', 'avec', 'ce', 'sont', 'nous', 'mais'],
  de: ['der', 'die', 'und', 'das', 'ist', 'nicht', 'mit', 'den', 'ein', 'eine', 'zu', 'auf', 'sich', 'auch', 'dem', 'für', 'wir', 'von', 'sie', 'werden'],
  es: ['el', 'la', 'los', 'las', 'y', 'que', 'es', 'en', 'por', 'con', 'para', 'una', 'del', 'se', 'no', 'como', 'más', 'pero', 'sus', 'fue'],
  it: ['il', 'di', 'che', 'è', 'la', 'per', 'non', 'una', 'sono', 'gli', 'con', 'del', 'della', 'anche', 'come', 'più', 'nel', 'alla', 'ma', 'questo'],
  nl: ['de', 'het', 'een', 'en', 'van', 'is', 'niet', 'dat', 'op', 'te', 'zijn', 'met', 'voor', 'ook', 'aan', 'maar', 'wordt', 'bij', 'dit', 'naar'],
  pt: ['o', 'os', 'as', 'um', 'uma', 'não', 'que', 'do', 'da', 'em', 'para', 'com', 'por', 'mais', 'dos', 'das', 'se', 'foi', 'mas', 'ao'],
};
const LOOKUP = new Map<string, string[]>();
for (const [lang, words] of Object.entries(STOPWORDS)) for (const w of words) LOOKUP.set(w, [...(LOOKUP.get(w) ?? []), lang]);

/** Is this (lower-case) word one of the function words of a language listed here? Prose is full of them, menus are not. */
export const isFunctionWord = (word: string): boolean => LOOKUP.has(word);

export interface DeclaredLanguage { html_lang?: string | null; content_language?: string; meta?: string; og_locale?: string }
type LanguageSource = 'html_lang' | 'content_language' | 'meta' | 'og_locale' | 'detected' | 'none';

/** "en_us" → "en-US", "zh-hant-tw" → "zh-Hant-TW"; the first tag of a list; null when it is not a language tag. */
export function normaliseTag(raw: string | null | undefined): string | null {
  const first = raw?.split(',')[0].trim().replace(/_/g, '-');
  if (!first || !/^[a-z]{2,3}(-[a-z0-9]{2,8})*$/i.test(first)) return null;
  return first.split('-').map((part, i) => {
    if (i === 0) return part.toLowerCase();
    if (part.length === 2) return part.toUpperCase();
    if (part.length === 4) return part[0].toUpperCase() + part.slice(1).toLowerCase();
    return part.toLowerCase();
  }).join('-');
}

export function detectLanguage(text: string): string | null {
  const counts = new Map<string, number>();
  const words = text.toLowerCase().match(/\p{L}+/gu)?.slice(0, 3000) ?? [];
  for (const w of words) for (const lang of LOOKUP.get(w) ?? []) counts.set(lang, (counts.get(lang) ?? 0) + 1);
  const [best, second] = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  // Too few hits, or two languages nearly tied: better "und" than a wrong answer.
  if (!best || best[1] < 5 || (second && best[1] < second[1] * 1.5)) return null;
  return best[0];
}

export function pageLanguage(declared: DeclaredLanguage, text: string): { language: string; source: LanguageSource } {
  const order: Array<[LanguageSource, string | null | undefined]> = [
    ['html_lang', declared.html_lang], ['content_language', declared.content_language], ['meta', declared.meta], ['og_locale', declared.og_locale],
  ];
  for (const [source, raw] of order) {
    const tag = normaliseTag(raw);
    if (tag) return { language: tag, source };
  }
  const guess = detectLanguage(text);
  return guess ? { language: guess, source: 'detected' } : { language: 'und', source: 'none' };
}
