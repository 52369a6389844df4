// Crash recovery and clean shutdown: a dead sidecar fails the call at once and
// is replaced; a dead Chromium fails with browser_crashed and is relaunched;
// close() leaves no process of ours behind.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { WebcapError } from '../../manifests/errors.js';
import { serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';
import { alive, chromiumOf, descendants, sidecarOf } from '../helpers/processes.js';
import { shopRoutes } from '../fixtures/shop-site.js';

let site: FixtureServer;
beforeAll(async () => { site = await serve(shopRoutes); });
afterAll(async () => { await site?.close(); });

const config = () => testConfig({ network: { resolve: { 'shop.test': '127.0.0.1' } } });

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    return (err as WebcapError).code;
  }
}

it('fails the in-flight call with sidecar_crashed at once and starts a new sidecar next time', async () => {
  const host = testHost(config());
  try {
    await host.call('web.open', { url: site.url('shop.test', '/') });
    const first = sidecarOf()!;
    // A wait for what never comes, with a 10-minute timeout: only noticing the crash ends it
    // before the test's own timeout.
    const pending = codeOf(host.call('web.wait', { selector: '#never', timeout: 600_000 }));
    await new Promise((r) => setTimeout(r, 200));
    process.kill(first.pid, 'SIGKILL');
    expect(await pending).toBe('sidecar_crashed');
    const again = await host.call('web.open', { url: site.url('shop.test', '/') });
    expect(again.title).toBe('Shop');
    expect(sidecarOf()!.pid).not.toBe(first.pid);
  } finally {
    await host.close();
  }
});

it('fails with browser_crashed when Chromium dies, and the next web.open relaunches it', async () => {
  const host = testHost(config());
  try {
    await host.call('web.open', { url: site.url('shop.test', '/') });
    const browser = chromiumOf(sidecarOf()!.pid)!;
    expect(browser).toBeDefined();
    const pending = codeOf(host.call('web.wait', { selector: '#never', timeout: 600_000 }));
    await new Promise((r) => setTimeout(r, 200));
    process.kill(browser.pid, 'SIGKILL');
    expect(await pending).toBe('browser_crashed');
    // The caller's session went with the browser: it learns of the crash, not of a session it never had.
    expect(await codeOf(host.call('web.extract', { selector: 'h1' }))).toBe('browser_crashed');
    const again = await host.call('web.open', { url: site.url('shop.test', '/list') });
    expect(again.title).toBe('Listing');
    expect(chromiumOf(sidecarOf()!.pid)!.pid).not.toBe(browser.pid);
  } finally {
    await host.close();
  }
});

it('leaves no child process of ours after close()', async () => {
  const host = testHost(config());
  await host.call('web.open', { url: site.url('shop.test', '/') });
  await host.call('web.open', { url: site.url('shop.test', '/list') });
  const before = descendants();
  expect(before.some((p) => p.args.includes('sidecar/main.js'))).toBe(true);
  expect(before.some((p) => /chrom/i.test(p.args))).toBe(true);
  await host.close();
  // Chromium's helpers (the zygote) exit just after the browser process, later on a busy machine: a hang fails, slowness not.
  await expect.poll(() => before.filter((p) => alive(p.pid)).map((p) => p.args.slice(0, 80)), { timeout: 15_000 }).toEqual([]);
});
