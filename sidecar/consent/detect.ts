// Finds the cookie banner on a page, in this order: the site profile's own
// rules, then @duckduckgo/autoconsent's rules (library.ts: 300+ CMPs, in
// every frame), then the generic labelled-button heuristics (scan.ts), in the
// main frame and every iframe. Banners are often injected a moment after
// load, so we poll for a short while before concluding there is none; the
// library gets a head start before a guess from labels is taken.
import type { Frame, FrameLocator, Locator, Page } from 'playwright';
import type { SiteProfile } from '../profiles.js';
import { ACCEPT_LABELS, BANNER_WORDS, REJECT_LABELS } from './labels.js';
import { startLibrary, stopLibrary, type LibraryRun } from './library.js';
import { MARK, bannerText, scanFrame, type ScanArgs } from './scan.js';

interface Button { locator: Locator; label: string }

export interface Detection {
  found: boolean;
  /** The CMP as @duckduckgo/autoconsent names it (Onetrust, didomi, …), "generic", or "profile:NAME". */
  cmp: string | null;
  /** Recognised (the library or a profile), as opposed to guessed from button labels. */
  known: boolean;
  /** Where the banner lives when not in the main frame (frame URL or the profile's iframe selector). */
  frame: string | null;
  accept?: Button;
  reject?: Button;
  /** Set when the library found the banner: it presses the buttons itself (optIn / optOut). */
  library?: LibraryRun;
  banner?: Locator;
  bannerText: string;
}

const NONE: Detection = { found: false, cmp: null, known: false, frame: null, bannerText: '' };
const ARGS: ScanArgs = { accept: ACCEPT_LABELS, reject: REJECT_LABELS, words: BANNER_WORDS };
// How long the library may look before the label heuristics may answer (it finds a present CMP in its first passes).
const LIBRARY_HEAD_START_MS = 1200;

/** Polls until a banner shows up or `waitMs` passes. `profile` is the page's own profile, if any. Stop a returned `library` run when done. */
export async function detect(page: Page, profile: SiteProfile | undefined, waitMs: number): Promise<Detection> {
  const run = await startLibrary(page).catch(() => undefined);
  const started = Date.now();
  const hit = await poll(waitMs, async () => {
    if (profile?.consent) {
      const own = await fromProfile(page, profile);
      if (own.found) return own;
    }
    if (run?.found) return fromLibrary(page, run);
    // A CMP the library detected but whose popup is not up yet: wait for it rather than guess.
    if (run && (run.detected.size > 0 || Date.now() - started < LIBRARY_HEAD_START_MS)) return NONE;
    return scanFrames(page);
  });
  if (run && hit.library !== run) stopLibrary(run);
  // The library knew the CMP but never saw its popup: the labels get their turn after all.
  if (!hit.found && run?.detected.size) return scanFrames(page).catch(() => NONE);
  return hit;
}

/** Policy "profile:NAME": only that profile's selectors, wherever the page is. */
export function detectProfile(page: Page, profile: SiteProfile, waitMs: number): Promise<Detection> {
  return poll(waitMs, () => fromProfile(page, profile));
}

async function poll(waitMs: number, once: () => Promise<Detection>): Promise<Detection> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const hit = await once().catch(() => NONE); // a frame navigating away mid-scan: try again
    if (hit.found || Date.now() >= deadline) return hit;
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function fromLibrary(page: Page, run: LibraryRun): Promise<Detection> {
  const { frame, cmp } = run.found!;
  const text = await frame.evaluate(bannerText, BANNER_WORDS).catch(() => '');
  return { found: true, cmp, known: true, frame: frame === page.mainFrame() ? null : frame.url(), library: run, bannerText: text };
}

async function scanFrames(page: Page): Promise<Detection> {
  const hits: { frame: Frame; accept: string | null; reject: string | null; text: string }[] = [];
  for (const frame of page.frames()) {
    if (frame !== page.mainFrame() && !(await frameShown(frame))) continue;
    const hit = await frame.evaluate(scanFrame, ARGS).catch(() => null);
    if (hit) hits.push({ frame, ...hit });
  }
  const hit = hits[0];
  if (!hit) return NONE;
  const button = (kind: 'accept' | 'reject', label: string | null) =>
    label === null ? undefined : { locator: hit.frame.locator(`[${MARK}="${kind}"]`).first(), label };
  return {
    found: true, cmp: 'generic', known: false,
    frame: hit.frame === page.mainFrame() ? null : hit.frame.url(),
    accept: button('accept', hit.accept), reject: button('reject', hit.reject),
    bannerText: hit.text,
  };
}

async function frameShown(frame: Frame): Promise<boolean> {
  const owner = await frame.frameElement().catch(() => null);
  if (!owner) return false;
  return owner.isVisible().finally(() => void owner.dispose());
}

async function fromProfile(page: Page, profile: SiteProfile): Promise<Detection> {
  const c = profile.consent ?? {};
  let root: Page | FrameLocator | Locator = page;
  if (c.iframe) {
    if (!(await page.locator(c.iframe).first().isVisible())) return NONE;
    root = page.frameLocator(c.iframe).first();
  }
  if (c.shadow_host) root = root.locator(c.shadow_host).first(); // CSS locators pierce open shadow roots
  const shown = async (sel?: string) => (sel && (await root.locator(sel).first().isVisible()) ? root.locator(sel).first() : undefined);
  const [banner, accept, reject] = [await shown(c.banner), await shown(c.accept), await shown(c.reject)];
  if (c.banner ? !banner : !accept && !reject) return NONE;
  if (!accept && !reject) return NONE;
  const textOf = banner ?? (c.iframe ? root.locator('body') : (accept ?? reject)!.locator('xpath=..'));
  return {
    found: true, cmp: `profile:${profile.name}`, known: true, frame: c.iframe ?? null,
    accept: accept && { locator: accept, label: c.accept! },
    reject: reject && { locator: reject, label: c.reject! },
    banner, bannerText: (await textOf.innerText({ timeout: 1000 }).catch(() => '')).replace(/\s+/g, ' ').trim(),
  };
}
