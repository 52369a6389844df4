// When both readings of a page exist (plain HTTP and the rendered DOM), which
// one the caller gets. The rule is measurable and quoted in render.reason:
// the rendered reading replaces the HTTP one only when it adds words (at least
// ADDS more) and keeps what HTTP had (at least KEEPS of the HTTP words are in
// it) when HTTP had an article's worth of words. A render of a page whose scripts or resources are gone, or that shows
// a different page (an error, a consent wall), fails one of the two and the
// HTTP reading stays.
import { THIN_ARTICLE_WORDS } from './app-shell.js';
import type { ScrapedContent } from './types.js';
import { wordCover, wordsOf } from './text.js';

const ADDS = 1.1;
const KEEPS = 0.8;

export interface Pick { keep: 'http' | 'browser'; why: string }

/** Share of the HTTP reading's words (as a multiset) found in the rendered reading. */
export function kept(httpText: string, renderedText: string): number {
  return wordsOf(httpText).length === 0 ? 1 : wordCover(renderedText)(httpText);
}

export function betterReading(overHttp: ScrapedContent, viaBrowser: ScrapedContent): Pick {
  const [h, b] = [overHttp.word_count, viaBrowser.word_count];
  const share = kept(overHttp.content_text, viaBrowser.content_text);
  const counts = `rendered ${b} words, HTTP ${h}; rendered keeps ${share.toFixed(2)} of the HTTP words`;
  const keepsEnough = h < THIN_ARTICLE_WORDS || share >= KEEPS;
  if (b >= h * ADDS && b > h && keepsEnough) return { keep: 'browser', why: `kept the rendered reading (${counts}: ≥ ${ADDS}× the words and ≥ ${KEEPS} kept)` };
  return { keep: 'http', why: `kept the HTTP reading (${counts}: the rendered one must have ≥ ${ADDS}× the words and keep ≥ ${KEEPS})` };
}
