// An aria snapshot prints a text box's value, a password's and a card
// number's included. Those values are read from the fields themselves (type
// password, or payment hints as field-kind.ts reads them; off-tree-in-page.ts
// reads them in the snapshot's one pass over each frame) and blanked in the
// snapshot before it goes anywhere: the agent, the chain, the diff history.
import { secretBook } from '../secrets/book.js';

export const REDACTED = '[REDACTED]';

const VALUE_LINE = /^(\s*- (?:textbox|searchbox|combobox|spinbutton)\b.*?): (.*)$/;

/** Text boxes whose shown value is one of `secrets` show [REDACTED] instead ({{secret:NAME}} for a vault value webcap typed). */
export function redactFieldValues(yaml: string, secrets: Set<string>): string {
  if (secrets.size === 0) return yaml;
  return yaml.split('\n').map((line) => {
    const m = VALUE_LINE.exec(line);
    const value = m ? unquote(m[2]) : '';
    return m && secrets.has(value) ? `${m[1]}: ${secretBook.labelOf(value) ?? REDACTED}` : line;
  }).join('\n');
}

function unquote(value: string): string {
  if (!value.startsWith('"')) return value;
  try { return JSON.parse(value) as string; } catch { return value; }
}
