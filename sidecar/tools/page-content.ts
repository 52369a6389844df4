// The indexed view: web.page_content, web.query_elements and
// web.find_by_text. Each call numbers the page's interactable, visible elements
// afresh (an element keeps its wa-N id), so none needs an earlier call first.
import { collectElements, countTags, indexedLine, type ElementInfo } from '../elements/collect.js';
import { applyFilters, labelOf, type Filters } from '../elements/filters.js';
import { runQuery } from '../elements/query.js';
import { sanitizeHtml } from '../elements/sanitize.js';
import { visibleHtmlInPage } from '../elements/visible-html.js';
import { fitToBudget } from '../text-budget.js';
import { pageTool } from '../tool.js';

const DEFAULT_CONTENT_CHARS = 8000;
const DEFAULT_MATCHES = 50;
type Format = 'indexed' | 'full_html' | 'elements_json';

export const pageContent = pageTool('web.page_content', async ({ page, session }, params) => {
  const format = params.format ?? 'indexed';
  const maxChars = params.max_chars ?? DEFAULT_CONTENT_CHARS;
  const elements = await collectElements(session, page);
  const hint = 'Find elements with web.query_elements or web.find_by_text instead, or raise max_chars.';
  const body = format === 'elements_json'
    ? jsonWithin(elements, maxChars, hint)
    : fitToBudget(format === 'full_html' ? sanitizeHtml(await page.evaluate(visibleHtmlInPage)) : elements.map(indexedLine).join('\n'), maxChars, hint);
  return {
    url: page.url(),
    title: await page.title(),
    format,
    content: body.text,
    element_count: elements.length,
    element_types: countTags(elements),
    truncated: body.truncated,
    total_chars: body.total_chars,
    ...('notice' in body ? { notice: body.notice } : {}),
  };
});

/** As many whole elements as fit: the content stays valid JSON, and the cut is said in `notice`. */
function jsonWithin(elements: ElementInfo[], maxChars: number, hint: string) {
  const full = JSON.stringify(elements);
  if (full.length <= maxChars) return { text: full, truncated: false, total_chars: full.length };
  const kept: ElementInfo[] = [];
  let size = 2;
  for (const el of elements) {
    const next = JSON.stringify(el).length + 1;
    if (size + next > maxChars) break;
    kept.push(el);
    size += next;
  }
  const notice = `[truncated: ${kept.length} of ${elements.length} elements shown; the full JSON is ${full.length} chars. ${hint}]`;
  return { text: JSON.stringify(kept), truncated: true, total_chars: full.length, notice };
}

export const queryElements = pageTool('web.query_elements', async ({ page, session }, params) => {
  const filters = params.filters ?? {};
  const limit = params.limit ?? filters.limit ?? DEFAULT_MATCHES;
  const filtered = applyFilters(await collectElements(session, page), filters);
  const outcome = typeof params.query === 'string' ? runQuery(filtered, params.query) : { matches: filtered };
  return { url: page.url(), ...outcome, matches: outcome.matches.slice(0, limit), count: Math.min(limit, outcome.matches.length), total: outcome.matches.length };
});

export const findByText = pageTool('web.find_by_text', async ({ page, session }, params) => {
  const wanted = squeeze(params.text);
  const exact = params.exact === true;
  const limit = params.limit ?? DEFAULT_MATCHES;
  const hit = (s: string) => (exact ? squeeze(s) === wanted : squeeze(s).toLowerCase().includes(wanted.toLowerCase()));
  const matches = (await collectElements(session, page)).filter((el) => hit(el.text) || hit(labelOf(el)));
  return { url: page.url(), matches: matches.slice(0, limit), count: Math.min(limit, matches.length), total: matches.length };
});

function squeeze(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}
