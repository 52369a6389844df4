// Chain entries hold a summary of each result, not the result: an extract of
// 5,000 rows would make the audit log unreadable and huge. The summary keeps
// the shape (keys, first items, string starts) and says what was cut.
const ARRAY_ITEMS = 20;
// Progressively tighter limits until the JSON fits maxChars.
const LEVELS = [
  { items: ARRAY_ITEMS, chars: 500, depth: 8 },
  { items: 10, chars: 200, depth: 6 },
  { items: 5, chars: 80, depth: 4 },
  { items: 3, chars: 40, depth: 3 },
  { items: 1, chars: 20, depth: 2 },
];

interface Limits { items: number; chars: number; depth: number }

export function summariseValue(value: unknown, maxChars = 2000): unknown {
  for (const limits of LEVELS) {
    const out = shrink(value, limits, 0);
    if (size(out) <= maxChars) return out;
  }
  // Even the tightest shape is too big (very many keys): keep a prefix of the JSON text.
  const text = JSON.stringify(shrink(value, LEVELS[LEVELS.length - 1], 0)) ?? '';
  return { truncated_json: cut(text, Math.max(1, maxChars - 40)) };
}

function shrink(v: unknown, l: Limits, depth: number): unknown {
  if (typeof v === 'string') return v.length > l.chars ? cut(v, l.chars) : v;
  if (v === null || typeof v !== 'object') return v;
  if (depth >= l.depth) return Array.isArray(v) ? [{ truncated: v.length }] : '{…}';
  if (Array.isArray(v)) {
    const head = v.slice(0, l.items).map((x) => shrink(x, l, depth + 1));
    return v.length > l.items ? [...head, { truncated: v.length - l.items }] : head;
  }
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shrink(x, l, depth + 1)]));
}

/** Cuts to at most n characters ending in '…', never splitting a surrogate pair. */
function cut(s: string, n: number): string {
  let end = Math.max(0, n - 1);
  const code = s.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${s.slice(0, end)}…`;
}

function size(v: unknown): number {
  return (JSON.stringify(v) ?? '').length;
}
