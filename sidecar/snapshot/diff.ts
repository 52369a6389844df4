// Line diff of two snapshots (Myers, O((N+M)·D)). Refs make snapshot lines
// nearly unique, so a line diff reads as "these elements appeared, these went".
interface LineOp { kind: ' ' | '+' | '-'; line: string }

/** undefined when more than maxEdits lines changed: then the whole snapshot says more than a diff. */
export function diffLines(a: string[], b: string[], maxEdits = 2000): LineOp[] | undefined {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) { endA--; endB--; }
  const middle = myers(a.slice(start, endA), b.slice(start, endB), maxEdits);
  if (!middle) return undefined;
  const same = (line: string): LineOp => ({ kind: ' ', line });
  return [...a.slice(0, start).map(same), ...middle, ...a.slice(endA).map(same)];
}

function myers(a: string[], b: string[], maxEdits: number): LineOp[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxEdits);
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) { x++; y++; }
      v[off + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a, b, off);
    }
  }
  return undefined;
}

function backtrack(trace: Int32Array[], a: string[], b: string[], off: number): LineOp[] {
  const ops: LineOp[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d > 0; d--) {
    const v = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? k + 1 : k - 1;
    const prevX = v[off + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) ops.push({ kind: ' ', line: a[--x] }), y--;
    if (x === prevX) ops.push({ kind: '+', line: b[--y] });
    else ops.push({ kind: '-', line: a[--x] });
  }
  while (x > 0 && y > 0) ops.push({ kind: ' ', line: a[--x] }), y--;
  return ops.reverse();
}

/** Changed lines with `context` unchanged lines around each change; longer runs collapse to one line. */
export function renderDiff(ops: LineOp[], context = 1): string {
  const changed = ops.map((o) => o.kind !== ' ');
  const near = (i: number) => changed.slice(Math.max(0, i - context), i + context + 1).some(Boolean);
  const out: string[] = [];
  let skipped = 0;
  ops.forEach((op, i) => {
    if (op.kind === ' ' && !near(i)) { skipped++; return; }
    if (skipped) out.push(`  … ${skipped} unchanged line${skipped === 1 ? '' : 's'}`), (skipped = 0);
    out.push(`${op.kind} ${op.line}`);
  });
  if (skipped) out.push(`  … ${skipped} unchanged line${skipped === 1 ? '' : 's'}`);
  return out.join('\n');
}
