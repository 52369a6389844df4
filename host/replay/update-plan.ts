// --update-plan: each healed selector is replaced inside the (call …) form the
// heal happened in, found by its line and column, so the same selector in
// another call, a comment or the recorded fingerprint is left alone.
// The new selector is the page's text as much as the recording's: it is
// printed by the RTFS printer (quoted, `{{` kept as text), never pasted.
import { quote } from '../rtfs/printer.js';
import type { Heal } from './heal.js';

export function rewriteSelectors(source: string, heals: Heal[]): string {
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) if (source[i] === '\n') lineStarts.push(i + 1);
  // Back to front, so earlier offsets stay valid after each replacement.
  const edits = heals.map((h) => ({ h, start: (lineStarts[h.line - 1] ?? 0) + h.column - 1 }))
    .sort((a, b) => b.start - a.start);
  let out = source;
  const done = new Set<number>();
  for (const { h, start } of edits) {
    if (done.has(start)) continue;
    done.add(start);
    const end = formEnd(out, start);
    const form = out.slice(start, end);
    const replaced = form.split(`:selector ${quote([h.old_selector])}`).join(`:selector ${quote([h.new_selector])}`);
    out = out.slice(0, start) + replaced + out.slice(end);
  }
  return out;
}

/** The offset just past the list starting at `start`, skipping strings and comments. */
function formEnd(s: string, start: number): number {
  let depth = 0;
  for (let i = start; i < s.length; i++) {
    const c = s[i];
    if (c === '"') { for (i++; i < s.length && s[i] !== '"'; i++) if (s[i] === '\\') i++; continue; }
    if (c === ';') { while (i < s.length && s[i] !== '\n') i++; continue; }
    if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') { depth--; if (depth === 0) return i + 1; }
  }
  return s.length;
}
