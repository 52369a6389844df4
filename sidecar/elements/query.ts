// The `query` of web.query_elements, read deterministically (no model):
//   "quoted text"           the element's text or label must contain it
//   link / button / field / dropdown / checkbox / radio   kinds of element
//   next / previous         pagination arrows (rel=next, "Next ›", "下一页" …)
//   3rd, third, last, …     the Nth match (document order)
//   page 3, 3rd page        the pagination control labelled 3 ("last page": the last one)
//   other words             keywords: elements matching the most of them win
// `interpretation` says how the query was read, so a surprising answer can be
// traced to a word.
import type { ElementInfo } from './collect.js';
import { labelOf } from './filters.js';

const ORDINAL_WORDS: Record<string, number> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10,
};
const STOP = new Set(('find get show give click press open go select choose me the a an all any every one ones ' +
  'with text named called labelled labeled label that which whose says saying titled title containing contains ' +
  'for to of on in at is are element elements item items please number no').split(' '));
const PAGE_WORDS = new Set(['page', 'pages', 'pagination', 'pager']);
const CJK_PAGE = /^第?(\d+)页$/;

type Kind = (el: ElementInfo) => boolean;
const type = (el: ElementInfo) => String(el.attributes.type ?? '').toLowerCase();
const isButton: Kind = (el) => el.tag === 'button' || el.attributes.role === 'button' ||
  (el.tag === 'input' && ['submit', 'button', 'reset', 'image'].includes(type(el)));
const KINDS: Record<string, Kind> = {
  link: (el) => el.tag === 'a' || el.attributes.role === 'link',
  button: isButton,
  field: (el) => el.tag === 'textarea' || (el.tag === 'input' && !isButton(el) && !['checkbox', 'radio'].includes(type(el))),
  dropdown: (el) => el.tag === 'select',
  checkbox: (el) => el.tag === 'input' && type(el) === 'checkbox',
  radio: (el) => el.tag === 'input' && type(el) === 'radio',
};
const KIND_WORDS: Record<string, string> = {
  link: 'link', links: 'link', hyperlink: 'link', url: 'link',
  button: 'button', buttons: 'button', btn: 'button',
  input: 'field', inputs: 'field', field: 'field', fields: 'field', textbox: 'field', box: 'field', textarea: 'field',
  dropdown: 'dropdown', select: 'dropdown', combobox: 'dropdown', menu: 'dropdown',
  checkbox: 'checkbox', checkboxes: 'checkbox', radio: 'radio',
};
// (?![a-z]) rather than \b: \b never fires after a CJK character.
const NEXT = /^(next|more|older|›|»|>|→|下一页|下页|weiter|suivant|siguiente)(?![a-z])|next\s*(›|»|>|→)?$/i;
const PREVIOUS = /^(prev|previous|newer|‹|«|<|←|上一页|上页|zurück|précédent|anterior)(?![a-z])/i;
const LAST_PAGE = /^(last|last page|»»|>>|末页|尾页)$/i;

interface QueryOutcome { matches: ElementInfo[]; interpretation: string; note?: string }

