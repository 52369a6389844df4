// The compact snapshot view and its paging, on Playwright "ai" lines.
import { describe, expect, it } from 'vitest';
import { parseAriaLines } from '../../../sidecar/snapshot/aria-lines.js';
import { compactLines, compactView } from '../../../sidecar/snapshot/compact.js';
import { refsInView } from '../../../sidecar/snapshot/link-runs.js';
import { partOf } from '../../../sidecar/snapshot/paging.js';

const tree = [
  '- generic [active] [ref=e1]:',
  '  - banner [ref=e2]:',
  '    - link "Home" [ref=e3] [cursor=pointer]:',
  '      - /url: /',
  '      - img "logo" [ref=e4]',
  '    - navigation "Sections" [ref=e5]:',
  '      - list [ref=e6]:',
  '        - listitem [ref=e7]:',
  '          - link "World" [ref=e8] [cursor=pointer]:',
  '            - /url: /world',
  '  - main [ref=e9]:',
  '    - heading "Top stories" [level=2] [ref=e10]',
  '    - article [ref=e11]:',
  '      - link [ref=e12] [cursor=pointer]:',
  '        - /url: /a',
  '        - img "photo" [ref=e13]',
  '        - heading "Bridge opens after ten years" [level=3] [ref=e14]',
  '      - paragraph [ref=e15]: The new bridge across the harbour opened on Monday after a decade of delays and disputes over cost.',
  '      - paragraph [ref=e16]: Second paragraph.',
  '      - paragraph [ref=e17]: Third paragraph.',
  '      - button "Save" [ref=e18]: save',
  '    - heading [level=2] [ref=e19]:',
  '      - text: Section',
  '      - link "#" [ref=e20] [cursor=pointer]:',
  '        - /url: "#s"',
  '    - generic [ref=e21] [cursor=pointer]: Load more',
  "    - 'textbox \"Search: news\" [ref=e22]': harbour",
  '    - checkbox "Remember me" [checked] [ref=e23]',
  '    - region [ref=e24]:',
  '      - generic [ref=e25]',
].join('\n');

describe('compactView', () => {
  const view = compactView(tree);
  const lines = view.split('\n');

  it('keeps one line and the ref of every actionable element, wrappers gone, URLs and images gone', () => {
    expect(lines).toEqual([
      '- banner:',
      ' - link "Home" [ref=e3]',
      ' - navigation "Sections":',
      '  - link "World" [ref=e8]',
      '- main:',
      ' - h2 "Top stories"',
      ' - link "Bridge opens after ten years" [ref=e12]',
      ' - text: The new bridge across the harbour… (+2 more)',
      ' - button "Save" [ref=e18]',
      ' - h2 "Section"',
      '  - link "#" [ref=e20]',
      ' - clickable "Load more" [ref=e21]',
      ' - textbox "Search: news" [ref=e22]: harbour',
      ' - checkbox "Remember me" [checked] [ref=e23]',
    ]);
  });

  it('every ref of an actionable line of the full tree is in the compact view', () => {
    const actionable = parseAriaLines(tree).filter((l) => l.ref && (l.attrs.includes('cursor=pointer') || ['link', 'button', 'textbox', 'checkbox'].includes(l.role)));
    for (const l of actionable) expect(view).toContain(`[ref=${l.ref}]`);
  });
});

describe('compactView: link runs', () => {
  const menu = ['- navigation "Main" [ref=e1]:', '  - list [ref=e2]:',
    ...Array.from({ length: 12 }, (_, i) => `    - listitem [ref=e${10 + i}]:\n      - link "Section number ${i}" [ref=e${30 + i}] [cursor=pointer]:\n        - /url: /s${i}`),
  ].join('\n');
  const view = compactView(menu);

  it('three or more plain links in a row share lines ref first, each keeping its name and ref', () => {
    const lines = view.split('\n');
    expect(lines[0]).toBe('- navigation "Main":');
    expect(lines.slice(1).every((l) => l.startsWith(' - links: ') && l.length <= 160)).toBe(true);
    for (let i = 0; i < 12; i++) expect(view).toMatch(new RegExp(`(: | · )e${30 + i} "Section number ${i}"( · |$)`, 'm'));
    expect(lines.length).toBeLessThan(6);
  });

  it('one link keeps its line; two share one', () => {
    expect(compactView('- link "A" [ref=e1] [cursor=pointer]')).toBe('- link "A" [ref=e1]');
    expect(compactView('- link "A" [ref=e1] [cursor=pointer]\n- link "B" [ref=e2] [cursor=pointer]')).toBe('- links: e1 "A" · e2 "B"');
  });

  it('a paragraph with links reads as its first text line and its links; separators vanish', () => {
    const paragraph = ['- paragraph [ref=e1]:', '  - text: Read the', '  - link "release notes" [ref=e2] [cursor=pointer]:', '    - /url: /notes',
      '  - text: "|"', '  - link "changelog" [ref=e3] [cursor=pointer]:', '    - /url: /log', '  - text: before you upgrade.'].join('\n');
    expect(compactView(paragraph).split('\n')).toEqual(['- text: Read the (+1 more)', '- links: e2 "release notes" · e3 "changelog"']);
  });
});

