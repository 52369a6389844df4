// The cut of a compact view past its budget: text first, then regions folded
// into one line each — footer, asides and menus before the main content.
import { describe, expect, it } from 'vitest';
import { compactLines, compactView } from '../../../sidecar/snapshot/compact.js';
import { fitLines } from '../../../sidecar/snapshot/fit.js';

const links = (prefix: string, n: number, at: number, indent: string) =>
  Array.from({ length: n }, (_, i) => `${indent}- link "${prefix} ${i}" [ref=e${at + i}] [cursor=pointer]:\n${indent}  - /url: /${prefix}/${i}`).join('\n');
const tree = [
  '- navigation "Menu" [ref=e1]:', links('menu item', 60, 100, '  '),
  '- main [ref=e2]:',
  '  - heading "Contact" [level=1] [ref=e3]',
  '  - paragraph [ref=e4]: Write to us and we answer within a day, unless it is a holiday.',
  '  - textbox "Email" [ref=e5]',
  '  - button "Send" [ref=e6]',
  '- contentinfo [ref=e7]:', links('footer link', 60, 300, '  '),
].join('\n');

describe('fitLines', () => {
  it('returns the view whole when it fits', () => {
    expect(fitLines(compactLines(tree), 1_000_000)).toEqual({ text: compactView(tree), cut: false });
  });

  it('drops running text first, and says so in its first line', () => {
    const wordy = tree.replace('  - button "Send" [ref=e6]', Array.from({ length: 8 }, (_, i) => `  - paragraph [ref=e${900 + i}]: Paragraph ${i} of the many things we say here.\n  - button "Send ${i}" [ref=e${910 + i}]`).join('\n'));
    const whole = compactView(wordy);
    const r = fitLines(compactLines(wordy), whole.length - 10);
    expect(r.cut).toBe(true);
    expect(r.text.split('\n')[0]).toMatch(/^# cut to fit max_chars: running text left out;/);
    expect(r.text).not.toContain('Write to us');
    expect(r.text).toContain('"menu item 59" [ref=e159]');
  });

  it('folds the footer, then the menu, into a line each that names what it holds and the ref that opens it; the form stays', () => {
    const r = fitLines(compactLines(tree), 1200);
    expect(r.text.length).toBeLessThanOrEqual(1200);
    const lines = r.text.split('\n');
    expect(lines).toContain('- contentinfo: 60 links (folded: {"ref":"e7"} opens it)');
    expect(lines).toContain('- navigation "Menu": 60 links (folded: {"ref":"e1"} opens it)');
    for (const kept of [' - h1 "Contact"', ' - textbox "Email" [ref=e5]', ' - button "Send" [ref=e6]']) expect(lines).toContain(kept);
    expect(lines[0]).toMatch(/2 regions folded/);
  });

  it('folds only what it must: the footer alone when that is enough', () => {
    const withoutFooter = compactView(tree).split('- contentinfo:')[0].length;
    const r = fitLines(compactLines(tree), withoutFooter + 200);
    expect(r.text).toContain('- contentinfo: 60 links (folded');
    expect(r.text).toContain('"menu item 0" [ref=e100]');
  });
});

describe('compactView: no repeated text', () => {
  it('a heading made only of its link is that link; two links named alike share one name', () => {
    const teaser = ['- heading [level=3] [ref=e1]:', '  - link "Bridge opens" [ref=e2] [cursor=pointer]:', '    - /url: /a',
      '- link "Bridge opens" [ref=e3] [cursor=pointer]:', '  - /url: /a', '- link "More" [ref=e4] [cursor=pointer]:', '  - /url: /m'].join('\n');
    expect(compactView(teaser)).toBe('- links: "Bridge opens" [ref=e2] [ref=e3], "More" [ref=e4]');
  });
});

describe('compactView: a label before its field', () => {
  it('is not printed again as text', () => {
    const form = ['- text: Your e-mail', '- textbox "Your e-mail" [ref=e2]', '- text: Spam robots, leave this empty', '- button "Send" [ref=e3]'].join('\n');
    expect(compactView(form)).toBe(['- textbox "Your e-mail" [ref=e2]', '- text: Spam robots, leave this empty', '- button "Send" [ref=e3]'].join('\n'));
  });
});
