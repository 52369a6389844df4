// Page-sourced strings (origins, selectors, banner text) end up in a prompt the
// user trusts. A page must not be able to forge lines, hide text with bidi or
// zero-width characters, or push the real question off screen, so every such
// string is flattened and bounded before it is shown or recorded.

/** One line of plain text: control/format characters removed, at most `max` characters. */
export function plain(value: string, max = 200): string {
  const flat = value
    .replace(/[\t\n\r\v\f\u0085\u2028\u2029]+/g, ' ')
    .replace(/[\p{Cc}\p{Cf}]/gu, '');
  const chars = Array.from(flat); // code points, so a surrogate pair is never split
  return chars.length <= max ? flat : chars.slice(0, max - 1).join('') + '…';
}

/** Quoted for a question: JSON quoting makes any embedded quote visible as \". */
export function quote(value: string, max = 200): string {
  return JSON.stringify(plain(value, max));
}

/** Details for display: strings bounded, anything else as bounded JSON. */
export function plainDetails(details: Record<string, unknown>, max = 500): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(details)) {
    const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
    out[plain(key, 40)] = plain(text, max);
  }
  return out;
}
