// A compact view longer than its budget is cut where the agent does not act,
// and keeps a ref for every element as long as the budget allows:
//   1. the running text goes (its first lines are a reading aid, not a place to act);
//   2. link names shrink to their first words;
//   3. elements print as compact ref lists (`e12 Home · e13 World`), and whole
//      regions fold into one such list each that says what they hold and how
//      to open them — footer, asides and navigation before the rest, the
//      larger first; the main content, forms, search and dialogs never fold;
//   4. names in the lists shrink further;
//   5. only then do regions fold into a count without their refs.
// Every line kept is whole, so every ref shown works. What still does not fit
// (a page whose main content alone is larger) is split into parts (paging.ts).
import { printLines, shorten, type Out } from './compact.js';
import { countRegion, listLinks, listRegion } from './ref-list.js';

/** Link names in a cut view: enough words to tell links apart. */
const CUT_LINK_CHARS = 14;
/** Names in ref lists, first roomy, then at the least that still tells elements apart. */
const LIST_NAME_CHARS = [14, 8];

/** Folded first, in this order; other regions after them; where the agent acts, never. */
const FOLD_FIRST = ['contentinfo', 'complementary', 'navigation', 'banner'];
const NEVER = new Set(['main', 'form', 'search', 'dialog', 'alertdialog']);

export interface Fitted { text: string; cut: boolean }

interface Step { shortened: boolean; lists: boolean; listed: number; counted: number }

export function fitLines(lines: Out[], budget: number): Fitted {
  const whole = printLines(lines);
  if (whole.length <= budget) return { text: whole, cut: false };
  const textless = lines.filter((l) => !l.isText);
  const render = (kept: Out[], step: Step) => `${header(step)}\n${printLines(kept)}`;
  const fits = (kept: Out[], step: Step) => render(kept, step).length <= budget;
  const plain = { shortened: false, lists: false, listed: 0, counted: 0 };
  if (fits(textless, plain)) return { text: render(textless, plain), cut: true };
  const shortened = textless.map(shortLinkNames);
  const step = { ...plain, shortened: true };
  if (fits(shortened, step)) return { text: render(shortened, step), cut: true };
  let kept = shortened;
  for (const chars of LIST_NAME_CHARS) {
    // Ref lists: first the link lines everywhere, then regions one by one.
    kept = listed(textless, chars);
    step.lists = true;
    step.listed = 0;
    if (fits(kept, step)) return { text: render(kept, step), cut: true };
    for (let at = nextToFold(kept); at !== null; at = nextToFold(kept)) {
      kept = fold(kept, at, (region) => listRegion(region, chars));
      step.listed += 1;
      if (fits(kept, step)) return { text: render(kept, step), cut: true };
    }
  }
  // Past that, regions lose their refs to a count, the larger first; a ref list's region counts as one.
  for (let at = nextToFold(kept, true); at !== null && !fits(kept, step); at = nextToFold(kept, true)) {
    kept = fold(kept, at, countRegion);
    step.counted += 1;
  }
  return { text: render(kept, step), cut: true };
}

function header({ shortened, lists, listed, counted }: Step): string {
  const parts = ['running text left out'];
  if (shortened) parts.push('link names shortened');
  if (lists) parts.push('links listed as "ref name"');
  if (listed) parts.push(`${listed} region${listed > 1 ? 's' : ''} folded into a ref list`);
  if (counted) parts.push(`${counted} region${counted > 1 ? 's' : ''} folded to a count (their refs left out)`);
  return `# cut to fit max_chars: ${parts.join(', ')}; a folded region opens with web.snapshot {"ref":…}; a larger max_chars or mode "full" shows everything`;
}

function shortLinkNames(line: Out): Out {
  if (!/^- links?[: ]/.test(line.text)) return line;
  return { ...line, text: line.text.replace(/"((?:[^"\\]|\\.)*)"(?= \[ref=)/g, (_m, name: string) => JSON.stringify(shorten(JSON.parse(`"${name}"`) as string, CUT_LINK_CHARS))) };
}

/** Every line of links as a ref list with names of `chars`; other lines as they are. */
function listed(lines: Out[], chars: number): Out[] {
  return lines.flatMap((l) => (/^- links: /.test(l.text) && l.items ? listLinks(l, chars) : [l]));
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

/**
 * The region to fold next: by role class, then the one whose lines cost the
 * most. A region already listed folds again only to a count (`toCount`).
 */
function nextToFold(lines: Out[], toCount = false): number | null {
  let best: { at: number; rank: number; size: number } | null = null;
  for (const [at, line] of lines.entries()) {
    if (!line.section?.ref || NEVER.has(line.section.role) || (line.fold && (!line.fold.refs || !toCount))) continue;
    const end = subtreeEnd(lines, at);
    if (end - at < 2 || (!toCount && end - at < 3)) continue; // folding two lines into a list saves nothing
    const first = FOLD_FIRST.indexOf(line.section.role);
    const rank = first >= 0 ? first : FOLD_FIRST.length;
    const size = printLines(lines.slice(at, end)).length;
    if (!best || rank < best.rank || (rank === best.rank && size > best.size)) best = { at, rank, size };
  }
  return best?.at ?? null;
}
