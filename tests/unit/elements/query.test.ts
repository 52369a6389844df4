// web.query_elements' deterministic query and filters, on element lists shaped
// like the collector's output (no browser needed).
import { describe, expect, it } from 'vitest';
import type { ElementInfo } from '../../../sidecar/elements/collect.js';
import { applyFilters, globToRegExp } from '../../../sidecar/elements/filters.js';
import { runQuery } from '../../../sidecar/elements/query.js';

let n = 0;
const el = (tag: string, text: string, attributes: Record<string, string | string[]> = {}, url?: string): ElementInfo =>
  ({ web_agent_id: `wa-${n}`, index: n++, tag, text, attributes, ...(url ? { url } : {}) });

const page: ElementInfo[] = [
  el('a', '首页', { href: './' }, 'https://f.test/bbs/'),
  el('input', '', { type: 'text', name: 'srchtxt', placeholder: '请输入搜索内容' }),
  el('button', '搜索', { type: 'submit' }),
  el('a', '上一页', { href: 'tag/t-1.html', class: ['prev'] }, 'https://f.test/bbs/tag/t-1.html'),
  el('a', '1', { href: 'tag/t-1.html' }, 'https://f.test/bbs/tag/t-1.html'),
  el('a', '3', { href: 'tag/t-3.html' }, 'https://f.test/bbs/tag/t-3.html'),
  el('a', '12', { href: 'tag/t-12.html' }, 'https://f.test/bbs/tag/t-12.html'),
  el('a', '下一页', { href: 'tag/t-3.html', class: ['nxt'] }, 'https://f.test/bbs/tag/t-3.html'),
  el('a', 'OAI 面试挂经', { href: 'thread-1155609-1-1.html', class: ['s', 'xst'] }, 'https://f.test/bbs/thread-1155609-1-1.html'),
  el('a', 'Other post', { href: 'thread-2-1-1.html', class: ['s', 'xst'] }, 'https://f.test/bbs/thread-2-1-1.html'),
  el('button', 'Subscribe now', { type: 'button' }),
  el('span', 'Menu', { role: 'button' }),
  el('select', 'S', { name: 'size' }),
];
const texts = (q: string) => runQuery(page, q).matches.map((e) => e.text);

describe('runQuery', () => {
  it.each<[string, string[]]>([
    ['Find the 3rd page button', ['3']],
    ['page 12', ['12']],
    ['go to page number 3', ['3']],
    ['第3页', ['3']],
    ['the next page', ['下一页']],
    ['previous page link', ['上一页']],
    ['last page', ['12']],
    ['the first link', ['首页']],
    ['the last link', ['Other post']],
    ['the second button', ['Subscribe now']],
    ['the last button', ['Menu']],
    ["Find link with text 'OAI 面试挂经'", ['OAI 面试挂经']],
    ['Find link with text “Other post”', ['Other post']],
    ['OAI 面试挂经', ['OAI 面试挂经']],
    ['subscribe button', ['Subscribe now']],
    ['search field', ['']],
    ['dropdown', ['S']],
  ])('%s', (q, want) => expect(texts(q)).toEqual(want));

  it('says how it read the query, and which words matched nothing', () => {
    expect(runQuery(page, 'Find the 3rd page button').interpretation).toBe('kind: link or button; pagination control labelled 3');
    const r = runQuery(page, 'zebra links');
    expect(r.note).toBe('no element matched the words "zebra"; they were ignored');
    expect(r.matches).toHaveLength(8);
  });

  it('an ordinal past the end finds nothing rather than something else', () => {
    expect(texts('the 9th button')).toEqual([]);
  });
});

describe('applyFilters', () => {
  it('href_pattern globs the href as written, the absolute URL, the path and the last segment', () => {
    const hrefs = (p: string) => applyFilters(page, { href_pattern: p }).map((e) => e.attributes.href);
    expect(hrefs('thread-*')).toEqual(['thread-1155609-1-1.html', 'thread-2-1-1.html']);
    expect(hrefs('https://f.test/bbs/thread-2-*')).toEqual(['thread-2-1-1.html']);
    expect(hrefs('/bbs/tag/t-?.html')).toEqual(['tag/t-1.html', 'tag/t-1.html', 'tag/t-3.html', 'tag/t-3.html']);
    expect(hrefs('thread')).toEqual([]);
  });

  it('combines tag, text and id range', () => {
    expect(applyFilters(page, { tag: 'A', text_contains: 'post', id_range: [0, page.length] }).map((e) => e.text)).toEqual(['Other post']);
    expect(applyFilters(page, { text_matches: '^\\d+$', id_range: [page[5].index, page[6].index] }).map((e) => e.text)).toEqual(['3', '12']);
  });

  it('rejects a bad regular expression as invalid_params', () => {
    expect(() => applyFilters(page, { text_matches: '[' })).toThrow(expect.objectContaining({ code: 'invalid_params' }));
  });

  it('globs escape regex characters', () => {
    expect(globToRegExp('a.b*').test('a.bcd')).toBe(true);
    expect(globToRegExp('a.b*').test('axbcd')).toBe(false);
  });
});
