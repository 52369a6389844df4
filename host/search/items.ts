// Small normalisers shared by the search clients: the same item shape
// whatever the provider called its fields.
const SNIPPET_MAX = 200;

export function domainOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}

/** Whitespace collapsed and cut at a word boundary to at most 200 characters (100–200). */
export function snippetOf(text: unknown): string {
  if (typeof text !== 'string') return '';
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= SNIPPET_MAX) return flat;
  const cut = flat.slice(0, SNIPPET_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > SNIPPET_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

const RELATIVE = /^(\d+)\s+(minute|hour|day|week|month|year)s?\s+ago$/i;
const UNIT_MS: Record<string, number> = { minute: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000, month: 2_592_000_000, year: 31_536_000_000 };

/** ISO 8601 from an absolute date ("Mar 3, 2024", "2024-03-03T…") or Google's "3 days ago"; null otherwise. */
export function isoDate(value: unknown, now = Date.now()): string | null {
  if (typeof value !== 'string' || !value.trim()) return null;
  const rel = RELATIVE.exec(value.trim());
  if (rel) return new Date(now - Number(rel[1]) * UNIT_MS[rel[2].toLowerCase()]).toISOString();
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
