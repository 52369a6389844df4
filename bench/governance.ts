// Governance overhead per allowed call: the same web.extract through the full
// policy chain (validate, allowlist, robots, ssrf, budget, consent, durable
// chain append) and straight through a bare sidecar client. Each side gets a
// fresh sidecar and browser of its own, so neither carries the other rows'
// history; the overhead is small against the call's own noise, hence the
// larger sample. The note gives the disk's share: one entry-sized write +
// fdatasync next to the chain, as often as the calls come.
import { closeSync, fdatasyncSync, openSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadConfig } from '../host/config/load.js';
import { createHost } from '../host/host.js';
import { bareSidecar } from './bare-sidecar.js';
import { median, percentile, sideBySide, type Row } from './stats.js';

export async function governanceRows(config: Record<string, unknown>, url: string, n: number): Promise<Row[]> {
  const host = createHost({ config });
  const bare = bareSidecar(config);
  try {
    const opened = await bare.invoke('web.open', { url }, 30_000);
    await host.call('web.open', { url });
    const params = { selector: 'h1' };
    const samples = Math.max(4 * n, 400);
    const s = await sideBySide(samples, () => host.call('web.extract', params), () => bare.invoke('web.extract', { ...params, session: opened.session }, 30_000));
    const on = median(s.a);
    const off = median(s.b);
    const p95 = percentile(s.a, 95) - percentile(s.b, 95);
    const chainDir = dirname(loadConfig(config).chain.path);
    return [{
      name: `governance on vs off (web.extract h1, ${samples} pairs)`, webcap: on, raw: off, pass: on - off <= 1,
      target: '≤ 1 ms added at the median',
      note: `p95 added ${p95.toFixed(2)} ms; the disk's share: write + fdatasync of one entry alone, median ${durableAppendMs(chainDir).toFixed(2)} ms`,
    }];
  } finally {
    await bare.close();
    await host.close();
  }
}

function durableAppendMs(dir: string): number {
  const file = join(dir, 'fdatasync-probe.jsonl');
  const line = Buffer.from(`${'x'.repeat(520)}\n`);
  const fd = openSync(file, 'a');
  const times: number[] = [];
  try {
    for (let i = 0; i < 200; i++) {
      const start = process.hrtime.bigint();
      writeSync(fd, line);
      fdatasyncSync(fd);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
      for (const until = Date.now() + 7; Date.now() < until;) { /* calls come ~7 ms apart */ }
    }
  } finally {
    closeSync(fd);
    rmSync(file, { force: true });
  }
  return median(times);
}
