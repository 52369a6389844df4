// The import of the newspaper library's regression pages (bench/newspaper-import.ts),
// on a small hand-written checkout in a temporary directory: pages pair with
// their text by name, the expected text is printed escaped, one <p> per
// paragraph, and language samples, pages without a text, short texts and
// text that is not English prose are left out with their reason.
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectedFragment, importNewspaper } from '../../../bench/newspaper-import.js';

const prose = (n: number) => Array.from({ length: n }, (_, i) => `The harbour wall was rebuilt in the winter of the storm, and it is ${i} times stronger than it was.`).join(' ');
const root = mkdtempSync(join(tmpdir(), 'newspaper-import-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('newspaper import', () => {
  it('prints the expected text escaped, one paragraph per blank-line-separated block', () => {
    expect(expectedFragment('Tom & Jerry <b>win</b>\nsays "the" judge\n\n\nSecond paragraph.\n')).toBe('<p>Tom &amp; Jerry &lt;b&gt;win&lt;/b&gt;\nsays &quot;the&quot; judge</p>\n<p>Second paragraph.</p>\n');
  });

  it('pairs pages with their texts and leaves out what is not an English article, saying why', () => {
    const source = join(root, 'checkout');
    mkdirSync(join(source, 'tests', 'data', 'html'), { recursive: true });
    mkdirSync(join(source, 'tests', 'data', 'text'), { recursive: true });
    const page = (name: string, text?: string) => {
      writeFileSync(join(source, 'tests', 'data', 'html', `${name}.html`), `<html><body><p>${name}</p></body></html>`);
      if (text !== undefined) writeFileSync(join(source, 'tests', 'data', 'text', `${name === 'cnn_article' ? 'cnn' : name}.txt`), text);
    };
    page('harbour.com1', `${prose(3)}\n\n${prose(2)}`);
    page('cnn_article', prose(4));
    page('thai_article', prose(4));
    page('teaser.com1', 'Read the whole story on our site.');
    page('frontpage');
    page('kalender.de1', Array.from({ length: 60 }, (_, i) => `Montag ${i}. Januar Stadthalle Eintritt frei`).join('\n'));
    const target = join(root, 'corpus');
    const { kept, skipped } = importNewspaper(source, target);
    expect(kept).toBe(2);
    expect(readdirSync(target).sort()).toEqual(['cnn_article', 'harbour.com1']);
    expect(readFileSync(join(target, 'harbour.com1', 'expected.html'), 'utf8').match(/<p>/g)).toHaveLength(2);
    expect(readFileSync(join(target, 'harbour.com1', 'source.html'), 'utf8')).toBe('<html><body><p>harbour.com1</p></body></html>');
    expect(skipped).toEqual([
      'frontpage: no expected text',
      expect.stringMatching(/^kalender\.de1: not English prose/),
      'teaser.com1: expected text of 7 words',
      'thai_article: a language sample',
    ]);
  });
});
