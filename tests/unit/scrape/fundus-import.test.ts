// The import of the Fundus scraper's parser regression pages (bench/fundus-import.ts),
// on a small hand-written checkout in a temporary directory: parser versions pair
// with pages in crawl-date order, the expected text is the body's blocks in
// Fundus's order, escaped, and pages in unspaced scripts, short bodies and
// bodies whose words are not on the page are left out with their reason.
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { bodyBlocks, importFundus, versionOrder } from '../../../bench/fundus-import.js';

const sentence = (topic: string, i: number) => `The ${topic} was rebuilt in the winter of the storm, and it is ${i} times stronger than it was before.`;
const prose = (topic: string, n: number) => Array.from({ length: n }, (_, i) => sentence(topic, i));
const root = mkdtempSync(join(tmpdir(), 'fundus-import-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('fundus import', () => {
  it('orders parser versions as released and reads the body as Fundus joins it', () => {
    expect(['V2', 'V1_1', 'V1', 'V10', 'V1_2'].sort(versionOrder)).toEqual(['V1', 'V1_1', 'V1_2', 'V2', 'V10']);
    expect(bodyBlocks({ summary: ['Lead'], sections: [{ headline: [], paragraphs: ['One', ' '] }, { headline: ['Sub'], paragraphs: ['Two'] }] })).toEqual(['Lead', 'One', 'Sub', 'Two']);
  });

  it('pairs versions with pages by crawl date and leaves out what cannot be scored, saying why', () => {
    const group = join(root, 'checkout', 'tests', 'resources', 'parser', 'test_data', 'xx');
    mkdirSync(group, { recursive: true });
    const meta: Record<string, { url: string; crawl_date: string }> = {};
    const page = (file: string, date: string, paragraphs: string[]) => {
      writeFileSync(join(group, file), gzipSync(`<html><body>${paragraphs.map((p) => `<p>${p}</p>`).join('')}</body></html>`));
      meta[file] = { url: `https://${file}.test/`, crawl_date: date };
    };
    const body = (paragraphs: string[]) => ({ body: { summary: ['Tom & Jerry <win>'], sections: [{ headline: [], paragraphs }] } });
    // Harbour's old page (V1) and new page (V2): each version's text must land on its own page.
    page('Harbour_2024_01_02.html.gz', '2024-01-02 10:00:00', ['Tom & Jerry <win>', ...prose('wall', 6)]);
    page('Harbour_2025_03_04.html.gz', '2025-03-04 10:00:00', ['Tom & Jerry <win>', ...prose('bridge', 6)]);
    writeFileSync(join(group, 'Harbour.json'), JSON.stringify({ V2: body(prose('bridge', 6)), V1: body(prose('wall', 6)) }));
    page('Short_2024_01_01.html.gz', '2024-01-01 10:00:00', ['A teaser.']);
    writeFileSync(join(group, 'Short.json'), JSON.stringify({ V1: body(['A teaser.']) }));
    page('Kanji_2024_01_01.html.gz', '2024-01-01 10:00:00', ['港の壁は嵐の冬に再建された。'.repeat(30)]);
    writeFileSync(join(group, 'Kanji.json'), JSON.stringify({ V1: { body: { summary: [], sections: [{ headline: [], paragraphs: ['港の壁は嵐の冬に再建された。'.repeat(30)] }] } } }));
    page('Elsewhere_2024_01_01.html.gz', '2024-01-01 10:00:00', ['Subscribe to read this story.']);
    writeFileSync(join(group, 'Elsewhere.json'), JSON.stringify({ V1: body(prose('tower', 6)) }));
    writeFileSync(join(group, 'meta.info'), JSON.stringify(meta));
    const target = join(root, 'corpus');
    const { kept, skipped } = importFundus(join(root, 'checkout'), target);
    expect(kept).toBe(2);
    expect(readdirSync(target).sort()).toEqual(['xx-Harbour_2024_01_02', 'xx-Harbour_2025_03_04']);
    const expected = readFileSync(join(target, 'xx-Harbour_2024_01_02', 'expected.html'), 'utf8');
    expect(expected.startsWith('<p>Tom &amp; Jerry &lt;win&gt;</p>\n<p>The wall was rebuilt')).toBe(true);
    expect(readFileSync(join(target, 'xx-Harbour_2025_03_04', 'expected.html'), 'utf8')).toContain('The bridge was rebuilt');
    expect(readFileSync(join(target, 'xx-Harbour_2024_01_02', 'source.html'), 'utf8')).toContain('<p>The wall was rebuilt');
    expect(skipped).toEqual([
      expect.stringMatching(/^xx-Elsewhere_2024_01_01: only 0\.\d\d of the expected words are on the page$/),
      'xx-Kanji_2024_01_01: written without spaces between words',
      expect.stringMatching(/^xx-Short_2024_01_01: expected body of \d+ words$/),
    ]);
  });
});
