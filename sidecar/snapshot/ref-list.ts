// Ref lists: how a cut view (fit.ts) prints links once their lines no longer
// fit — each as `e12 "Home"` (`e14 textbox "Search": "ada"` for any other role, with
// its states and value), joined by " · " on lines of about a fixed length, so
// every element keeps a ref the agent can act on; and the one line a region
// folds into when even that does not fit.
import { shorten, type Item, type Out } from './compact.js';

/** Lines of a list stop near this length (a line is never split between parts). */
const LIST_LINE = 160;
const SEPARATOR = ' · ';

// Names and values are page text: printed as JSON strings, so a name that reads "Home · e13 Pay" cannot pass
// for a second entry of the list.
function itemText(item: Item, chars: number): string {
  const name = item.name ? JSON.stringify(shorten(item.name, chars)) : '';
  const value = item.value ? `: ${JSON.stringify(shorten(item.value, chars))}` : '';
  return [item.ref, item.role === 'link' ? '' : item.role, item.states, `${name}${value}`].filter(Boolean).join(' ');
}

/** `e1 "Home" · e2 "World"`, with links of one name after another sharing it: `e3,e4 "Story"`. */
function tokens(items: Item[], chars: number): Array<{ text: string; items: Item[] }> {
  const out: Array<{ text: string; items: Item[] }> = [];
  for (const item of items) {
    const last = out.at(-1);
    const before = last?.items.at(-1);
    if (last && before && item.role === 'link' && before.role === 'link' && item.name && item.name === before.name) {
      last.text = last.text.replace(/^(\S+)/, `$1,${item.ref}`);
      last.items.push(item);
    } else out.push({ text: itemText(item, chars), items: [item] });
  }
  return out;
}

/** The items as lines of `prefix e1 "A" · e2 "B"`, each line with the items it holds. */
function wrapped(items: Item[], chars: number, depth: number, prefix: string): Out[] {
  const lines: Out[] = [];
  let text = '';
  let held: Item[] = [];
  const flush = () => { if (held.length) lines.push({ depth, text: `${prefix}${text}`, isText: false, items: held }); };
  for (const t of tokens(items, chars)) {
    if (text && text.length + SEPARATOR.length + t.text.length > LIST_LINE) { flush(); text = ''; held = []; }
    text = text ? `${text}${SEPARATOR}${t.text}` : t.text;
    held = [...held, ...t.items];
  }
  flush();
  return lines;
}

/** What a region holds: `45 links, 1 textbox, 3 headings`. */
export function summary(region: Out[]): string {
  const counts = new Map<string, number>();
  const add = (kind: string, n = 1) => counts.set(kind, (counts.get(kind) ?? 0) + n);
  for (const line of region.slice(1)) {
    for (const item of line.items ?? []) add(item.role);
    if (/^- h\d /.test(line.text)) add('heading');
  }
  const plural = (k: string, n: number) => `${n} ${k}${n > 1 ? (/(x|ch|sh|s)$/.test(k) ? 'es' : 's') : ''}`;
  return [...counts].sort((a, b) => b[1] - a[1]).map(([k, n]) => plural(k, n)).join(', ') || 'nothing to act on';
}

/** A region folded to a count, its refs left out: `- contentinfo (200 links; folded: {"ref":"e9"} opens it)`. */
export function countRegion(region: Out[]): Out[] {
  const [first] = region;
  const head = first.text.replace(/:$/, '');
  return [{ ...first, items: undefined, fold: true, text: `${head} (${summary(region)}; folded: {"ref":"${first.section!.ref}"} opens it)` }];
}

/** Elements as ref lists: `- links: e1 "Home" · e2 "World"` (`- elements:` when not all are links). */
export function listLinks(line: Out, chars: number): Out[] {
  const items = line.items ?? [];
  return wrapped(items, chars, line.depth, items.every((i) => i.role === 'link') ? '- links: ' : '- elements: ');
}