describe('parseAriaLines', () => {
  it.each([
    ['- button "Go" [ref=e6]', { role: 'button', name: 'Go', ref: 'e6', value: null, opens: false }],
    ['- paragraph [ref=e5]: some: text', { role: 'paragraph', name: null, ref: 'e5', value: 'some: text' }],
    ['- link "a \\"b\\"" [ref=e2] [cursor=pointer]:', { role: 'link', name: 'a "b"', ref: 'e2', opens: true, attrs: ['cursor=pointer'] }],
    ["- 'heading \"It''s: here\" [level=1] [ref=e3]'", { role: 'heading', name: "It's: here", ref: 'e3', attrs: ['level=1'] }],
    ['- /url: "#top"', { role: '/url', value: '#top' }],
    ['- text: plain words', { role: 'text', value: 'plain words' }],
  ])('%s', (line, want) => {
    expect(parseAriaLines(line)[0]).toMatchObject(want);
  });
});

describe('partOf', () => {
  const text = Array.from({ length: 300 }, (_, i) => `- link "Item ${i}" [ref=e${i}]`).join('\n');

  it('returns the whole text when it fits', () => {
    expect(partOf('short', 500)).toEqual({ text: 'short', page: 1, pages: 1, truncated: false, total_chars: 5 });
  });

  it('splits at lines into parts within the budget; each names the next; together they hold every line', () => {
    const first = partOf(text, 1000);
    const seen: string[] = [];
    for (let page = 1; page <= first.pages; page++) {
      const part = partOf(text, 1000, page);
      expect(part.text.length).toBeLessThanOrEqual(1000);
      const notice = part.text.split('\n').at(-1)!;
      expect(notice).toMatch(page < first.pages ? new RegExp(`\\{"page":${page + 1}\\}`) : /the last part/);
      seen.push(...part.text.split('\n').slice(0, -1));
    }
    expect(seen).toEqual(text.split('\n'));
  });

  it('a page past the end gives the last part', () => {
    const last = partOf(text, 1000, 10_000);
    expect(last.page).toBe(last.pages);
  });
});

describe('compactView: elements inside aria-hidden content', () => {
  const tree = ['- generic [aria-hidden] [ref=e2]:', '  - link [ref=e3] [cursor=pointer]:', '    - /url: /close', '    - img',
    '  - link [ref=e4] [cursor=pointer]:', '    - /url: /about', '    - text: About', '  - button [ref=e5]: Hi',
    '- link "Shop" [ref=e6] [cursor=pointer]:', '  - /url: /close'].join('\n');

  it('say [aria-hidden] and take the name the page pass read for them, by href or words, in order', () => {
    const lines = compactLines(tree, [{ key: 'url:/close', nth: 0, name: 'Close the menu' }, { key: 'text:Hi', nth: 0, name: 'Say hello' }]).map((l) => l.text);
    expect(lines).toEqual(['- links: e3 [aria-hidden] "Close the menu" · e4 [aria-hidden] "About"', '- button "Say hello" [aria-hidden] [ref=e5]', '- link "Shop" [ref=e6]']);
  });

  it('without a name from the page they keep their words and the mark; an element outside is never renamed', () => {
    const lines = compactLines(tree, [{ key: 'url:/elsewhere', nth: 0, name: 'Wrong' }, { key: 'url:/close', nth: 2, name: 'Wrong too' }]).map((l) => l.text);
    expect(lines).toEqual(['- links: e3 [aria-hidden] · e4 [aria-hidden] "About"', '- button "Hi" [aria-hidden] [ref=e5]', '- link "Shop" [ref=e6]']);
    expect(refsInView(lines.join('\n'))).toEqual(['e3', 'e4', 'e5', 'e6']);
  });

  it('where the tree lost its mark, the pass says which of the elements with one href is hidden: that one only is marked and named', () => {
    const flat = ['- link "Shop" [ref=e2] [cursor=pointer]:', '  - /url: /shop', '- button "Go" [ref=e3]', '- link [ref=e4] [cursor=pointer]:', '  - /url: /shop', '  - text: Shop'].join('\n');
    expect(compactLines(flat, [{ key: 'url:/shop', nth: 1, name: 'Shop (menu copy)' }]).map((l) => l.text))
      .toEqual(['- link "Shop" [ref=e2]', '- button "Go" [ref=e3]', '- link "Shop (menu copy)" [aria-hidden] [ref=e4]']);
  });

  it('an iframe\'s link to the same href does not shift which main-frame line the pass named', () => {
    const framed = ['- iframe [ref=e2]:', '  - link "Shop" [ref=f1e1] [cursor=pointer]:', '    - /url: /shop',
      '- link "Shop" [ref=e3] [cursor=pointer]:', '  - /url: /shop', '- link [ref=e4] [cursor=pointer]:', '  - /url: /shop'].join('\n');
    const text = compactLines(framed, [{ key: 'url:/shop', nth: 1, name: 'Shop (menu copy)' }]).map((l) => l.text).join('\n');
    expect(text).toContain('e4 [aria-hidden] "Shop (menu copy)"');
    expect(text).not.toMatch(/e3 \[aria-hidden\]|f1e1 \[aria-hidden\]/);
  });
});
