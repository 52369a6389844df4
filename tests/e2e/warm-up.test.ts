// Cold start: the sidecar starts with a browser call's first policy, and a
// web.open that has passed the allowlist and SSRF checks has Chromium launched
// while the remaining checks (here: the user's consent answer) are still going.
// A web.open the allowlist refuses launches no browser.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';
import { chromiumOf, sidecarOf } from '../helpers/processes.js';
import { shopRoutes } from '../fixtures/shop-site.js';

let site: FixtureServer;
beforeAll(async () => { site = await serve(shopRoutes); });
afterAll(async () => { await site?.close(); });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function chromiumWithin(ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(100)) {
    const sidecar = sidecarOf();
    if (sidecar && chromiumOf(sidecar.pid)) return true;
  }
  return false;
}

it('launches Chromium while the user is still being asked about the web.open', async () => {
  let launchedBeforeAnswer: boolean | undefined;
  const host = testHost(
    testConfig({ network: { resolve: { 'shop.test': '127.0.0.1' } }, consent: { require: ['web.open'] } }),
    { ask: async () => { launchedBeforeAnswer = await chromiumWithin(10_000); return true; } },
  );
  try {
    const opened = await host.call('web.open', { url: site.url('shop.test', '/') });
    expect(opened.title).toBe('Shop');
    expect(launchedBeforeAnswer).toBe(true);
  } finally {
    await host.close();
  }
});

it('launches no browser for a web.open the allowlist refuses', async () => {
  const host = testHost(testConfig({ network: { resolve: { 'elsewhere.example': '127.0.0.1' } } }));
  try {
    await expect(host.call('web.open', { url: site.url('elsewhere.example', '/') })).rejects.toMatchObject({ code: 'not_allowlisted' });
    expect(sidecarOf()).toBeDefined(); // the process starts with the call's first policy
    expect(await chromiumWithin(2000)).toBe(false);
  } finally {
    await host.close();
  }
});
