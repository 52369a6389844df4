// The text side of web.snapshot: line diff, interactive filter, size budget.
import { describe, expect, it } from 'vitest';
import { diffLines, renderDiff } from '../../../sidecar/snapshot/diff.js';
import { interactiveOnly } from '../../../sidecar/snapshot/interactive.js';
import { fitToBudget } from '../../../sidecar/text-budget.js';

describe('diffLines', () => {
  const cases: Array<[string, string[], string[], string]> = [
    ['no change', ['a', 'b'], ['a', 'b'], '  a|  b'],
    ['insert in the middle', ['a', 'b', 'c'], ['a', 'x', 'b', 'c'], '  a|+ x|  b|  c'],
    ['delete at the end', ['a', 'b', 'c'], ['a', 'b'], '  a|  b|- c'],
    ['replace', ['a', 'b', 'c'], ['a', 'B', 'c'], '  a|- b|+ B|  c'],
    ['from empty', [], ['x', 'y'], '+ x|+ y'],
    ['to empty', ['x'], [], '- x'],
    ['moves keep the longest common run', ['a', 'b', 'c', 'd'], ['b', 'c', 'd', 'a'], '- a|  b|  c|  d|+ a'],
  ];
  it.each(cases)('%s', (_name, a, b, want) => {
    const ops = diffLines(a, b)!;
    expect(ops.map((o) => `${o.kind} ${o.line}`).join('|')).toBe(want);
  });

  it('gives up past maxEdits, so a rewritten page is sent whole', () => {
    const a = Array.from({ length: 50 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 50 }, (_, i) => `b${i}`);
    expect(diffLines(a, b, 20)).toBeUndefined();
    expect(diffLines(a, b, 100)).toHaveLength(100);
  });

  it('renders changes with one line of context and elides the rest', () => {
    const a = Array.from({ length: 10 }, (_, i) => `l${i}`);
    const b = [...a.slice(0, 5), 'new', ...a.slice(5)];
    expect(renderDiff(diffLines(a, b)!)).toBe('  … 4 unchanged lines\n  l4\n+ new\n  l5\n  … 4 unchanged lines');
  });
});

describe('interactiveOnly', () => {
  const full = [
    '- generic [active] [ref=e1]:',
    '  - heading "Title" [level=1] [ref=e2]',
    '  - navigation [ref=e3]:',
    '    - link "Home" [ref=e4] [cursor=pointer]:',
    '      - /url: /',
    '  - paragraph [ref=e5]: text',
    '  - button "Go" [ref=e6]:',
    '    - img [ref=e7]',
    '  - combobox [ref=e8]:',
    '    - option "x" [selected]',
    '  - generic [ref=e9] [cursor=pointer]: clicky',
    '  - iframe [ref=e10]:',
    '    - generic [ref=f1e1]:',
    '      - textbox "Inner" [ref=f1e2]',
  ].join('\n');

  it('keeps actionable lines, their /url, a select\'s options and iframes, re-indented, with no dangling colon', () => {
    expect(interactiveOnly(full)).toBe([
      '- link "Home" [ref=e4] [cursor=pointer]:',
      '  - /url: /',
      '- button "Go" [ref=e6]',
      '- combobox [ref=e8]:',
      '  - option "x" [selected]',
      '- generic [ref=e9] [cursor=pointer]: clicky',
      '- iframe [ref=e10]:',
      '  - textbox "Inner" [ref=f1e2]',
    ].join('\n'));
  });
});

describe('fitToBudget', () => {
  const text = Array.from({ length: 100 }, (_, i) => `line ${i} ${'x'.repeat(40)}`).join('\n');

  it('leaves short text alone', () => {
    expect(fitToBudget('short', 100, 'hint')).toEqual({ text: 'short', truncated: false, total_chars: 5 });
  });

  it.each([300, 500, 1000, 4000])('cuts at a line, within %i chars including the notice', (max) => {
    const r = fitToBudget(text, max, 'Use a selector.');
    expect(r.truncated).toBe(true);
    expect(r.text.length).toBeLessThanOrEqual(max);
    const lines = r.text.split('\n');
    const notice = lines.pop()!;
    expect(notice).toBe(`[truncated: showing ${lines.length} of 100 lines; the full text is ${text.length} chars. Use a selector.]`);
    expect(text.startsWith(lines.join('\n'))).toBe(true);
    expect(lines.every((l) => /^line \d+ x{40}$/.test(l))).toBe(true);
  });
});
