// Plain text of a DOM subtree, laid out the way a reader sees it: one line per
// block, paragraphs apart, <pre> kept as written, table cells apart. (Raw
// textContent glues "Home" to the heading that follows and keeps the source's
// indentation.) Works the same on any DOM, linkedom or jsdom.
const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'HEAD', 'IFRAME', 'OBJECT']);
const PARAGRAPH = new Set(['P', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'PRE', 'BLOCKQUOTE', 'TABLE', 'UL', 'OL', 'DL', 'FIGURE', 'HR', 'SECTION', 'ARTICLE', 'HEADER', 'FOOTER', 'ASIDE', 'NAV', 'MAIN', 'FORM', 'FIELDSET', 'DETAILS']);
const LINE = new Set(['DIV', 'LI', 'TR', 'DT', 'DD', 'FIGCAPTION', 'CAPTION', 'SUMMARY', 'ADDRESS', 'OPTION', 'LEGEND', 'LABEL']);
const CELL = new Set(['TD', 'TH']);

export function plainText(root: Node): string {
  const out: string[] = [];
  walk(root, out, false);
  return out.join('').replace(/\n{3,}/g, '\n\n').trim();
}

/** The last character written so far ('' at the start). */
function lastChar(out: string[]): string {
  for (let i = out.length - 1; i >= 0; i--) if (out[i]) return out[i].slice(-1);
  return '';
}

/** A block boundary: trailing spaces of the line before it go, and breaks merge (two list items are one line apart, not two). */
function pushBreak(out: string[], br: string): void {
  let newlines = 0;
  for (let i = out.length - 1; i >= 0; i--) {
    const trimmed = out[i].replace(/ +$/, '');
    out[i] = trimmed;
    const tail = /\n*$/.exec(trimmed)![0].length;
    newlines += tail;
    if (tail < trimmed.length) break;
  }
  if (newlines < br.length) out.push('\n'.repeat(br.length - newlines));
}

function walk(node: Node, out: string[], pre: boolean): void {
  if (node.nodeType === 3) {
    const text = node.nodeValue ?? '';
    if (pre) { out.push(text); return; }
    let t = text.replace(/\s+/g, ' ');
    const last = lastChar(out);
    if (t.startsWith(' ') && (last === '' || last === ' ' || last === '\n' || last === '\t')) t = t.slice(1);
    if (t) out.push(t);
    return;
  }
  if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) return;
  const name = node.nodeName.toUpperCase();
  if (SKIP.has(name)) return;
  if (name === 'BR') { pushBreak(out, '\n'); return; }
  // A list inside a list item continues the list: one line apart, not a paragraph.
  const nestedList = (name === 'UL' || name === 'OL') && node.parentNode?.nodeName.toUpperCase() === 'LI';
  const br = nestedList || LINE.has(name) ? '\n' : PARAGRAPH.has(name) ? '\n\n' : CELL.has(name) ? '\t' : '';
  // A row's first cell starts the line; the others are a tab apart.
  if (br === '\t') { if (!['', '\n'].includes(lastChar(out))) out.push(br); } else if (br) pushBreak(out, br);
  const inPre = pre || name === 'PRE' || name === 'TEXTAREA';
  for (let child = node.firstChild; child; child = child.nextSibling) walk(child, out, inPre);
  if (br === '\n' || br === '\n\n') pushBreak(out, br);
}

/** A text's words, lower-cased: runs of letters and digits. */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * The share of a text's words that `outer` holds, each of outer's words used once (0 for a text without
 * words). Outer's words are counted once, for every text asked about.
 */
export function wordCover(outer: string): (text: string) => number {
  const counts = new Map<string, number>();
  for (const w of wordsOf(outer)) counts.set(w, (counts.get(w) ?? 0) + 1);
  return (text) => {
    const words = wordsOf(text);
    const used = new Map<string, number>();
    let held = 0;
    for (const w of words) {
      const n = used.get(w) ?? 0;
      if (n < (counts.get(w) ?? 0)) { held++; used.set(w, n + 1); }
    }
    return words.length ? held / words.length : 0;
  };
}

export function countWords(text: string): number {
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}'’._-]*/gu)?.length ?? 0;
}
