// The main text of the page a form submission led to: Readability (on a
// linkedom copy of the rendered DOM) picks the content, and block elements
// become line breaks so "Thank you, Ada" and the next paragraph do not run
// together. Pages Readability finds nothing in fall back to the rendered text
// of <main> (or the body).
import { linkedom, readability } from '../lazy-packages.js';
import type { Page } from 'playwright';

export const MAX_TEXT = 20_000;
const BLOCK = /^(ADDRESS|ARTICLE|ASIDE|BLOCKQUOTE|BR|DD|DIV|DL|DT|FIELDSET|FIGCAPTION|FIGURE|FOOTER|FORM|H[1-6]|HEADER|HR|LI|MAIN|NAV|OL|P|PRE|SECTION|TABLE|TD|TH|TR|UL)$/;

export async function mainText(page: Page): Promise<string> {
  const { document } = linkedom().parseHTML(await page.content());
  const article = new (readability().Readability)(document as unknown as Document, { charThreshold: 0 }).parse();
  let text = article?.content ? blockText(article.content) : '';
  // Readability moves the heading that matches the title out of the content; on a
  // result page that heading ("Welcome, Ada") is often the whole message.
  const title = article?.title?.trim();
  if (text && title && !text.includes(title)) text = `${title}\n${text}`;
  if (!text) {
    text = await page.evaluate(() => ((document.querySelector('main,[role=main]') ?? document.body) as HTMLElement | null)?.innerText ?? '');
  }
  text = text.trim();
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text;
}

function blockText(html: string): string {
  const { document } = linkedom().parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const out: string[] = [];
  const walk = (node: Node) => {
    if (node.nodeType === 3) { out.push((node.textContent ?? '').replace(/\s+/g, ' ')); return; }
    if (node.nodeType !== 1) return;
    const block = BLOCK.test((node as Element).tagName);
    if (block) out.push('\n');
    node.childNodes.forEach(walk);
    if (block) out.push('\n');
  };
  walk(document.body as unknown as Node);
  return out.join('').split('\n').map((line) => line.trim()).filter(Boolean).join('\n');
}
