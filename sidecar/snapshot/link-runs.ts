// Runs of plain links in the compact view (menus, link lists, teasers) share
// lines ref first, as a cut view's ref lists do: `- links: e59 "Tech" · e64 "Reviews"`.
// A link named as the one before it (an image and a title to one story) adds
// only its ref: `e2,e3 "Bridge opens"`; a link inside aria-hidden content says so
// (`e7 [aria-hidden] "Menu"`). Names are page text printed as JSON
// strings, so a name that reads `Home" · e13 "Pay` cannot pass for an entry.
import { shorten, type Item, type Out } from './compact.js';

/** Link lines stop near this length. */
const LINK_LINE = 140;
const SEPARATOR = ' · ';

/** `e1 "A"`, `e2,e3 "B"`: one entry per run of links of one name (an unnamed link is its ref alone). */
function linkEntries(items: Item[], chars: number): Array<{ text: string; items: Item[] }> {
  const entries: Array<{ refs: string[]; name: string; states: string; items: Item[] }> = [];
  for (const item of items) {
    const last = entries.at(-1);
    if (last && item.name && last.name === item.name && last.states === item.states) { last.refs.push(item.ref); last.items.push(item); continue; }
    entries.push({ refs: [item.ref], name: item.name, states: item.states, items: [item] });
  }
  return entries.map((e) => ({ text: [e.refs.join(','), e.states, e.name ? JSON.stringify(shorten(e.name, chars)) : ''].filter(Boolean).join(' '), items: e.items }));
}

/** The links of one run as `- links:` lines of about LINK_LINE characters, each line with the links it holds. */
export function linkLines(links: Out[], depth: number, chars: number): Out[] {
  const lines: Out[] = [];
  let text = '';
  let held: Item[] = [];
  const flush = () => lines.push({ depth, text: `- links: ${text}`, isText: false, items: held });
  for (const entry of linkEntries(links.flatMap((o) => o.items ?? []), chars)) {
    if (text && text.length + SEPARATOR.length + entry.text.length > LINK_LINE) { flush(); text = ''; held = []; }
    text = text ? `${text}${SEPARATOR}${entry.text}` : entry.text;
    held.push(...entry.items);
  }
  flush();
  return lines;
}

/** A `- links:` line printed again with names cut to `chars` (its entries and refs stay as they were). */
export function relinked(line: Out, chars: number): Out {
  return { ...line, text: `- links: ${linkEntries(line.items ?? [], chars).map((e) => e.text).join(SEPARATOR)}` };
}

/**
 * Every ref a view prints: `[ref=e12]` on element lines, and the refs of `- links:` / `- elements:` lines
 * (`e12 "Home" · e13,e14 "Story"`). Quoted names are left out first, so a name that reads `e99` is no ref.
 */
export function refsInView(view: string): string[] {
  const refs: string[] = [];
  for (const line of view.split('\n')) {
    const bare = line.replace(/"(?:[^"\\]|\\.)*"/g, '""');
    for (const m of bare.matchAll(/\[ref=([^\]]+)\]/g)) refs.push(m[1]);
    const list = /^\s*[-+ ]?\s*- (?:links|elements): (.*)$/.exec(bare);
    if (list) for (const m of list[1].matchAll(/(?<=^|[\s,])((?:f\d+)?e\d+|wa-\d+)(?=[\s,]|$)/g)) refs.push(m[1]);
  }
  return refs;
}
