// A snapshot too long for one answer is cut into parts at line boundaries,
// each ending with a notice that names the next part, so every line — and so
// every ref — stays reachable from the answers alone (a plain cut would hide
// the elements past it).
interface SnapshotPart {
  text: string;
  page: number;
  pages: number;
  truncated: boolean;
  total_chars: number;
}

/** Room kept in each part for the notice; its numbers are at most this long. */
const NOTICE_ROOM = noticeFor(999_999, 999_999, 999_999_999, 9_999, 9_999).length + 1;

export function partOf(text: string, maxChars: number, page = 1): SnapshotPart {
  if (text.length <= maxChars) return { text, page: 1, pages: 1, truncated: false, total_chars: text.length };
  const parts = splitAtLines(text, Math.max(1, maxChars - NOTICE_ROOM));
  const index = Math.min(Math.max(page, 1), parts.length) - 1;
  const totalLines = text.split('\n').length;
  const shown = parts[index].split('\n').length;
  const notice = noticeFor(shown, totalLines, text.length, index + 1, parts.length);
  return { text: `${parts[index]}\n${notice}`, page: index + 1, pages: parts.length, truncated: true, total_chars: text.length };
}

function splitAtLines(text: string, room: number): string[] {
  const parts: string[] = [];
  let current = '';
  for (const line of text.split('\n')) {
    // A single line longer than a part is cut; it is page text, never a ref line.
    for (let rest = line; ; rest = rest.slice(room)) {
      const piece = rest.slice(0, room);
      if (current && current.length + 1 + piece.length > room) { parts.push(current); current = ''; }
      current = current ? `${current}\n${piece}` : piece;
      if (rest.length <= room) break;
    }
  }
  if (current) parts.push(current);
  return parts;
}

function noticeFor(shownLines: number, totalLines: number, totalChars: number, page: number, pages: number): string {
  const next = page < pages ? `the next part is {"page":${page + 1}}` : 'this is the last part';
  return `[truncated: showing ${shownLines} of ${totalLines} lines; the full text is ${totalChars} chars. Part ${page} of ${pages}: ${next}; or narrow with a selector, or raise max_chars.]`;
}
