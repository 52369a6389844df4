// The compact view: what an agent needs to act and to know where it is, in as
// few characters as the page allows. Every element one can act on keeps its
// own line and ref (addressability is the point); everything else is folded:
// anonymous wrappers vanish, landmarks become section lines, headings stay,
// running text is cut to a first line, link URLs and images go (mode "full"
// has them). Built on Playwright's "ai" lines so refs are Playwright's own.
import { parseAriaLines, type AriaLine } from './aria-lines.js';
import { linkLines } from './link-runs.js';
import type { HiddenName } from './off-tree-in-page.js';

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
export const TEXT_CHARS = 40;
const NAME_CHARS = 60;
/** Links are most of a page's lines: their names are cut sooner (the ref, not the name, is what acting needs). */
export const LINK_CHARS = 28;

/**
 * `hidden`: inside aria-hidden content (the tree keeps it, with refs, but no names); `name`: the name the
 * in-page pass read for it (off-tree-in-page.ts), the one it would have were it not hidden.
 */
interface Node { line: AriaLine; children: Node[]; hidden?: boolean; name?: string }
/** One element one can act on, as a cut lists it (fit.ts): its ref, role, whole name, and states and value as printed. */
export interface Item { ref: string; role: string; name: string; states: string; value: string }
export interface Out {
  depth: number; text: string; isText: boolean;
  /** A landmark's role and ref, so a cut can fold it into one line. */ section?: { role: string; ref: string | null };
  /** A text line's words, for folding. */ value?: string;
  /** A plain link (no states, nothing to act on inside), which may share a line with others (link-runs.ts). */ link?: boolean;
  /** The elements the line gives a ref to, so a cut can list them compactly. */ items?: Item[];
  /** A region a cut folded into this one line. */ fold?: boolean;
}

export function compactView(yaml: string): string {
  return printLines(compactLines(yaml));
}

/** The view's lines before printing: a cut (fit.ts) works on them. */
export function compactLines(yaml: string, hidden: HiddenName[] = []): Out[] {
  const out: Out[] = [];
  const roots = buildTree(parseAriaLines(yaml));
  markHidden(roots, new Map(hidden.map((h) => [`${h.nth} ${h.key}`, h.name])), new Map(), false);
  for (const node of roots) render(node, 0, out);
  return foldInline(withoutLabels(out));
}

/** A field's label printed as text right before the field says again what its name says. */
function withoutLabels(out: Out[]): Out[] {
  return out.filter((o, i) => {
    const next = out[i + 1];
    const label = o.value?.replace(/\s+/g, ' ').trim();
    return !(o.isText && label && next && !next.isText && next.depth === o.depth && next.text.includes(quote(shorten(label, NAME_CHARS))));
  });
}

