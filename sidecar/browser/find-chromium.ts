// Where the Chromium comes from, in the order the README promises: the
// configured path, Playwright's own download, then the system's.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

// Debian's chromium-headless-shell is the build Playwright itself runs headless: the browser
// without its desktop layer. Starting it and a page costs about a third of the CPU the
// full browser does (bench/chromium-launch.ts), so a headless launch prefers it when it is installed.
// Debian's /usr/bin entry is a shell script that runs the binary as its child: the binary itself
// keeps the browser a direct child of the sidecar (one process to kill, to watch, to reap).
const SYSTEM_HEADLESS_SHELLS = ['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium-headless-shell'];

const SYSTEM_CHROMIUMS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
];

interface ChromiumChoice { path: string; source: 'configured' | 'playwright' | 'system' }

/** headless = false needs a browser that draws windows, which the headless shell cannot. */
export async function findChromium(configured?: string, options: { headless?: boolean } = {}): Promise<ChromiumChoice | undefined> {
  const wanted = configured ?? process.env.WEBCAP_CHROMIUM;
  if (wanted) return existsSync(wanted) ? { path: wanted, source: 'configured' } : undefined;
  try {
    const { chromium } = createRequire(import.meta.url)('playwright') as typeof import('playwright');
    const own = chromium.executablePath();
    if (own && existsSync(own)) return { path: own, source: 'playwright' };
  } catch {
    // Playwright knows no browser of its own here: fall through to the system's.
  }
  const candidates = options.headless === false ? SYSTEM_CHROMIUMS : [...SYSTEM_HEADLESS_SHELLS, ...SYSTEM_CHROMIUMS];
  const system = candidates.find((p) => existsSync(p));
  return system ? { path: system, source: 'system' } : undefined;
}

/** Flags for a headless Chromium in a container; root cannot use the sandbox. */
export function launchArgs(resolve: Record<string, string>): string[] {
  const args = [
    '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--no-first-run', '--disable-quic', '--disable-dev-shm-usage',
    // WebRTC's UDP would bypass the guard's proxy.
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    // Chromium's own background calls home (autofill, hints, translate) are not the page's:
    // without these they show up as blocked requests in the audit trail.
    // DeferRendererTasksAfterInput: after a key or click Chromium holds the page's timers and posted
    // messages until its next frame; the effect gate waits for the page's zero-delay timers after every
    // input action, so each one paid up to a frame (bench/flush-after-input.ts). Off, they run when due.
    '--disable-features=AutofillServerCommunication,OptimizationHints,OptimizationHintsFetching,Translate,MediaRouter,InterestFeedContentSuggestions,DeferRendererTasksAfterInput',
    '--disable-domain-reliability', '--metrics-recording-only', '--no-pings',
  ];
  if (process.getuid?.() === 0) args.push('--no-sandbox');
  const rules = Object.entries(resolve).map(([host, ip]) => `MAP ${host} ${ip}`);
  if (rules.length) args.push(`--host-resolver-rules=${rules.join(', ')}`);
  return args;
}
