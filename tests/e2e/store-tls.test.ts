// [store] url = "rediss://…": the shared store over TLS, as a user runs it —
// two separate `webcap call` processes against a TLS-only redis-server share
// one per-domain bucket; the same server reached without TLS fails closed.
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webcap } from '../helpers/cli.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir } from '../helpers/host.js';
import { startRedis, type TestRedis } from '../helpers/redis-server.js';

let redis: TestRedis;
let site: FixtureServer;
let dir: string;
// The bundled loopback certificate the TLS redis-server presents (SAN 127.0.0.1).
const trust = { NODE_EXTRA_CA_CERTS: resolve('demo-sites/tls/demo-cert.pem') };

function config(url: string): string {
  const file = join(dir, `store-${url.split(':')[0]}.toml`);
  writeFileSync(file, `[capabilities.browser]
domains_allowlist = ["site.test"]
respect_robots = false

[network]
resolve = { "site.test" = "127.0.0.1" }
allow_private = ["127.0.0.1"]

[budgets]
per_domain = { "site.test" = 1 }

[store]
url = "${url}"
prefix = "tls-test:"

[chain]
path = "chain.jsonl"

[workspace]
path = "ws"

[logging]
file = "webcap.log"
`);
  return file;
}

beforeAll(async () => {
  redis = await startRedis({ tls: true });
  site = await serve({ '/': (_req, res) => send(res, html('<h1>Shop</h1>')) });
  dir = tempDir('webcap-store-tls-');
});
afterAll(async () => {
  await site?.close();
  await redis?.stop();
});

describe('shared store over TLS (rediss://)', () => {
  it('two processes share one per-domain bucket through a TLS-only redis-server', async () => {
    expect(redis.url).toMatch(/^rediss:\/\//);
    const file = config(redis.url);
    const open = () => webcap(['call', 'web.open', JSON.stringify({ url: site.url('site.test', '/') }), '--config', file, '--json'], dir, trust);
    const first = await open();
    // The first process spends the bucket's one action.
    expect(first.code, first.stderr).toBe(0);
    const second = await open();
    expect(second.code).toBe(1);
    expect(JSON.parse(second.stdout).error.code).toBe('budget_exceeded');
  }, 60_000);

  it('the same server reached without TLS fails closed: store_unavailable, never allowed', async () => {
    const plain = redis.url.replace(/^rediss:/, 'redis:');
    const r = await webcap(['call', 'web.open', JSON.stringify({ url: site.url('site.test', '/') }), '--config', config(plain), '--json'], dir, trust);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: 'budget_exceeded', details: { reason: 'store_unavailable' } });
  }, 60_000);
});
