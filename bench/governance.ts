// Governance overhead per allowed call: the same web.extract through the full
// policy chain (validate, allowlist, robots, ssrf, budget, consent, durable
// chain append) and straight through a bare sidecar client. Each side gets a
// fresh sidecar and browser of its own, so neither carries the other rows'
// history; the overhead is small against the call's own noise, hence the
// larger sample. The note gives the chain's share, measured on the chain's
// own disk in the same run: the write-ahead intent (lock + write + fdatasync,
// before the effect) and the result entry (lock + write; its fdatasync rides
// on the next intent's), as often as the calls come, beside a bare
// write + fdatasync of one entry-sized line.
import { closeSync, fdatasyncSync, openSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CausalChain } from '../host/chain/chain.js';
import { loadConfig } from '../host/config/load.js';
import { createHost } from '../host/host.js';
import { bareSidecar } from './bare-sidecar.js';
import { median, percentile, sideBySide, type Row } from './stats.js';

export async function governanceRows(config: Record<string, unknown>, url: string, n: number): Promise<Row[]> {
  const host = createHost({ config });
  const bare = bareSidecar(config);
  try {
    const opened = await bare.invoke('web.open', { url }, 30_000, 'bench');
    await host.call('web.open', { url });
    const params = { selector: 'h1' };
    const samples = Math.max(4 * n, 400);
    const s = await sideBySide(samples, () => host.call('web.extract', params), () => bare.invoke('web.extract', { ...params, session: opened.session }, 30_000, 'bench'));
    const on = median(s.a);
    const off = median(s.b);
    const p95 = percentile(s.a, 95) - percentile(s.b, 95);
    const chainDir = dirname(loadConfig(config).chain.path);
    const wal = await chainAppendMs(chainDir);
    return [{
      name: `governance on vs off (web.extract h1, ${samples} pairs)`, webcap: on, raw: off, pass: on - off <= 1,
      target: '≤ 1 ms added at the median',
      note: `p95 added ${p95.toFixed(2)} ms; the chain's share per call, still one fdatasync on the critical path: the write-ahead intent (lock + write + fdatasync, before the effect) ${wal.intent.toFixed(2)} ms, and what write-ahead adds, the result entry (lock + write, synced with the next intent) ${wal.result.toFixed(2)} ms; a bare write + fdatasync alone ${durableAppendMs(chainDir).toFixed(2)} ms (medians, same run)`,
    }];
  } finally {
    await bare.close();
    await host.close();
  }
}

/** Medians of the two appends a call makes, on a scratch chain beside the real one. */
async function chainAppendMs(dir: string): Promise<{ intent: number; result: number }> {
  const path = join(dir, 'wal-probe.jsonl');
  const chain = await CausalChain.open(path);
  const intent: number[] = [];
  const result: number[] = [];
  const params = { selector: 'h1', session: 's1', timeout: 30000 };
  try {
    for (let i = 0; i < 200; i++) {
      let start = performance.now();
      await chain.append({ kind: 'intent', capability: 'web.extract', params, decisions: [] });
      intent.push(performance.now() - start);
      start = performance.now();
      await chain.append({ kind: 'call', capability: 'web.extract', params, result: { items: [{ text: 'x'.repeat(200) }] }, intent_seq: i }, { durable: false });
      result.push(performance.now() - start);
      for (const until = Date.now() + 7; Date.now() < until;) { /* calls come ~7 ms apart */ }
    }
  } finally {
    await chain.close();
    rmSync(path, { force: true });
  }
  return { intent: median(intent), result: median(result) };
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
