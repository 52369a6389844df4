// The click on a submit the person just approved. Playwright's click would
// wait for the element to be visible, enabled and stable (two animation
// frames) and set up its hit-target check, all of which was looked at before
// the question, and the person took seconds to answer. Here one evaluate in the
// page looks again, at what the answer was about: the same element, where it
// was when asked, still visible and enabled, and the one a click at its centre
// hits; it guards the click against landing elsewhere. Then Playwright clicks
// without its own checks (its scrolling, clickable point and wait for the
// navigation the click starts still apply). Whenever the look finds anything
// changed, or the guard stopped an event, the ordinary click runs instead and
// waits as it always does.
import type { JSHandle, Locator, Page } from 'playwright';
import type { Pristine } from '../guard/pristine.js';

export interface Box { x: number; y: number; width: number; height: number }

declare const __webcapPristine: Pristine | undefined;

/** In the page (no closures): the element's box now, against `before` (page coordinates), and the hit test. */
function recheckInPage(el: Element, before: Box): { x: number; y: number } | { miss: string } {
  if (typeof __webcapPristine === 'undefined') return { miss: 'unchecked' };
  const P = __webcapPristine;
  const v = P.viewport();
  let r = P.box(el);
  const moved = Math.abs(r.x + v.scrollX - before.x) > 1 || Math.abs(r.y + v.scrollY - before.y) > 1
    || Math.abs(r.width - before.width) > 1 || Math.abs(r.height - before.height) > 1;
  if (moved) return { miss: 'moved' };
  if (r.width <= 0 || r.height <= 0 || !P.visible(el)) return { miss: 'hidden' };
  if (P.closest(el, ':disabled')) return { miss: 'disabled' };
  if (r.x < 0 || r.y < 0 || r.x + r.width > v.width || r.y + r.height > v.height) {
    P.scrollIntoView(el);
    r = P.box(el);
  }
  const x = r.x + r.width / 2;
  const y = r.y + r.height / 2;
  if (!(x >= 0 && y >= 0 && x < v.width && y < v.height)) return { miss: 'outside' };
  if (!P.hits(el, x, y)) return { miss: 'covered' };
  P.guardClicks(el);
  return { x, y };
}

function unguardInPage(): boolean {
  return typeof __webcapPristine !== 'undefined' && __webcapPristine.unguard();
}

/**
 * Clicks the element `css` names (plain CSS in the top document, found the way
 * the look before the question found it), approved while it sat at `before`
 * (page coordinates). The look and the re-check are one evaluate; `target` is
 * the same element through Playwright, for the ordinary click.
 */
export async function clickApproved(page: Page, css: string, target: Locator, before: Box, timeout: number): Promise<void> {
  const expression = `(() => {
    if (typeof __webcapPristine === 'undefined') return { miss: 'unchecked' };
    let el;
    try { el = __webcapPristine.docQuery(${JSON.stringify(css)}); } catch { return { miss: 'gone' }; }
    if (!el || __webcapPristine.hasShadowRoots()) return { miss: 'gone' };
    const look = (${recheckInPage.toString()})(el, ${JSON.stringify(before)});
    return 'miss' in look ? look : el;
  })()`;
  const found: JSHandle | undefined = await page.evaluateHandle(expression).catch(() => undefined);
  const handle = found?.asElement();
  if (!handle) {
    await found?.dispose().catch(() => undefined);
    await target.click({ timeout });
    return;
  }
  let stopped = false;
  try {
    await handle.click({ force: true, timeout });
  } finally {
    // A document the click navigated away from is gone with its guard: nothing was stopped there.
    stopped = await handle.evaluate(unguardInPage).catch(() => false);
    await handle.dispose().catch(() => undefined);
  }
  if (stopped) await target.click({ timeout });
}
