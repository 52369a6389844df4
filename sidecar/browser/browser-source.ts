// The one seam through which the sidecar gets a browser: launch a local
// Chromium, or connect to a remote Playwright server or CDP endpoint. Scaling
// out later means adding a source here, nothing else.
import type { Browser } from 'playwright';
import { WebcapError } from '../../manifests/errors.js';
import { originOf } from '../guard/effect-rules.js';
import type { SidecarInit } from '../../manifests/wire.js';
import { findChromium, launchArgs } from './find-chromium.js';
import { loadPlaywright } from './load-playwright.js';

// require() (in loadPlaywright), not import: loading Playwright's CommonJS
// bundle through ESM makes Node scan it for named exports, which costs ~130 ms
// of every cold start.
const { chromium } = loadPlaywright();

export interface BrowserSource {
  get(): Promise<Browser>;
  close(): Promise<void>;
}

export function browserSource(init: SidecarInit, onDisconnect: () => void): BrowserSource {
  let current: Promise<Browser> | undefined;
  // Browsers we closed on purpose: their 'disconnected' is not a crash.
  const closing = new WeakSet<Browser>();

  async function connect(): Promise<Browser> {
    const { remote, executable_path, headless } = init.browser;
    let browser: Browser;
    if (remote) {
      try {
        browser = remote.kind === 'cdp' ? await chromium.connectOverCDP(remote.endpoint) : await chromium.connect(remote.endpoint);
      } catch (err) {
        // Only the endpoint's origin: its path or query may carry a token.
        const shown = originOf(remote.endpoint) ?? '(not a URL)';
        throw new WebcapError('browser_crashed', `cannot connect to the remote browser at ${shown} (${remote.kind}): ${firstLine(err)}`, { reason: 'remote_unreachable', endpoint: shown });
      }
    } else {
      const found = await findChromium(executable_path, { headless });
      if (!found) {
        throw new WebcapError('browser_crashed', executable_path
          ? `Chromium not found at ${executable_path} (capabilities.browser.executable_path / WEBCAP_CHROMIUM)`
          : 'no Chromium found: run `npm run setup`, or install Debian\'s chromium package, or set WEBCAP_CHROMIUM');
      }
      if (!headless && needsDisplay()) throw noDisplay('no display is set (DISPLAY and WAYLAND_DISPLAY are empty)');
      try {
        browser = await chromium.launch({ executablePath: found.path, headless, args: launchArgs(init.network.resolve) });
      } catch (err) {
        if (!headless && /X server|\$DISPLAY|cannot open display/i.test(String((err as Error)?.message))) throw noDisplay('the display could not be opened');
        throw err;
      }
    }
    browser.on('disconnected', () => {
      if (closing.has(browser)) return;
      current = undefined;
      onDisconnect();
    });
    return browser;
  }

  return {
    get() {
      current ??= connect().catch((err) => {
        current = undefined;
        throw err;
      });
      return current;
    },
    async close() {
      const pending = current;
      current = undefined;
      const browser = await pending?.catch(() => undefined);
      if (!browser) return;
      closing.add(browser);
      await browser.close().catch(() => undefined);
    },
  };
}

/** A headed browser on Linux draws on an X or Wayland display; without one Chromium dies at start. */
const needsDisplay = () => process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY;

function noDisplay(why: string): WebcapError {
  return new WebcapError('browser_crashed',
    `[capabilities.browser] headless = false needs a display, and ${why}: set headless = true, or run under a virtual display (xvfb-run -a webcap …)`,
    { reason: 'no_display', key: 'capabilities.browser.headless' });
}

function firstLine(err: unknown): string {
  return String((err as Error)?.message ?? err).split('\n')[0].slice(0, 300);
}
