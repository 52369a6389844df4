// Replays survive frames: a cookie banner inside a cross-origin iframe is
// answered by an agent's snapshot ref ("Reject all", f1e…), exported as a
// {selector, frame} pair, and replayed by `webcap run` — then again after the
// banner's ids changed, healed inside the frame.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportPlan } from '../../host/replay/export.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir, testConfig, testHost } from '../helpers/host.js';
import { webcap } from '../helpers/cli.js';

let site: FixtureServer;
let cmp: FixtureServer;
let dir: string;
const state = { renamed: false };

beforeAll(async () => {
  cmp = await serve({
    '/banner': (_req, res) => send(res, html(state.renamed
      ? '<p>We use cookies.</p><div class="x-actions"><button class="x-b1">Accept all</button><button class="x-b2" onclick="location.href=\'/rejected\'">Reject all</button></div>'
      : '<p>We use cookies.</p><div id="actions"><button id="accept">Accept all</button><button id="reject" onclick="location.href=\'/rejected\'">Reject all</button></div>')),
    '/rejected': (_req, res) => send(res, html('<p>Rejected.</p>')),
  });
  site = await serve({
    '/': (_req, res) => send(res, html(`<h1>Shop</h1><iframe id="consent" title="Cookie consent" src="http://cmp.test/banner" width="400" height="200"></iframe>`)),
  });
  dir = tempDir('webcap-replay-frames-');
});

afterAll(async () => { await site?.close(); await cmp?.close(); });

const network = () => ({ resolve: { 'site.test': `127.0.0.1:${site.port}`, 'cmp.test': `127.0.0.1:${cmp.port}` }, allow_private: ['127.0.0.1'] });

describe('a banner inside a cross-origin iframe', () => {
  it('recorded by ref, exported with its frame, replayed, and healed inside the frame after its ids changed', async () => {
    const config = testConfig({ dir, network: network(), browser: { domains_allowlist: ['site.test', 'cmp.test'] } });
    const host = testHost(config);
    try {
      // The exported plan keeps this timeout: its replay's [capabilities.browser] default is short so that a heal
      // does not wait long for the renamed element, and a cold start on a busy machine needs longer.
      await host.call('web.open', { url: 'http://site.test/', timeout: 30_000 });
      const snap = (await host.call('web.snapshot', {})) as { snapshot: string };
      const ref = /button "Reject all" \[ref=(f\d+e\d+)\]/.exec(snap.snapshot)?.[1];
      expect(ref, snap.snapshot).toBeDefined();
      await host.call('web.click', { ref });
    } finally {
      await host.close();
    }
    expect(cmp.hits.filter((h) => h.endsWith('/rejected'))).toHaveLength(1);

    const { plan } = exportPlan(config.chain.path, { last: true });
    expect(plan).toContain('(call :web.click {:selector "#reject" :frame "#consent"}');
    writeFileSync(join(dir, 'consent.rtfs'), plan);
    writeFileSync(join(dir, 'agent_config.toml'), `[capabilities.browser]
domains_allowlist = ["site.test", "cmp.test"]
respect_robots = false
default_timeout_ms = 5000

[network]
resolve = { "site.test" = "127.0.0.1:${site.port}", "cmp.test" = "127.0.0.1:${cmp.port}" }
allow_private = ["127.0.0.1"]

[chain]
path = "replay-chain.jsonl"

[workspace]
path = "ws"
`);
    const run = (...args: string[]) => webcap([...args, '--config', join(dir, 'agent_config.toml'), '--yes'], dir);

    const replayed = await run('run', 'consent.rtfs');
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(replayed.stderr).not.toContain('healed');
    expect(cmp.hits.filter((h) => h.endsWith('/rejected'))).toHaveLength(2);

    state.renamed = true;
    const healed = await run('run', 'consent.rtfs', '--update-plan');
    expect(healed.code, healed.stderr).toBe(0);
    expect(healed.stderr).toMatch(/healed web\.click .*#reject → role=button\[name="Reject all"s\]/);
    expect(cmp.hits.filter((h) => h.endsWith('/rejected'))).toHaveLength(3);
    expect(readFileSync(join(dir, 'consent.rtfs'), 'utf8')).toContain('(call :web.click {:selector "role=button[name=\\"Reject all\\"s]" :frame "#consent"}');
  }, 300_000);
});
