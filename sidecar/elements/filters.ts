// Structured filters of web.query_elements, applied in this order: tag,
// href_pattern, text_contains, text_matches, id_range (limit is the caller's).
import { WebcapError } from '../../manifests/errors.js';
import type { ElementInfo } from './collect.js';

export interface Filters {
  tag?: string;
  href_pattern?: string;
  text_contains?: string;
  text_matches?: string;
  id_range?: [number, number];
}

/** What an element says about itself: its text, else its label, title or placeholder. */
export function labelOf(el: ElementInfo): string {
  const a = el.attributes;
  return el.text || String(a['aria-label'] ?? a.title ?? a.placeholder ?? a.value ?? '');
}

export function applyFilters(elements: ElementInfo[], f: Filters): ElementInfo[] {
  let out = elements;
  if (f.tag) out = out.filter((el) => el.tag === f.tag!.toLowerCase());
  if (f.href_pattern) {
    const glob = globToRegExp(f.href_pattern);
    out = out.filter((el) => hrefForms(el).some((h) => glob.test(h)));
  }
  if (f.text_contains) {
    const needle = f.text_contains.toLowerCase();
    out = out.filter((el) => `${el.text}\n${el.attributes['aria-label'] ?? ''}`.toLowerCase().includes(needle));
  }
  if (f.text_matches) {
    const re = regexOf(f.text_matches);
    out = out.filter((el) => re.test(labelOf(el)));
  }
  if (f.id_range) {
    const [min, max] = f.id_range;
    out = out.filter((el) => el.index >= min && el.index <= max);
  }
  return out;
}

/** A pattern may be written against the href as written, the absolute URL, its path, or its last segment. */
function hrefForms(el: ElementInfo): string[] {
  const raw = el.attributes.href;
  if (typeof raw !== 'string') return [];
  const forms = [raw];
  if (el.url) {
    forms.push(el.url);
    try {
      const u = new URL(el.url);
      forms.push(u.pathname + u.search, u.pathname.split('/').pop() + u.search, u.pathname.split('/').pop() ?? '');
    } catch { /* not a URL: the raw form is all there is */ }
  }
  return forms;
}

/** `*` any run of characters, `?` one; the whole string must match. */
export function globToRegExp(glob: string): RegExp {
  const body = glob.split('').map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&'))).join('');
  return new RegExp(`^${body}$`, 'i');
}

function regexOf(source: string): RegExp {
  try {
    return new RegExp(source, 'i');
  } catch (err) {
    throw new WebcapError('invalid_params', `text_matches is not a valid regular expression: ${(err as Error).message}`, { field: 'filters.text_matches' });
  }
}
