// HTML → Markdown with turndown: ATX headings, fenced code (language kept),
// GFM tables, strikethrough and task lists. Links and images are already
// absolute (dom.ts). Turndown parses the HTML string with its own parser, so
// the Markdown does not depend on which DOM Readability ran on.
import TurndownService from 'turndown';
import { gfm } from 'turndown-plugin-gfm';

const LANGUAGE = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/;
// Sphinx wraps highlighted code as div.highlight-python > div.highlight > pre; GitHub as div.highlight-source-js > pre.
const HIGHLIGHT = /(?:^|\s)highlight-(?:source-|text-)?([\w+#.-]+)/;

function codeLanguage(pre: HTMLElement): string {
  const code = pre.querySelector('code');
  for (let el: Element | null = pre.parentElement, depth = 0; el && depth < 2; el = el.parentElement, depth++) {
    const m = HIGHLIGHT.exec(el.getAttribute('class') ?? '');
    if (m) return m[1];
  }
  for (const el of [code, pre]) {
    if (!el) continue;
    const m = LANGUAGE.exec(el.getAttribute('class') ?? '');
    if (m) return m[1];
    const data = el.getAttribute('data-lang') ?? el.getAttribute('data-language');
    if (data) return data;
  }
  return '';
}

function createService(): TurndownService {
  const service = new TurndownService({
    headingStyle: 'atx', codeBlockStyle: 'fenced', fence: '```', bulletListMarker: '-', emDelimiter: '_', hr: '---',
  });
  service.use(gfm);
  service.remove(['script', 'style', 'noscript', 'template']);
  // A GFM table cell is one line: paragraphs inside a cell (Sphinx writes <td><p>…</p></td>) become
  // spaces, and a literal | is escaped. Same layout as the gfm plugin's own cell rule otherwise.
  service.addRule('inlineTableCell', {
    filter: ['th', 'td'],
    replacement: (content, node) => {
      const cell = node as HTMLElement;
      const first = !cell.previousElementSibling;
      const text = content.replace(/\s*\n+\s*/g, ' ').replace(/\|/g, '\\|').trim();
      return `${first ? '| ' : ' '}${text} |`;
    },
  });
  // Every <pre> is a fenced block (turndown's own rule needs a <code> child), with a fence
  // longer than any run of backticks inside so code containing ``` survives.
  service.addRule('fencedPre', {
    filter: (node) => node.nodeName === 'PRE',
    replacement: (_content, node) => {
      const pre = node as HTMLElement;
      const code = (pre.textContent ?? '').replace(/\n$/, '');
      const longest = Math.max(2, ...(code.match(/`+/g) ?? []).map((run) => run.length));
      const fence = '`'.repeat(longest + 1);
      return `\n\n${fence}${codeLanguage(pre)}\n${code}\n${fence}\n\n`;
    },
  });
  // The gfm plugin keeps a table without a heading row as raw HTML; as Markdown it reads better
  // under an empty heading row (GFM needs one), without claiming its first row is a header.
  service.addRule('tableWithoutHeading', {
    filter: (node) => node.nodeName === 'TABLE' && !hasHeadingRow(node as HTMLTableElement),
    replacement: (content, node) => {
      const rows = Array.from((node as HTMLTableElement).rows);
      const columns = Math.max(1, ...rows.map((r) => r.cells.length));
      const head = `|${'  |'.repeat(columns)}\n|${' --- |'.repeat(columns)}`;
      return `\n\n${head}\n${content.replace(/^\n+/, '').replace(/\n{2,}/g, '\n')}\n\n`;
    },
  });
  service.addRule('tableCaption', { filter: ['caption'], replacement: (content) => `\n\n${content.trim()}\n\n` });
  return service;
}

/** As the gfm plugin decides it: the first row is in a <thead>, or is all <th>. */
function hasHeadingRow(table: HTMLTableElement): boolean {
  const first = table.rows[0];
  if (!first) return true;    // an empty table: nothing to add
  return first.parentElement?.nodeName === 'THEAD' || Array.from(first.cells).every((c) => c.nodeName === 'TH');
}

let service: TurndownService | undefined;

export function toMarkdown(html: string): string {
  service ??= createService();
  return service.turndown(html);
}
