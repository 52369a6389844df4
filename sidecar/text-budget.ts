// Page text handed to an agent must fit its tool-result limit. Cut at a line
// boundary and say so in the text itself, so the cut can never pass for the
// whole page.
interface Budgeted {
  text: string;
  truncated: boolean;
  total_chars: number;
}

export function fitToBudget(text: string, maxChars: number, hint: string): Budgeted {
  if (text.length <= maxChars) return { text, truncated: false, total_chars: text.length };
  const totalLines = text.split('\n').length;
  // The notice counts against the budget too; its numbers are at most this long.
  const room = Math.max(0, maxChars - noticeFor(999_999_999, totalLines, text.length, hint).length - 1);
  const cut = text.lastIndexOf('\n', room);
  const kept = text.slice(0, cut > 0 ? cut : room);
  const shownLines = kept.length === 0 ? 0 : kept.split('\n').length;
  return { text: `${kept}\n${noticeFor(shownLines, totalLines, text.length, hint)}`, truncated: true, total_chars: text.length };
}

function noticeFor(shownLines: number, totalLines: number, totalChars: number, hint: string): string {
  return `[truncated: showing ${shownLines} of ${totalLines} lines; the full text is ${totalChars} chars. ${hint}]`;
}
