// Makes page text unable to look like an untrusted-content marker. Two cuts,
// either of which alone stops a forged or early-closing marker:
//  - a run of three or more angle brackets (`<<<`, `>>>`, fullwidth and small
//    forms too) gets a space inside, so no marker can be spelled at all;
//  - the label, however spelled (any case, any separators, zero-width or
//    other invisible characters, compatibility forms such as fullwidth
//    letters), becomes "untrusted page text".
// Text without either is returned unchanged (the common case costs one test).

const LABEL_LETTERS = 'untrustedpagecontent';
const ANGLES = /[<\uFF1C\uFE64\u2039\u3008\u27E8]{3,}|[>\uFF1E\uFE65\u203A\u3009\u27E9]{3,}/g;
// Between two letters of the label: anything that is not a letter or digit (separators, invisible characters).
const GAP = '[^\\p{L}\\p{N}]{0,8}';
const LABEL = new RegExp(LABEL_LETTERS.split('').join(GAP), 'giu');
const HAS_ANGLES = new RegExp(ANGLES.source);
const HAS_LABEL = new RegExp(LABEL.source, 'iu');
// Printable ASCII: no compatibility forms or invisible characters, so the label regex alone decides (the fast path).
const ASCII = /^[\x20-\x7E\t\n\r]*$/;
const INVISIBLE = /[\p{Cf}\u034F\u115F\u1160\u3164\uFFA0]/gu;

/** Lower-cased letters and digits of the compatibility-normalised text: what a reader would "see". */
function skeleton(text: string): string {
  return text.normalize('NFKC').replace(INVISIBLE, '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

function breakAngles(text: string): string {
  return text.replace(ANGLES, (run) => [...run].join(' '));
}

export function neutralise(text: string): string {
  let out = text;
  // The label has 20 letters: a shorter string cannot spell it.
  if (out.length >= LABEL_LETTERS.length && (ASCII.test(out) ? HAS_LABEL.test(out) : skeleton(out).includes(LABEL_LETTERS))) {
    // Normalised only when needed, so ordinary page text keeps its exact characters.
    out = out.normalize('NFKC').replace(INVISIBLE, '').replace(LABEL, 'untrusted page text');
  }
  return HAS_ANGLES.test(out) ? breakAngles(out) : out;
}

function looksMarkerish(text: string): boolean {
  if (HAS_ANGLES.test(text)) return true;
  return text.length >= LABEL_LETTERS.length && (ASCII.test(text) ? HAS_LABEL.test(text) : skeleton(text).includes(LABEL_LETTERS));
}

/**
 * A copy with every string (keys too: a page names attributes and schema
 * fields) neutralised. The whole value is tested once as JSON first: nearly
 * every result holds nothing marker-like and comes back as it is, uncopied.
 */
export function neutraliseStrings<T>(value: T): T {
  if (!looksMarkerish(JSON.stringify(value) ?? '')) return value;
  const walk = (v: unknown, depth: number): unknown => {
    if (typeof v === 'string') return neutralise(v);
    if (depth > 64 || v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map((x) => walk(x, depth + 1));
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [neutralise(k), walk(x, depth + 1)]));
  };
  return walk(value, 0) as T;
}