export function runQuery(elements: ElementInfo[], query: string): QueryOutcome {
  const read: string[] = [];
  const phrases: string[] = [];
  const rest = query.replace(/"([^"]+)"|“([^”]+)”|「([^」]+)」|‘([^’]+)’|(?:^|\s)'([^']+)'(?=$|[\s.,!?])/g, (_m, ...groups) => {
    phrases.push(String(groups.slice(0, 5).find((g) => g !== undefined)));
    return ' ';
  });
  const words: string[] = rest.toLowerCase().match(/[\p{L}\p{N}]+|[›»‹«→←]/gu) ?? [];
  let candidates = elements;

  const kinds = [...new Set(words.map((w) => KIND_WORDS[w]).filter(Boolean))];
  const wantsPage = words.some((w) => PAGE_WORDS.has(w) || CJK_PAGE.test(w));
  const ordinal = ordinalIn(words);
  const pageNumber = wantsPage ? (pageNumberIn(words) ?? (typeof ordinal === 'number' ? ordinal : undefined)) : undefined;
  const direction = words.includes('next') || words.includes('previous') || words.includes('prev');
  // "the 3rd page button", "the next page link": pagination controls are links
  // on some sites and buttons on others; either will do.
  const navigating = (wantsPage || direction) && kinds.every((k) => k === 'link' || k === 'button');
  const active = navigating && kinds.length ? ['link', 'button'] : kinds;
  if (active.length) {
    candidates = candidates.filter((el) => active.some((k) => KINDS[k](el)));
    read.push(`kind: ${active.join(' or ')}`);
  }
  for (const phrase of phrases) {
    const needle = phrase.toLowerCase();
    candidates = candidates.filter((el) => labelOf(el).toLowerCase().includes(needle) || el.text.toLowerCase().includes(needle));
    read.push(`text contains "${phrase}"`);
  }
  if (words.includes('next')) { candidates = candidates.filter((el) => isDirection(el, 'next', NEXT)); read.push('next-page control'); }
  if (words.includes('previous') || words.includes('prev')) { candidates = candidates.filter((el) => isDirection(el, 'prev', PREVIOUS)); read.push('previous-page control'); }

  const consumed = new Set([...Object.keys(KIND_WORDS), ...PAGE_WORDS, 'next', 'previous', 'prev', 'last', ...Object.keys(ORDINAL_WORDS)]);
  const keywords = words.filter((w) => !STOP.has(w) && !consumed.has(w) && !/^\d+(st|nd|rd|th)?$/.test(w) && !CJK_PAGE.test(w));
  let note: string | undefined;
  if (keywords.length) {
    const ranked = rankByKeywords(candidates, keywords);
    if (ranked) { candidates = ranked; read.push(`keywords: ${keywords.join(', ')}`); }
    else note = `no element matched the words ${keywords.map((k) => `"${k}"`).join(', ')}; they were ignored`;
  }

  if (pageNumber !== undefined) {
    read.push(`pagination control labelled ${pageNumber}`);
    candidates = candidates.filter((el) => pageLabel(el) === pageNumber);
  } else if (wantsPage && ordinal === 'last') {
    read.push('last-page control');
    candidates = lastPageControl(candidates);
  } else if (ordinal !== undefined) {
    read.push(ordinal === 'last' ? 'the last match' : `match number ${ordinal}`);
    const pick = ordinal === 'last' ? candidates.at(-1) : candidates[ordinal - 1];
    candidates = pick ? [pick] : [];
  }
  return { matches: candidates, interpretation: read.join('; ') || 'every interactable element', ...(note ? { note } : {}) };
}

function ordinalIn(words: string[]): number | 'last' | undefined {
  for (const w of words) {
    if (w === 'last') return 'last';
    if (ORDINAL_WORDS[w]) return ORDINAL_WORDS[w];
    const n = /^(\d+)(st|nd|rd|th)$/.exec(w)?.[1];
    if (n) return Number(n);
  }
  return undefined;
}

/** "page 3", "page number 3", "第3页": a bare number next to a page word. */
function pageNumberIn(words: string[]): number | undefined {
  for (let i = 0; i < words.length; i++) {
    if (!PAGE_WORDS.has(words[i])) continue;
    const after = words.slice(i + 1, i + 3).find((w) => /^\d+$/.test(w));
    if (after) return Number(after);
  }
  const cjk = words.map((w) => CJK_PAGE.exec(w)?.[1]).find(Boolean);
  return cjk === undefined ? undefined : Number(cjk);
}

/** The number a pagination control stands for: "3", "Page 3", "第3页", "[3]". */
function pageLabel(el: ElementInfo): number | undefined {
  const m = /^\s*(?:page\s*|第)?\[?(\d+)\]?\s*(?:页)?\s*$/i.exec(labelOf(el)) ?? /^page\s+(\d+)$/i.exec(String(el.attributes['aria-label'] ?? ''));
  return m ? Number(m[1]) : undefined;
}

function isDirection(el: ElementInfo, rel: string, label: RegExp): boolean {
  const rels = String(el.attributes.rel ?? '').toLowerCase().split(/\s+/);
  return rels.includes(rel) || label.test(labelOf(el).trim()) || label.test(String(el.attributes['aria-label'] ?? '').trim());
}

function lastPageControl(candidates: ElementInfo[]): ElementInfo[] {
  const named = candidates.filter((el) => LAST_PAGE.test(labelOf(el).trim()));
  if (named.length) return named;
  const numbered = candidates.filter((el) => pageLabel(el) !== undefined);
  const top = Math.max(...numbered.map((el) => pageLabel(el)!));
  return numbered.filter((el) => pageLabel(el) === top);
}

/** Elements matching the most keywords (in text, label, href, name, id or class); undefined when none matches any. */
function rankByKeywords(candidates: ElementInfo[], keywords: string[]): ElementInfo[] | undefined {
  const score = (el: ElementInfo) => {
    const a = el.attributes;
    const hay = [el.text, a['aria-label'], a.title, a.placeholder, a.name, a.id, a.href, a.value, a.class].flat().join(' ').toLowerCase();
    return keywords.filter((k) => hay.includes(k)).length;
  };
  const scored = candidates.map((el) => ({ el, s: score(el) }));
  const best = Math.max(0, ...scored.map((x) => x.s));
  return best === 0 ? undefined : scored.filter((x) => x.s === best).map((x) => x.el);
}
