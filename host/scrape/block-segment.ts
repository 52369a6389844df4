// The whole page cut into blocks, as paragraph-level block scorers cut it
// (jusText, trafilatura): every block-level element starts a new block, and
// the text inside inline elements (links, emphasis, spans) belongs to the
// block around it. One walk over the page, in reading order, before
// Readability rewrites the document. Each block carries what a scorer weighs:
// its length, the share of it inside links, the share of function words, and
// where it sits (a heading, a caption, inside navigation, a form or a list).
import { isFunctionWord } from './language.js';
import { wordsOf } from './text.js';

export interface PageBlock {
  text: string;
  chars: number;
  /** Non-space characters inside links. */
  linkChars: number;
  words: number;
  /** Words that are function words of a known language (the, und, les, …). */
  functionWords: number;
  heading: boolean;
  caption: boolean;
  /** Inside nav, aside, footer, form, select, button or a [role=navigation] box: the page's chrome. */
  chrome: boolean;
  /** The block-level element the block's text sits in (it may hold other blocks too). */
  owner: Element | null;
}

const BLOCK = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BODY', 'CAPTION', 'CENTER', 'DD', 'DETAILS', 'DIALOG', 'DIV', 'DL', 'DT', 'FIELDSET',
  'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HR', 'LEGEND', 'LI', 'MAIN', 'NAV', 'OL',
  'OPTION', 'P', 'PRE', 'SECTION', 'SUMMARY', 'TABLE', 'TBODY', 'TD', 'TFOOT', 'TH', 'THEAD', 'TR', 'UL', 'TEXTAREA', 'SELECT',
]);
const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'HEAD', 'IFRAME', 'OBJECT', 'CANVAS']);
const CHROME = new Set(['NAV', 'ASIDE', 'FOOTER', 'FORM', 'SELECT', 'BUTTON', 'OPTION', 'TEXTAREA']);
const CHROME_ROLE = /^(navigation|complementary|contentinfo|banner|menu|menubar|search|dialog)$/;

interface Place { link: boolean; heading: boolean; caption: boolean; chrome: boolean; owner: Element | null }

/** `isStopword` counts a block's function words (default: the short lists of language.ts). */
export function segmentPage(root: Node, isStopword: (word: string) => boolean = isFunctionWord): PageBlock[] {
  const blocks: PageBlock[] = [];
  let parts: string[] = [];
  let linkChars = 0;
  let place: Place = { link: false, heading: false, caption: false, chrome: false, owner: root.nodeType === 1 ? root as Element : null };
  const flush = () => {
    const text = parts.join('').replace(/\s+/g, ' ').trim();
    parts = [];
    if (text) {
      const tokens = wordsOf(text);
      blocks.push({
        text, chars: text.replace(/\s+/g, '').length, linkChars, words: tokens.length,
        functionWords: tokens.filter(isStopword).length, heading: place.heading, caption: place.caption, chrome: place.chrome, owner: place.owner,
      });
    }
    linkChars = 0;
  };
  const walk = (node: Node, at: Place) => {
    if (node.nodeType === 3) {
      const text = node.nodeValue ?? '';
      parts.push(text);
      if (at.link) linkChars += text.replace(/\s+/g, '').length;
      return;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
    const name = node.nodeName.toUpperCase();
    if (SKIP.has(name)) return;
    if (name === 'BR') { parts.push(' '); return; }
    const el = node as Element;
    const block = BLOCK.has(name);
    const inner: Place = {
      owner: block ? el : at.owner,
      link: at.link || name === 'A',
      heading: at.heading || /^H[1-6]$/.test(name),
      caption: at.caption || name === 'FIGCAPTION' || name === 'CAPTION',
      chrome: at.chrome || CHROME.has(name) || (node.nodeType === 1 && CHROME_ROLE.test(el.getAttribute('role') ?? '')),
    };
    if (block) { flush(); place = inner; }
    for (let child = node.firstChild; child; child = child.nextSibling) walk(child, inner);
    // Text after a nested block belongs to the block around it again.
    if (block) { flush(); place = at; }
  };
  walk(root, place);
  flush();
  return blocks;
}
