// Governance overhead per allowed call: the same web.extract through the full
// policy chain (validate, allowlist, robots, ssrf, budget, consent, durable
// chain append) and straight through a bare sidecar client.
import pino from 'pino';
import { loadConfig } from '../host/config/load.js';
import type { Host } from '../host/host.js';
import { SidecarClient } from '../host/sidecar-client.js';
import { sidecarInit } from '../host/sidecar-init.js';
import { median, percentile, sideBySide, type Row } from './stats.js';

export async function governanceRows(host: Host, config: Record<string, unknown>, url: string, n: number): Promise<Row[]> {
  const bare = new SidecarClient(() => sidecarInit(loadConfig(config)), {
    onBlocked: () => undefined, onEvent: () => undefined, onSensitive: async () => ({ approved: false }),
  }, pino({ level: 'silent' }));
  const opened = await bare.invoke('web.open', { url }, 30_000);
  await host.call('web.navigate', { url });
  const params = { selector: 'h1' };
  const s = await sideBySide(n, () => host.call('web.extract', params), () => bare.invoke('web.extract', { ...params, session: opened.session }, 30_000));
  await bare.close();
  const on = median(s.a);
  const off = median(s.b);
  const p95 = percentile(s.a, 95) - percentile(s.b, 95);
  return [{
    name: 'governance on vs off (web.extract h1)', webcap: on, raw: off, pass: on - off <= 1,
    target: '≤ 1 ms added at the median', note: `p95 added ${p95.toFixed(2)} ms`,
  }];
}
