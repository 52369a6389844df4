// A remote browser (remote_endpoint: a Playwright server or a CDP endpoint)
// gets the same guard proxy as a local one, set per context. Playwright's
// routes never see redirect hops, so without the proxy a redirect from an
// allowed page could reach a private address. The proxy listens on the
// sidecar's loopback: a browser on another machine cannot reach it. Rather
// than drive a browser whose requests webcap cannot check, the sidecar loads
// a probe URL that only the proxy answers, once per browser, and refuses the
// browser when the answer does not come back.
import type { Browser, BrowserContext } from 'playwright';
import { WebcapError } from '../../manifests/errors.js';
import type { GuardProxy } from './network-guard.js';

const PROBE_TIMEOUT_MS = 5000;
const proven = new WeakSet<Browser>();

export async function proveGuardReachable(context: BrowserContext, proxy: GuardProxy, endpoint: string): Promise<void> {
  const browser = context.browser();
  if (browser && proven.has(browser)) return;
  let reason = 'no answer';
  const page = await context.newPage();
  try {
    const response = await page.goto(proxy.probeUrl, { timeout: PROBE_TIMEOUT_MS });
    const body = await response?.text();
    if (body === proxy.probeToken) {
      if (browser) proven.add(browser);
      return;
    }
    reason = `the probe was answered by something else (HTTP ${response?.status() ?? '?'})`;
  } catch (err) {
    reason = String((err as Error).message).split('\n')[0];
  } finally {
    await page.close().catch(() => undefined);
  }
  throw new WebcapError('browser_crashed',
    `the remote browser at ${endpoint} cannot reach webcap's network guard (its proxy listens on ${proxy.proxy.server}): ${reason}. `
    + 'webcap does not drive a browser whose redirects and subresources it cannot check: run the browser on this machine '
    + '(e.g. `webcap browser-server`, or chromium.launchServer() on loopback) or unset capabilities.browser.remote_endpoint',
    { reason: 'guard_unreachable', endpoint, proxy: proxy.proxy.server });
}
