// Ref lists: how a cut view (fit.ts) prints links once their lines no longer
// fit — each as `e12 "Home"` (`e14 textbox "Search": "ada"` for any other role, with
// its states and value), joined by " · " on lines of about a fixed length, so
// every element keeps a ref the agent can act on; and the one line a region
// folds into when even that does not fit. Past that, a tight form keeps the
// refs still: names cut to one word (`e12 "Home"`, `e31 "…2"` after "Page 1"), every element of one
// role and name in a list sharing one entry (`e3,e9,e40 "Share"`, `e5,e6 button "Add…"`), entries apart by a
// single space on longer lines — names are quoted, so a space is enough.
import { shorten, type Item, type Out } from './compact.js';

/** How a list prints: names cut to `chars`, or to their first word in the tight form. */
export interface ListForm { chars: number; tight: boolean }

/** Lines of a list stop near this length (a line is never split between parts); tight lines run longer. */
const LIST_LINE = 160;
const TIGHT_LINE = 400;
const SEPARATOR = ' · ';
/** An entry shares its name among at most this many refs (~250 characters), so no line outgrows a part of a paged answer. */
const SHARED_REFS = 40;
/** A first word longer than this is cut too (an address, a run of letters). */
const WORD_CHARS = 10;

/**
 * The name cut to one word: its first, or, when it starts as the name before it in the list did
 * ("Page 1", "Page 2"), the first word where it differs ("…2"); "…" marks the words left out.
 */
function oneWord(text: string, before = ''): string {
  const words = text.replace(/\s+/g, ' ').trim().split(' ');
  const previous = before.replace(/\s+/g, ' ').trim().split(' ');
  let at = 0;
  while (at < words.length - 1 && words[at] === previous[at]) at++;
  const word = words[at].length > WORD_CHARS ? `${words[at].slice(0, WORD_CHARS - 1)}…` : words[at];
  return `${at > 0 ? '…' : ''}${word}${at < words.length - 1 && !word.endsWith('…') ? '…' : ''}`;
}

// Names and values are page text: printed as JSON strings, so a name that reads "Home · e13 Pay" cannot pass
// for a second entry of the list.
function itemText(item: Item, form: ListForm, before: string): string {
  const name = item.name ? JSON.stringify(form.tight ? oneWord(item.name, before) : shorten(item.name, form.chars)) : '';
  const value = item.value ? `: ${JSON.stringify(form.tight ? oneWord(item.value) : shorten(item.value, form.chars))}` : '';
  return [item.ref, item.role === 'link' ? '' : item.role, item.states, `${name}${value}`].filter(Boolean).join(' ');
}

/**
 * What elements share one entry by: role, states and name. A field with a value never shares (what it
 * holds is its own); an element without a name neither (nothing says the two are alike).
 */
function shareKey(item: Item): string | null {
  return item.name && !item.value ? `${item.role} ${item.states} ${item.name}` : null;
}

/**
 * `e1 "Home" · e2 "World"`, with elements of one role and name after another sharing it: `e3,e4 "Story"`,
 * `e7,e8 button "Add to basket"` (in the tight form, alike anywhere in the list: the entry stays where the
 * first was).
 */
function tokens(items: Item[], form: ListForm): Array<{ text: string; items: Item[] }> {
  const out: Array<{ text: string; items: Item[] }> = [];
  const byKey = new Map<string, { text: string; items: Item[] }>();
  let previousName = '';
  for (const item of items) {
    const last = out.at(-1);
    const before = last?.items.at(-1);
    const key = shareKey(item);
    const alike = key === null ? undefined : form.tight ? byKey.get(key) : before && shareKey(before) === key ? last : undefined;
    const shared = alike && alike.items.length < SHARED_REFS ? alike : undefined;
    if (shared) {
      shared.text = shared.text.replace(/^(\S+)/, `$1,${item.ref}`);
      shared.items.push(item);
      continue;
    }
    const token = { text: itemText(item, form, previousName), items: [item] };
    previousName = item.name;
    out.push(token);
    if (key !== null) byKey.set(key, token);
  }
  return out;
}

/** The items as lines of `prefix e1 "A" · e2 "B"`, each line with the items it holds. */
function wrapped(items: Item[], form: ListForm, depth: number, prefix: string): Out[] {
  const lines: Out[] = [];
  const [separator, room] = form.tight ? [' ', TIGHT_LINE] : [SEPARATOR, LIST_LINE];
  let text = '';
  let held: Item[] = [];
  const flush = () => { if (held.length) lines.push({ depth, text: `${prefix}${text}`, isText: false, items: held }); };
  for (const t of tokens(items, form)) {
    if (text && text.length + separator.length + t.text.length > room) { flush(); text = ''; held = []; }
    text = text ? `${text}${separator}${t.text}` : t.text;
    held.push(...t.items);
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
export function listLinks(line: Out, form: ListForm): Out[] {
  const items = line.items ?? [];
  return wrapped(items, form, line.depth, items.every((i) => i.role === 'link') ? '- links: ' : '- elements: ');
}

/**
 * A region cut after its first `kept` lines (`kept` ≥ 1): those stay, and one line says what the rest held
 * and which refs it spans: `- … the rest: 1160 links, 20 buttons, e3001–e9120 (folded: {"ref":"e7"} opens the region)`.
 */
export function cutRegion(region: Out[], kept: number): Out[] {
  const [first] = region;
  const rest = region.slice(1 + kept);
  const refs = rest.flatMap((l) => (l.items ?? []).map((i) => i.ref));
  const span = refs.length ? `, ${refs[0]}–${refs.at(-1)}` : '';
  const line: Out = {
    depth: first.depth + 1, isText: false, fold: true,
    text: `- … the rest: ${summary([first, ...rest])}${span} (folded: {"ref":"${first.section!.ref}"} opens the region)`,
  };
  return [{ ...first, fold: true }, ...region.slice(1, 1 + kept), line];
}
