// idle_timeout_s: a session nobody used for that long is closed, the chain
// says so, and when no session is left the browser itself closes; the next
// web.open starts a fresh one.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { readEntries } from '../../host/chain/verify.js';
import { serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';
import { chromiumOf, descendants } from '../helpers/processes.js';
import { shopRoutes } from '../fixtures/shop-site.js';

let site: FixtureServer;
let host: Host;
let config: ReturnType<typeof testConfig>;
// Sidecars already under this worker (an earlier file's, still exiting) are not this host's.
const sidecars = () => descendants().filter((p) => p.args.includes('sidecar/main.js'));
let earlier: Set<number>;

beforeAll(async () => {
  site = await serve(shopRoutes);
  config = testConfig({ browser: { idle_timeout_s: 2 }, network: { resolve: { 'shop.test': '127.0.0.1' } } });
  earlier = new Set(sidecars().map((p) => p.pid));
  host = testHost(config);
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return check();
}

it('closes an idle session and then the browser; the next web.open relaunches it', async () => {
  const { session } = await host.call('web.open', { url: site.url('shop.test', '/') });
  const sidecar = sidecars().find((p) => !earlier.has(p.pid))!;
  const browser = chromiumOf(sidecar.pid);
  expect(browser).toBeDefined();

  // Used within the timeout (2 s; half of it, with room for a loaded machine): still there.
  await new Promise((r) => setTimeout(r, 500));
  await host.call('web.extract', { selector: 'h1', session });

  expect(await until(() => chromiumOf(sidecar.pid) === undefined, 8000)).toBe(true);
  await expect(host.call('web.extract', { selector: 'h1', session })).rejects.toMatchObject({ code: 'session_not_found' });
  // The sidecar reports the close once the browser is down too; the host records it as it arrives.
  const idleClosed = () => readEntries(config.chain.path).some((e) => e.kind === 'event' && (e.result as { event?: string })?.event === 'session_idle_closed');
  expect(await until(idleClosed, 5000)).toBe(true);

  const again = await host.call('web.open', { url: site.url('shop.test', '/') });
  expect(again.status).toBe(200);
  expect(chromiumOf(sidecar.pid)!.pid).not.toBe(browser!.pid);
});

it('an explicit web.close keeps the browser a while: the next web.open starts no new Chromium', async () => {
  // Its own host, with no idle timeout to race on a busy machine: only web.close may end the session here.
  const own = testHost(testConfig({ network: { resolve: { 'shop.test': '127.0.0.1' } } }));
  try {
    const others = new Set(sidecars().map((p) => p.pid));
    const first = await own.call('web.open', { url: site.url('shop.test', '/') });
    const sidecar = sidecars().find((p) => !others.has(p.pid))!;
    const browser = chromiumOf(sidecar.pid);
    expect(browser).toBeDefined();
    await own.call('web.close', { session: first.session });
    await own.call('web.open', { url: site.url('shop.test', '/') });
    expect(chromiumOf(sidecar.pid)!.pid).toBe(browser!.pid);
  } finally {
    await own.close();
  }
});

it('a call longer than idle_timeout_s is not cut short by the idle sweep, and the session stays', async () => {
  const { session } = await host.call('web.open', { url: site.url('shop.test', '/') });
  // 5 s of waiting in one call, with a 2 s idle timeout swept every 0.5 s.
  await expect(host.call('web.wait', { time: 5000, session })).resolves.toMatchObject({ session });
  await expect(host.call('web.extract', { selector: 'h1', session })).resolves.toBeDefined();
  await host.call('web.close', { session });
});
