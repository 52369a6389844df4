// The compact view: what an agent needs to act and to know where it is, in as
// few characters as the page allows. Every element one can act on keeps its
// own line and ref (addressability is the point); everything else is folded:
// anonymous wrappers vanish, landmarks become section lines, headings stay,
// running text is cut to a first line, link URLs and images go (mode "full"
// has them). Built on Playwright's "ai" lines so refs are Playwright's own.
import { parseAriaLines, type AriaLine } from './aria-lines.js';

const ACTIONABLE = new Set([
  'button', 'link', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'menuitem',
  'menuitemcheckbox', 'menuitemradio', 'option', 'tab', 'switch', 'slider', 'spinbutton', 'treeitem', 'iframe',
]);
const SECTIONS = new Set([
  'banner', 'navigation', 'main', 'contentinfo', 'complementary', 'search', 'form', 'dialog', 'alertdialog', 'region', 'table', 'tablist', 'menu', 'menubar', 'tree', 'grid',
]);
/** Roles whose inline value is what the user typed or chose, not their label again. */
const VALUED = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton', 'slider']);
const KEPT_STATES = /^(checked|disabled|expanded|selected|pressed|active|level=\d+|checked=mixed)$/;
export const TEXT_CHARS = 60;
const NAME_CHARS = 60;
/** Links are most of a page's lines: their names are cut sooner (the ref, not the name, is what acting needs). */
const LINK_CHARS = 40;

interface Node { line: AriaLine; children: Node[] }
interface Out { depth: number; text: string; isText: boolean; /** A plain link's `"name" [ref=eN]`, for grouping. */ link?: string }
/** Runs of plain links (menus, link lists) share lines of about this length: most of a page's characters are links. */
const LINK_LINE = 140;

export const COMPACT_LEGEND = '# compact: "…" marks cut text; mode "full" has all text and URLs';

export function compactView(yaml: string): string {
  const out: Out[] = [];
  for (const node of buildTree(parseAriaLines(yaml))) render(node, 0, out);
  return groupLinks(foldTextRuns(out)).map((o) => `${' '.repeat(o.depth)}${o.text}`).join('\n'); // one space a level: nesting is shallow here
}

function buildTree(lines: AriaLine[]): Node[] {
  const roots: Node[] = [];
  const stack: Node[] = [];
  for (const line of lines) {
    const node = { line, children: [] };
    while (stack.length && stack[stack.length - 1].line.depth >= line.depth) stack.pop();
    (stack.length ? stack[stack.length - 1].children : roots).push(node);
    stack.push(node);
  }
  return roots;
}

function actionable(line: AriaLine): boolean {
  return line.ref !== null && (ACTIONABLE.has(line.role) || line.attrs.includes('cursor=pointer'));
}

function render(node: Node, depth: number, out: Out[]): void {
  const { line } = node;
  if (line.role.startsWith('/') || line.role === 'img') return;
  if (actionable(line)) return renderActionable(node, depth, out);
  if (line.role === 'heading') {
    out.push({ depth, text: `- h${level(line)} ${quote(shorten(line.name || textOf(node, false), NAME_CHARS))}`, isText: false });
    for (const child of node.children) renderNestedActionables(child, depth + 1, out); // a heading's "#" anchor link
    return;
  }
  if (line.role === 'text' || (line.value !== null && !node.children.length)) {
    if (line.value?.trim()) out.push({ depth, text: `- text: ${shorten(line.value, TEXT_CHARS)}`, isText: true });
    return;
  }
  if (SECTIONS.has(line.role) && (line.name || line.role !== 'region')) {
    const start = out.length;
    out.push({ depth, text: `- ${line.role}${line.name ? ` ${quote(shorten(line.name, NAME_CHARS))}` : ''}:`, isText: false });
    renderChildren(node, depth + 1, out);
    if (out.length === start + 1) out.pop(); // an empty section says nothing
    return;
  }
  if (line.value?.trim()) out.push({ depth, text: `- text: ${shorten(line.value, TEXT_CHARS)}`, isText: true });
  renderChildren(node, depth, out); // an anonymous wrapper: its children take its place
}

