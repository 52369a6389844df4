// A date input only accepts YYYY-MM-DD. Callers (agents) write dates many
// ways; unambiguous ones are converted, and 03/04/2025 (March or April?) is
// refused rather than guessed.
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

export function toIsoDate(text: string): { ok: true; value: string } | { ok: false; reason: string } {
  const t = text.trim();
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/.exec(t);
  const named = /^(\d{1,2})\s+([a-z]+)\.?,?\s+(\d{4})$/i.exec(t) ?? swapMonthFirst(/^([a-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})$/i.exec(t));
  let parts: [number, number, number] | undefined;
  if (iso) parts = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (named) {
    const month = MONTHS.indexOf(named[2].slice(0, 3).toLowerCase()) + 1;
    if (month > 0) parts = [Number(named[3]), month, Number(named[1])];
  }
  if (!parts) {
    const why = /^\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}$/.test(t) ? 'is ambiguous (day/month order)' : 'is not a date';
    return { ok: false, reason: `${JSON.stringify(text)} ${why}; write it as YYYY-MM-DD` };
  }
  const [y, m, d] = parts;
  const check = new Date(Date.UTC(y, m - 1, d));
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) {
    return { ok: false, reason: `${JSON.stringify(text)} is not a calendar date` };
  }
  return { ok: true, value: `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}` };
}

/** "March 5, 2025" → the same groups as "5 March 2025". */
function swapMonthFirst(m: RegExpExecArray | null): RegExpExecArray | null {
  if (!m) return null;
  const swapped = [m[0], m[2], m[1], m[3]] as unknown as RegExpExecArray;
  return swapped;
}
