// A compact view longer than its budget is cut where the agent does not act,
// and keeps a ref for every element as long as the budget allows:
//   1. the running text goes (its first lines are a reading aid, not a place to act);
//   2. link names shrink to their first words;
//   3. links print as compact ref lists (`e12 "Home" · e13 "World"`), names cut
//      to their first words, then to fewer; then buttons and fields join them;
//   4. only then do regions fold into one line each that says what they hold
//      and which ref opens them, their refs left out — footer, asides and
//      navigation before the rest, the larger first; the main content, forms,
//      search and dialogs never fold.
// Every line kept is whole, so every ref shown works. What still does not fit
// (a page whose main content alone is larger) is split into parts (paging.ts).
import { printLines, shorten, type Out } from './compact.js';
import { countRegion, listLinks } from './ref-list.js';

/** Link names in a cut view: enough words to tell links apart. */
const CUT_LINK_CHARS = 14;
/** Names in ref lists, first roomy, then at the least that still tells elements apart. */
const LIST_NAME_CHARS = [14, 8];

/** Folded first, in this order; other regions after them; where the agent acts, never. */
const FOLD_FIRST = ['contentinfo', 'complementary', 'navigation', 'banner'];
const NEVER = new Set(['main', 'form', 'search', 'dialog', 'alertdialog']);

interface Fitted { text: string; cut: boolean }

interface Step { shortened: boolean; lists: boolean; counted: number }

export function fitLines(lines: Out[], budget: number): Fitted {
  const whole = printLines(lines);
  if (whole.length <= budget) return { text: whole, cut: false };
  const textless = lines.filter((l) => !l.isText);
  const step: Step = { shortened: false, lists: false, counted: 0 };
  const render = (kept: Out[]) => `${header(step)}\n${printLines(kept)}`;
  const fits = (kept: Out[]) => render(kept).length <= budget;
  if (fits(textless)) return { text: render(textless), cut: true };
  step.shortened = true;
  let kept = textless.map(shortLinkNames);
  if (fits(kept)) return { text: render(kept), cut: true };
  step.lists = true;
  for (const chars of LIST_NAME_CHARS) {
    kept = listed(textless, chars, isLinkLine);
    if (fits(kept)) return { text: render(kept), cut: true };
  }
  // Then every element one can act on joins the lists, buttons and fields too (`e7 button "Send"`).
  const linksListed = kept;
  kept = listed(textless, LIST_NAME_CHARS.at(-1)!, (l) => !!l.items);
  if (fits(kept)) return { text: render(kept), cut: true };
  // Past that, regions lose their refs to a count, the larger first; once that makes room,
  // fields and buttons get their own lines back if they fit.
  const folded: string[] = [];
  for (let at = nextToFold(kept); at !== null && !fits(kept); at = nextToFold(kept)) {
    folded.push(kept[at].section!.ref!);
    kept = fold(kept, at, countRegion);
    step.counted += 1;
  }
  const roomier = folded.reduce((ls, ref) => { const at = ls.findIndex((l) => l.section?.ref === ref); return at < 0 ? ls : fold(ls, at, countRegion); }, linksListed);
  return { text: render(fits(roomier) ? roomier : kept), cut: true };
}

function header({ shortened, lists, counted }: Step): string {
  const parts = ['running text left out'];
  if (shortened) parts.push('link names shortened');
  if (lists) parts.push('elements listed as "ref name"');
  if (counted) parts.push(`${counted} region${counted > 1 ? 's' : ''} folded to a count, their refs left out (web.snapshot {"ref":…} opens one)`);
  return `# cut to fit max_chars: ${parts.join(', ')}; a larger max_chars or mode "full" shows everything`;
}

function shortLinkNames(line: Out): Out {
  if (!/^- links?[: ]/.test(line.text)) return line;
  return { ...line, text: line.text.replace(/"((?:[^"\\]|\\.)*)"(?= \[ref=)/g, (_m, name: string) => JSON.stringify(shorten(JSON.parse(`"${name}"`) as string, CUT_LINK_CHARS))) };
}

const isLinkLine = (l: Out) => !!l.items && /^- links: /.test(l.text);

/** Every run of lines that `joins` at one depth as one ref list with names of `chars`; other lines as they are. */
function listed(lines: Out[], chars: number, joins: (l: Out) => boolean): Out[] {
  const out: Out[] = [];
  for (let i = 0; i < lines.length;) {
    let j = i;
    while (j < lines.length && lines[j].depth === lines[i].depth && joins(lines[j])) j++;
    if (j === i) { out.push(lines[i]); i += 1; continue; }
    out.push(...listLinks({ ...lines[i], items: lines.slice(i, j).flatMap((l) => l.items!) }, chars));
    i = j;
  }
  return out;
}

function subtreeEnd(lines: Out[], at: number): number {
  let end = at + 1;
  while (end < lines.length && lines[end].depth > lines[at].depth) end++;
  return end;
}

function fold(lines: Out[], at: number, into: (region: Out[]) => Out[]): Out[] {
  const end = subtreeEnd(lines, at);
  return [...lines.slice(0, at), ...into(lines.slice(at, end)), ...lines.slice(end)];
}

/** The region to fold next: by role class, then the one whose lines cost the most. */
function nextToFold(lines: Out[]): number | null {
  let best: { at: number; rank: number; size: number } | null = null;
  for (const [at, line] of lines.entries()) {
    if (!line.section?.ref || NEVER.has(line.section.role) || line.fold) continue;
    const end = subtreeEnd(lines, at);
    if (end - at < 2) continue; // a region of one line says as much as its count
    const first = FOLD_FIRST.indexOf(line.section.role);
    const rank = first >= 0 ? first : FOLD_FIRST.length;
    const size = printLines(lines.slice(at, end)).length;
    if (!best || rank < best.rank || (rank === best.rank && size > best.size)) best = { at, rank, size };
  }
  return best?.at ?? null;
}
