// A compact view longer than its budget is cut where the agent does not act,
// and keeps a ref for every element as long as the budget allows:
//   1. the running text goes (its first lines are a reading aid, not a place to act);
//   2. link names shrink to their first words;
//   3. links print as ref lists (as the uncut view's link lines, `e12 "Home" · e13 "World"`), names cut
//      to their first words, then to fewer; then buttons and fields join them,
//      outside the main content, forms, search and dialogs first;
//   4. the lists go tight: names cut to one word (the first, or the first
//      that differs from the name before: "…2" after "Page 1"), links of one name
//      sharing one entry (`e3,e9 "Share"`), entries apart by a space;
//   5. only then do regions fold — footer, asides and navigation before the
//      rest, the larger first; the main content, forms, search and dialogs
//      never fold. A region folds whole into one line that says what it holds
//      and which ref opens it, or, when that is more than needed, is cut after
//      its first lines and a line says what the rest holds (its kinds, counts
//      and ref span) and which ref opens it.
// Every line kept is whole, so every ref shown works. What still does not fit
// (a page whose main content alone is larger) is split into parts (paging.ts).
import { LINK_CHARS, printLines, shorten, type Out } from './compact.js';
import { relinked } from './link-runs.js';
import { foldToFit, insideNever } from './fold.js';
import { listLinks, type ListForm } from './ref-list.js';

/** Link names in a cut view: enough words to tell links apart. */
const CUT_LINK_CHARS = 14;
/** Names in ref lists, first roomy, then at the least that still tells elements apart. */
const LIST_NAME_CHARS = [14, 8];
const SHORT: ListForm = { chars: LIST_NAME_CHARS.at(-1)!, tight: false };
const TIGHT: ListForm = { chars: 0, tight: true };

interface Fitted { text: string; cut: boolean }
interface Rung { lines: Out[]; says: string[] }
type Joins = (line: Out, at: number) => boolean;

export function fitLines(lines: Out[], budget: number): Fitted {
  const whole = printLines(lines);
  if (whole.length <= budget) return { text: whole, cut: false };
  const textless = lines.filter((l) => !l.isText);
  const acted = insideNever(textless);
  const render = (lines: Out[], says: string[]) => `${header(says)}\n${printLines(lines)}`;
  const fits = (rung: Rung) => render(rung.lines, rung.says).length <= budget;
  const links: Joins = (l) => isLinkLine(l);
  const outside: Joins = (l, at) => isLinkLine(l) || (!!l.items && !acted[at]);
  const every: Joins = (l) => !!l.items;
  const tightened = new Map<Joins, Out[]>(); // each tight form is listed once: the folds below start from it again
  const tightLists = (joins: Joins) => tightened.get(joins) ?? tightened.set(joins, listed(textless, TIGHT, joins)).get(joins)!;
  const listedSays = ['elements listed as "ref name"'];
  const tightSays = [...listedSays, 'names cut to one word'];
  const rungs: Array<() => Rung> = [
    () => ({ lines: textless, says: [] }),
    () => ({ lines: textless.map(shortLinkNames), says: ['link names shortened'] }),
    ...LIST_NAME_CHARS.map((chars) => () => ({ lines: listed(textless, { chars, tight: false }, links), says: listedSays })),
    () => ({ lines: listed(textless, SHORT, outside), says: listedSays }),
    () => ({ lines: listed(textless, SHORT, every), says: listedSays }),
    () => ({ lines: tightLists(outside), says: tightSays }),
    () => ({ lines: tightLists(every), says: tightSays }),
  ];
  for (const rung of rungs) {
    const r = rung();
    if (fits(r)) return { text: render(r.lines, r.says), cut: true };
  }
  // Past that, regions fold. The fields and buttons where the agent acts keep their own lines while that costs
  // no more refs elsewhere than the number of elements it shows whole: a ref for a ref.
  const [roomy, tight] = [outside, every].map((joins) => {
    const base = tightLists(joins);
    const all = refCount(base);
    const answer = (ls: Out[]) => render(ls, [...tightSays, folds(all - refCount(ls), ls)]);
    const kept = foldToFit(base, (ls) => answer(ls).length <= budget);
    return { text: answer(kept), refs: refCount(kept), whole: kept.filter((l) => l.items && !isListLine(l)).length };
  });
  const roomyWins = roomy.text.length <= budget && roomy.refs + roomy.whole >= tight.refs;
  return { text: roomyWins ? roomy.text : tight.text, cut: true };
}

function header(says: string[]): string {
  return `# cut to fit max_chars: ${['running text left out', ...says].join(', ')}; a larger max_chars or mode "full" shows everything`;
}

/** What the folds left out, for the header: how many regions, how many refs, and how to open one. */
function folds(refsLeftOut: number, lines: Out[]): string {
  const counted = lines.filter((l) => l.fold && l.section).length - lines.filter((l) => l.fold && !l.section).length;
  const cut = lines.filter((l) => l.fold && !l.section).length;
  const parts = [
    counted ? `${counted} region${counted > 1 ? 's' : ''} folded to a count` : '',
    cut ? `${cut} region${cut > 1 ? 's' : ''} cut after its first lines` : '',
  ].filter(Boolean);
  if (!parts.length) return 'nothing folded';
  return `${parts.join(', ')}, ${refsLeftOut} refs left out (web.snapshot {"ref":…} opens a region)`;
}

function refCount(lines: Out[]): number {
  return lines.reduce((n, l) => n + (l.items?.length ?? 0), 0);
}

function shortLinkNames(line: Out): Out {
  if (isLinkLine(line)) return relinked(line, CUT_LINK_CHARS);
  if (!/^- link /.test(line.text) || !line.items) return line;
  const [item] = line.items;
  const [was, now] = [LINK_CHARS, CUT_LINK_CHARS].map((chars) => `- link ${JSON.stringify(shorten(item.name, chars))}`);
  return line.text.startsWith(`${was} `) ? { ...line, text: `${now}${line.text.slice(was.length)}` } : line;
}

const isLinkLine = (l: Out) => !!l.items && /^- links: /.test(l.text);
const isListLine = (l: Out) => /^- (links|elements): /.test(l.text);

/** Every run of lines that `joins` at one depth as one ref list in `form`; other lines as they are. */
function listed(lines: Out[], form: ListForm, joins: Joins): Out[] {
  const out: Out[] = [];
  for (let i = 0; i < lines.length;) {
    let j = i;
    while (j < lines.length && lines[j].depth === lines[i].depth && joins(lines[j], j)) j++;
    if (j === i) { out.push(lines[i]); i += 1; continue; }
    out.push(...listLinks({ ...lines[i], items: lines.slice(i, j).flatMap((l) => l.items!) }, form));
    i = j;
  }
  return out;
}