export function printLines(lines: Out[]): string {
  return lines.map((o) => `${' '.repeat(o.depth)}${o.text}`).join('\n'); // one space a level: nesting is shallow here
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

const FIELDS = new Set(['textbox', 'searchbox', 'combobox', 'checkbox', 'radio', 'spinbutton', 'slider', 'listbox', 'switch']);

/** What the tree shows of an element, as the in-page pass keys it (off-tree-in-page.ts). */
function keyOf(node: Node): string {
  const child = (role: string) => node.children.find((c) => c.line.role === role)?.line.value;
  const url = child('/url');
  if (node.line.role === 'link' && url != null) return `url:${url}`;
  if (FIELDS.has(node.line.role)) return `field:${child('/placeholder') ?? ''}`;
  return `text:${(node.line.value ?? (textOf(node) || node.line.name || '')).replace(/\s+/g, ' ').trim()}`;
}

/**
 * Marks elements inside aria-hidden content: those under a node the tree marks, and those the pass found
 * (the nth element with its key, counted in tree order as the pass counted in document order), naming them.
 * The pass reads the main frame only (off-tree.ts), so an iframe's elements are not counted: an iframe's link
 * to the same href would shift which main-frame line gets a name.
 */
function markHidden(nodes: Node[], found: Map<string, string>, seen: Map<string, number>, inside: boolean, inFrame = false): void {
  for (const node of nodes) {
    const under = inside || node.line.attrs.includes('aria-hidden');
    if (actionable(node.line)) {
      let name: string | undefined;
      if (!inFrame) {
        const key = keyOf(node);
        const nth = seen.get(key) ?? 0;
        seen.set(key, nth + 1);
        name = found.get(`${nth} ${key}`);
      }
      if (under || name !== undefined) node.hidden = true;
      if (name) node.name = name;
    }
    markHidden(node.children, found, seen, under, inFrame || node.line.role === 'iframe');
  }
}

function actionable(line: AriaLine): boolean {
  return line.ref !== null && (ACTIONABLE.has(line.role) || line.attrs.includes('cursor=pointer'));
}

function render(node: Node, depth: number, out: Out[]): void {
  const { line } = node;
  if (line.role.startsWith('/')) return;
  if (actionable(line)) return renderActionable(node, depth, out); // a clickable image included
  if (line.role === 'img') return;
  if (line.role === 'heading') {
    const title = line.name || textOf(node, false);
    // A heading whose only words are its link's (a teaser's title) is that link: an empty `- h3 ""` line says nothing.
    if (title) out.push({ depth, text: `- h${level(line)} ${quote(shorten(title, NAME_CHARS))}`, isText: false });
    for (const child of node.children) renderNestedActionables(child, title ? depth + 1 : depth, out); // a heading's "#" anchor link
    return;
  }
  if (line.role === 'text' || (line.value !== null && !node.children.length)) {
    if (line.value?.trim()) out.push(textLine(line.value, depth));
    return;
  }
  if (SECTIONS.has(line.role) && (line.name || line.role !== 'region')) {
    const start = out.length;
    out.push({ depth, text: `- ${line.role}${line.name ? ` ${quote(shorten(line.name, NAME_CHARS))}` : ''}:`, isText: false, section: { role: line.role, ref: line.ref } });
    renderChildren(node, depth + 1, out);
    if (out.length === start + 1) out.pop(); // an empty section says nothing
    return;
  }
  if (line.value?.trim()) out.push(textLine(line.value, depth));
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
  const name = node.name || line.name || placeholder || inlineText || textOf(node);
  // An element inside aria-hidden content says so: a screen reader skips it, and it often repeats one beside it.
  const kept = [...line.attrs.filter((a) => KEPT_STATES.test(a) && a !== 'active'), ...(node.hidden ? ['aria-hidden'] : [])];
  const states = kept.map((a) => ` [${a}]`).join('');
  const value = VALUED.has(role) && line.value ? `: ${shorten(line.value, TEXT_CHARS)}` : '';
  const shown = name ? ` ${quote(shorten(name, role === 'link' ? LINK_CHARS : NAME_CHARS))}` : '';
  const plainLink = role === 'link' && (!states || states === ' [aria-hidden]') && !node.children.some((c) => hasActionable(c));
  const items = [{ ref: line.ref!, role, name, states: states.trim(), value: VALUED.has(role) && line.value ? shorten(line.value, TEXT_CHARS) : '' }];
  out.push({ depth, text: `- ${role}${shown}${states} [ref=${line.ref}]${value}`, isText: false, items, ...(plainLink ? { link: true } : {}) });
  // Actionable things nested inside (a button in a clickable card, a select's
  // options) keep their own lines; their text was folded into the name above.
  for (const child of node.children) renderNestedActionables(child, depth + 1, out);
}

function hasActionable(node: Node): boolean {
  return actionable(node.line) || node.children.some(hasActionable);
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

function textLine(value: string, depth: number): Out {
  return { depth, text: `- text: ${shorten(value, TEXT_CHARS)}`, isText: true, value };
}

/** Text that says something: a separator ("|", ">", ")") or a lone symbol does not. */
function meaningful(o: Out): boolean {
  return (o.value ?? '').replace(/[^\p{L}\p{N}]+/gu, '').length >= 2;
}

/**
 * A run of text and plain links at one depth (a paragraph, a menu, a list of
 * teasers) reads as its first line of text, with how many more follow, then
 * its links sharing lines ref first: `- links: e1 "A" · e2 "B" · …`. An
 * outline, not the text; separators between links vanish.
 */
function foldInline(out: Out[]): Out[] {
  const folded: Out[] = [];
  for (let i = 0; i < out.length;) {
    const depth = out[i].depth;
    let j = i;
    while (j < out.length && out[j].depth === depth && (out[j].isText || out[j].link)) j++;
    if (j === i) {
      folded.push(out[i]);
      i += 1;
      continue;
    }
    const run = out.slice(i, j);
    const texts = run.filter((o) => o.isText && meaningful(o));
    const text = texts.length > 1 ? [{ ...texts[0], text: `${texts[0].text} (+${texts.length - 1} more)` }] : texts;
    const links = run.filter((o) => o.link);
    const linked = links.length > 1 ? linkLines(links, depth, LINK_CHARS) : links;
    // Whichever comes first in the page comes first here.
    folded.push(...(links.length && run.indexOf(links[0]) < run.indexOf(texts[0]) ? [...linked, ...text] : [...text, ...linked]));
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
