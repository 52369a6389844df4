// `webcap browser-server` with [metrics] listen: the operations server beside
// the browser answers /healthz (the browser server is alive) and /metrics with
// the resident memory of the Chromium it runs, as an operator's scraper reads it.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/host.js';

let child: ChildProcess | undefined;
afterAll(async () => {
  if (child && child.exitCode === null) { child.kill('SIGTERM'); await once(child, 'exit'); }
});

describe('webcap browser-server: [metrics] listen', () => {
  it('serves /healthz and /metrics with the browser\'s memory while it runs', async () => {
    const dir = tempDir('webcap-bs-metrics-');
    const file = join(dir, 'agent_config.toml');
    writeFileSync(file, `[workspace]\npath = "${dir}/ws"\n[chain]\npath = "${dir}/ws/chain.jsonl"\n[logging]\nfile = "${dir}/ws/webcap.log"\n[metrics]\nlisten = "127.0.0.1:0"\n`);
    child = spawn(process.execPath, ['bin/webcap.js', 'browser-server', '--config', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    // stdout: the ws endpoint once Chromium is up; stderr: where /metrics is.
    const [endpointLine] = await once(createInterface({ input: child.stdout! }), 'line') as [string];
    expect(JSON.parse(endpointLine).ws_endpoint).toMatch(/^ws:\/\//);
    let metricsUrl = '';
    for await (const line of createInterface({ input: child.stderr! })) {
      try { metricsUrl = (JSON.parse(line) as { metrics?: string }).metrics ?? ''; } catch { /* other output */ }
      if (metricsUrl) break;
    }
    const base = metricsUrl.replace(/\/metrics$/, '');
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ ok: true, checks: [{ name: 'browser_server', ok: true }] });
    const text = await (await fetch(metricsUrl)).text();
    const rss = Number(/^webcap_chromium_rss_bytes (\d+)/m.exec(text)?.[1]);
    expect(rss).toBeGreaterThan(10 * 1024 * 1024); // a running Chromium: tens of MB at least
    child.kill('SIGTERM');
    await once(child, 'exit');
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });
});
