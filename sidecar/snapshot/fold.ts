// Folding regions of a cut view (fit.ts) until it fits: footer, asides,
// navigation and banner before other regions, the larger first; where the
// agent acts (main content, forms, search, dialogs), never. A region folds
// whole into one line that counts what it holds — unless cutting it after its
// first lines is enough, so it keeps as many refs as the budget has room for.
import { printLines, type Out } from './compact.js';
import { countRegion, cutRegion } from './ref-list.js';

const FOLD_FIRST = ['contentinfo', 'complementary', 'navigation', 'banner'];
const NEVER = new Set(['main', 'form', 'search', 'dialog', 'alertdialog']);

function subtreeEnd(lines: Out[], at: number): number {
  let end = at + 1;
  while (end < lines.length && lines[end].depth > lines[at].depth) end++;
  return end;
}

/** For each line, whether it sits in a region the agent acts in (its own lines are kept roomiest). */
export function insideNever(lines: Out[]): boolean[] {
  const inside: boolean[] = [];
  const open: number[] = []; // depths of the NEVER sections around the line
  for (const line of lines) {
    while (open.length && open.at(-1)! >= line.depth) open.pop();
    inside.push(open.length > 0);
    if (line.section && NEVER.has(line.section.role)) open.push(line.depth);
  }
  return inside;
}

/** Folds regions of `lines` until `fits` holds or nothing is left to fold (the lines say what folded: fit.ts counts them). */
export function foldToFit(lines: Out[], fits: (lines: Out[]) => boolean): Out[] {
  let kept = lines;
  for (let at = nextToFold(kept); at !== null && !fits(kept); at = nextToFold(kept)) {
    const end = subtreeEnd(kept, at);
    const replace = (into: Out[]) => [...kept.slice(0, at), ...into, ...kept.slice(end)];
    const counted = replace(countRegion(kept.slice(at, end)));
    if (!fits(counted)) { kept = counted; continue; }
    // Folding it whole makes room: keep as many of its first lines as still fit.
    let [low, high] = [0, end - at - 2]; // lines of the region past its own kept (cutting after all but one saves nothing)
    while (low < high) {
      const mid = Math.ceil((low + high) / 2);
      if (fits(replace(cutRegion(kept.slice(at, end), mid)))) low = mid; else high = mid - 1;
    }
    return low > 0 ? replace(cutRegion(kept.slice(at, end), low)) : counted;
  }
  return kept;
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