function renderChildren(node: Node, depth: number, out: Out[]): void {
  for (const child of node.children) render(child, depth, out);
}

function renderActionable(node: Node, depth: number, out: Out[]): void {
  const { line } = node;
  const role = ACTIONABLE.has(line.role) ? line.role : 'clickable';
  const placeholder = node.children.find((c) => c.line.role === '/placeholder')?.line.value ?? null;
  const inlineText = VALUED.has(role) ? null : line.value;
  const name = line.name || placeholder || inlineText || textOf(node);
  const states = line.attrs.filter((a) => KEPT_STATES.test(a) && a !== 'active').map((a) => ` [${a}]`).join('');
  const value = VALUED.has(role) && line.value ? `: ${shorten(line.value, TEXT_CHARS)}` : '';
  const shown = name ? ` ${quote(shorten(name, role === 'link' ? LINK_CHARS : NAME_CHARS))}` : '';
  const plainLink = role === 'link' && !states && !node.children.some((c) => hasActionable(c));
  out.push({ depth, text: `- ${role}${shown}${states} [ref=${line.ref}]${value}`, isText: false, ...(plainLink ? { link: `${shown.trim() || '""'} [ref=${line.ref}]` } : {}) });
  // Actionable things nested inside (a button in a clickable card, a select's
  // options) keep their own lines; their text was folded into the name above.
  for (const child of node.children) renderNestedActionables(child, depth + 1, out);
}

function hasActionable(node: Node): boolean {
  return actionable(node.line) || node.children.some(hasActionable);
}

/** Three or more plain links in a row at one depth become `- links: "A" [ref=e1], "B" [ref=e2], …` lines. */
function groupLinks(out: Out[]): Out[] {
  const grouped: Out[] = [];
  for (let i = 0; i < out.length;) {
    let j = i;
    while (j < out.length && out[j].link && out[j].depth === out[i].depth) j++;
    if (j - i < 3) {
      grouped.push(out[i]);
      i += 1;
      continue;
    }
    let line = '';
    for (const o of out.slice(i, j)) {
      if (line && line.length + o.link!.length + 2 > LINK_LINE) { grouped.push({ depth: out[i].depth, text: `- links: ${line}`, isText: false }); line = ''; }
      line = line ? `${line}, ${o.link}` : o.link!;
    }
    grouped.push({ depth: out[i].depth, text: `- links: ${line}`, isText: false });
    i = j;
  }
  return grouped;
}

function renderNestedActionables(node: Node, depth: number, out: Out[]): void {
  if (actionable(node.line)) return renderActionable(node, depth, out);
  for (const child of node.children) renderNestedActionables(child, depth, out);
}

/** The words inside a node, as a name for an element that has none (a link around an image and a heading). */
function textOf(node: Node, withActionables = true): string {
  const parts: string[] = [];
  const visit = (n: Node) => {
    const l = n.line;
    if (l.role.startsWith('/') || (!withActionables && actionable(l))) return;
    if (l.name) parts.push(l.name);
    else if (l.value) parts.push(l.value);
    if (!l.name) n.children.forEach(visit);
  };
  node.children.forEach(visit);
  const heading = node.children.find((c) => c.line.role === 'heading')?.line.name;
  return (heading || parts.join(' ')).replace(/\s+/g, ' ').trim();
}

/** A run of plain text lines at one depth shows its first line and how many follow: an outline, not the text. */
function foldTextRuns(out: Out[]): Out[] {
  const folded: Out[] = [];
  for (let i = 0; i < out.length;) {
    let j = i + 1;
    while (out[i].isText && j < out.length && out[j].isText && out[j].depth === out[i].depth) j++;
    folded.push(j - i > 1 ? { ...out[i], text: `${out[i].text} (+${j - i - 1} more)` } : out[i]);
    i = j;
  }
  return folded;
}

function level(line: AriaLine): string {
  return line.attrs.find((a) => a.startsWith('level='))?.slice(6) ?? '';
}

export function shorten(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.lastIndexOf(' ', max - 1);
  return `${flat.slice(0, cut > max / 2 ? cut : max - 1)}…`;
}

function quote(s: string): string {
  return JSON.stringify(s);
}
