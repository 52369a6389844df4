// A compact view longer than its budget is cut where the agent does not act:
// first the running text goes (its first lines are a reading aid, not a place
// to act), then whole regions fold into one line each that says what they
// hold and how to open them — footer, asides and navigation before the rest,
// the larger first; the main content, forms, search and dialogs never fold.
// Every line kept is whole, so every ref shown works. What still does not fit
// (a page whose main content alone is larger) is split into parts (paging.ts).
import { printLines, shorten, type Out } from './compact.js';

/** Link names in a cut view: enough words to tell links apart. */
const CUT_LINK_CHARS = 14;

/** Folded first, in this order; other regions after them; where the agent acts, never. */
const FOLD_FIRST = ['contentinfo', 'complementary', 'navigation', 'banner'];
const NEVER = new Set(['main', 'form', 'search', 'dialog', 'alertdialog']);

interface Fitted { text: string; cut: boolean }

export function fitLines(lines: Out[], budget: number): Fitted {
  const whole = printLines(lines);
  if (whole.length <= budget) return { text: whole, cut: false };
  let kept = lines.filter((l) => !l.isText);
  // Then link names shrink to their first words, so every ref stays before any region folds.
  const shortened = `${header(0, false)}\n${printLines(kept)}`.length > budget;
  if (shortened) kept = kept.map(shortLinkNames);
  let folded = 0;
  const render = () => `${header(folded, shortened)}\n${printLines(kept)}`;
  while (render().length > budget) {
    const at = nextToFold(kept);
    if (at === null) break;
    const end = subtreeEnd(kept, at);
    kept = [...kept.slice(0, at), foldedLine(kept, at, end), ...kept.slice(end)];
    folded += 1;
  }
  return { text: render(), cut: true };
}

function header(folded: number, shortened: boolean): string {
  const regions = folded ? ` and ${folded} region${folded > 1 ? 's' : ''} folded (each line says how to open it)` : '';
  return `# cut to fit max_chars: running text left out${shortened ? ', link names shortened' : ''}${regions}; a larger max_chars or mode "full" shows everything`;
}

function shortLinkNames(line: Out): Out {
  if (!/^- links?[: ]/.test(line.text)) return line;
  return { ...line, text: line.text.replace(/"((?:[^"\\]|\\.)*)"(?= \[ref=)/g, (_m, name: string) => JSON.stringify(shorten(JSON.parse(`"${name}"`) as string, CUT_LINK_CHARS))) };
}

function subtreeEnd(lines: Out[], at: number): number {
  let end = at + 1;
  while (end < lines.length && lines[end].depth > lines[at].depth) end++;
  return end;
}

/** The region to fold next: by role class, then the one whose lines cost the most. */
function nextToFold(lines: Out[]): number | null {
  let best: { at: number; rank: number; size: number } | null = null;
  for (const [at, line] of lines.entries()) {
    if (!line.section?.ref || NEVER.has(line.section.role) || line.text.endsWith(')')) continue;
    const end = subtreeEnd(lines, at);
    if (end - at < 3) continue; // folding two lines saves nothing
    const first = FOLD_FIRST.indexOf(line.section.role);
    const rank = first >= 0 ? first : FOLD_FIRST.length;
    const size = printLines(lines.slice(at, end)).length;
    if (!best || rank < best.rank || (rank === best.rank && size > best.size)) best = { at, rank, size };
  }
  return best?.at ?? null;
}

/** `- navigation "Main": 45 links, 2 buttons, 3 headings (folded: {"ref":"e17"} opens it)` */
function foldedLine(lines: Out[], at: number, end: number): Out {
  const counts = new Map<string, number>();
  for (const l of lines.slice(at + 1, end)) {
    const role = /^- (\w+)/.exec(l.text)?.[1] ?? '';
    const kind = role === 'links' || role === 'link' ? 'link' : /^h\d$/.test(role) ? 'heading' : l.section ? '' : role;
    const n = role === 'links' ? (l.text.match(/\[ref=/g)?.length ?? 0) : 1;
    if (kind) counts.set(kind, (counts.get(kind) ?? 0) + n);
  }
  const what = [...counts].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n} ${k}${n > 1 ? (k.endsWith('x') ? 'es' : 's') : ''}`).join(', ');
  const head = lines[at].text.replace(/:$/, '');
  return { depth: lines[at].depth, isText: false, text: `${head}: ${what || 'nothing to act on'} (folded: {"ref":"${lines[at].section!.ref}"} opens it)` };
}
