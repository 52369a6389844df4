// Plain-text tables for the demo's results: fixed columns, long cells cut.
export function table(rows: Array<Record<string, unknown>>, columns: string[], maxRows = 10): string {
  const shown = rows.slice(0, maxRows).map((r) => columns.map((c) => cell(r[c])));
  const widths = columns.map((c, i) => Math.min(48, Math.max(c.length, ...shown.map((r) => r[i].length))));
  const line = (cells: string[]) => cells.map((x, i) => x.slice(0, widths[i]).padEnd(widths[i])).join('  ').trimEnd();
  const out = [line(columns), line(widths.map((w) => '-'.repeat(w))), ...shown.map(line)];
  if (rows.length > maxRows) out.push(`… and ${rows.length - maxRows} more (${rows.length} in all)`);
  return out.map((l) => `  ${l}`).join('\n');
}

function cell(v: unknown): string {
  if (v === null || v === undefined) return '—';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** A plan's value as rows: a list, or a map holding one under `items`. */
export function rowsOf(value: unknown): Array<Record<string, unknown>> {
  const list = Array.isArray(value) ? value : (value as { items?: unknown })?.items;
  return Array.isArray(list) ? list as Array<Record<string, unknown>> : [];
}
