// The browser behind `webcap browser-server` (host/daemon/browser-server.ts checks
// the flags and starts this process): chromium.launchServer with the same
// Chromium and container flags as the sidecar's own browser. Prints one JSON
// line {"ws_endpoint": …} on stdout, then serves until SIGINT/SIGTERM.
// Each connecting host gets its own connection and creates its own contexts,
// so hosts sharing the server never share cookies or storage.
import { WebcapError } from '../../manifests/errors.js';
import { findChromium, launchArgs } from './find-chromium.js';
import { loadPlaywright } from './load-playwright.js';

interface Settings { host: string; port: number; headless: boolean; executable_path?: string; resolve: Record<string, string> }

async function main(): Promise<void> {
  const settings = JSON.parse(process.env.WEBCAP_BROWSER_SERVER ?? '{}') as Settings;
  const token = process.env.WEBCAP_BROWSER_SERVER_TOKEN || undefined;
  delete process.env.WEBCAP_BROWSER_SERVER_TOKEN; // not inherited by Chromium
  const found = await findChromium(settings.executable_path, { headless: settings.headless });
  if (!found) throw new WebcapError('browser_crashed', 'no Chromium found: run `npm run setup`, or install Debian\'s chromium package, or set WEBCAP_CHROMIUM');
  const server = await loadPlaywright().chromium.launchServer({
    executablePath: found.path,
    headless: settings.headless,
    args: launchArgs(settings.resolve),
    host: settings.host,
    port: settings.port,
    // With a token the path is the secret; without one Playwright picks a random path.
    ...(token ? { wsPath: `/${token}` } : {}),
  });
  process.stdout.write(`${JSON.stringify({ ws_endpoint: server.wsEndpoint() })}\n`);
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    void server.close().finally(() => process.exit(0));
  };
  process.on('SIGINT', stop).on('SIGTERM', stop);
  server.process().on('exit', () => { if (!closing) { process.stderr.write('error: browser_crashed: the browser of the browser server exited\n'); process.exit(1); } });
}

main().catch((err: unknown) => {
  const e = err instanceof WebcapError ? err : new WebcapError('browser_crashed', `the browser server could not start: ${(err as Error).message}`);
  process.stderr.write(`error: ${e.code}: ${e.message}\n`);
  process.exit(1);
});
