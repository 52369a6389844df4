// Finds the cookie banner on a page: first the site profile's own rules, then
// the known CMPs, then generic labelled buttons, in the main frame and every
// iframe. Banners are often injected a moment after load, so we poll for a
// short while before concluding there is none.
import type { Frame, FrameLocator, Locator, Page } from 'playwright';
import type { SiteProfile } from '../profiles.js';
import { ACCEPT_LABELS, BANNER_WORDS, CMPS, REJECT_LABELS } from './cmps.js';
import { MARK, scanFrame, type ScanArgs } from './scan.js';

export interface Button { locator: Locator; label: string }

export interface Detection {
  found: boolean;
  /** onetrust, cookiebot, …, "generic", or "profile:NAME". */
  cmp: string | null;
  /** Recognised (a CMP or a profile), as opposed to guessed from button labels. */
  known: boolean;
  /** Where the banner lives when not in the main frame (frame URL or the profile's iframe selector). */
  frame: string | null;
  accept?: Button;
  reject?: Button;
  banner?: Locator;
  bannerText: string;
}

const NONE: Detection = { found: false, cmp: null, known: false, frame: null, bannerText: '' };
const ARGS: ScanArgs = { rules: CMPS, accept: ACCEPT_LABELS, reject: REJECT_LABELS, words: BANNER_WORDS };

/** Polls until a banner shows up or `waitMs` passes. `profile` is the page's own profile, if any. */
export async function detect(page: Page, profile: SiteProfile | undefined, waitMs: number): Promise<Detection> {
  return poll(waitMs, async () => {
    if (profile?.consent) {
      const hit = await fromProfile(page, profile);
      if (hit.found) return hit;
    }
    return scanFrames(page);
  });
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

async function scanFrames(page: Page): Promise<Detection> {
  const hits: { frame: Frame; cmp: string; accept: string | null; reject: string | null; text: string }[] = [];
  for (const frame of page.frames()) {
    if (frame !== page.mainFrame() && !(await frameShown(frame))) continue;
    const hit = await frame.evaluate(scanFrame, ARGS).catch(() => null);
    if (hit) hits.push({ frame, ...hit });
  }
  // A CMP anywhere beats a generic guess in the main frame.
  const hit = hits.find((h) => h.cmp !== 'generic') ?? hits[0];
  if (!hit) return NONE;
  const button = (kind: 'accept' | 'reject', label: string | null) =>
    label === null ? undefined : { locator: hit.frame.locator(`[${MARK}="${kind}"]`).first(), label };
  const rule = CMPS.find((r) => r.cmp === hit.cmp);
  return {
    found: true, cmp: hit.cmp, known: hit.cmp !== 'generic',
    frame: hit.frame === page.mainFrame() ? null : hit.frame.url(),
    accept: button('accept', hit.accept), reject: button('reject', hit.reject),
    banner: rule ? hit.frame.locator(rule.banner).first() : undefined,
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
