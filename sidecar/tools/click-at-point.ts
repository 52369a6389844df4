// web.click's direct path, for an element of the top document (a plain CSS
// selector, a snapshot's bare ref, a role): when the element is shown,
// enabled, inside the viewport and the topmost element at its centre, it is
// clicked at once, without the wait of Playwright's actionability checks for
// the element's box to hold still over two animation frames (most of a
// click's time on a still page). What those checks guarantee besides stays:
// right before the press, the element is found again and must still be what
// the point hits, and until the click ends every trusted pointer or mouse
// event aimed elsewhere (an overlay that appeared, a button that moved) is
// stopped before the page's later listeners see it; then the usual click runs
// instead and waits as it always did. Playwright still presses (scrolling, the
// point, waiting for a navigation the click starts). Every check reads the DOM
// through the functions captured before the page's scripts (pristine.ts), so a
// page that redefines elementFromPoint, contains or getBoundingClientRect
// cannot aim the press; what the click sets off is decided by the effect gate.
import type { Locator, Page } from 'playwright';
import type { Pristine } from '../guard/pristine.js';
import type { PageCall } from '../tool.js';
import { submitInPage } from './field-kind.js';

export interface Point { x: number; y: number }

declare const __webcapPristine: Pristine | undefined;

/**
 * Where a click on `el` lands now, or null: shown, enabled, and the topmost
 * element at its centre is it or inside it, read with the DOM functions
 * captured before the page's scripts (pristine.ts). Self-contained: it runs in
 * the page as part of the look.
 */
export function clickPointInPage(el: Element): Point | null {
  if (typeof __webcapPristine === 'undefined') return null;
  const P = __webcapPristine;
  if (P.closest(el, ':disabled, [aria-disabled="true" i]') !== null) return null;
  const box = P.box(el);
  if (!(box.width > 0 && box.height > 0)) return null;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  const hit = P.hitAt(x, y);   // null outside the viewport
  return hit !== null && P.within(el, hit) ? { x, y } : null;
}

// A real function (Playwright calls functions, but evaluates strings as expressions) built from self-contained parts.
const LOOK_ON_ELEMENT = new Function('el', `return { sensitive: (${submitInPage.toString()})(el, false).sensitive, point: (${clickPointInPage.toString()})(el) ?? undefined };`) as (el: Element) => { sensitive: boolean; point?: Point };

/** web.click's look at an element of the top document named another way (a snapshot ref, a role): one evaluate through its locator. */
export function lookClickByLocator(target: Locator, timeout: number): Promise<{ sensitive: boolean; point?: Point }> {
  return target.evaluate(LOOK_ON_ELEMENT, undefined, { timeout });
}

/** The element by its CSS selector, found again (self-contained: it runs in the page). */
function findInPage(css: string): Element | null {
  return typeof __webcapPristine === 'undefined' ? null : __webcapPristine.docQuery(css);
}

/** If the point still hits `el`, guards the click (pristine.ts guardClick). Self-contained: it runs in the page. */
function armOn(el: Element | null, point: Point): boolean {
  if (el === null) return false;
  if (typeof __webcapPristine === 'undefined') return false;
  const P = __webcapPristine;
  const hit = P.hitAt(point.x, point.y);
  if (hit === null || !P.within(el, hit)) return false;
  P.guardClick(el, 2000);
  return true;
}

/** The element by its plain CSS selector (found again in the page), or through its locator (a ref, a role). */
type ClickTarget = { css: string } | { locator: Locator };

/** How long the guard may take to find a located element again before the usual click takes over. */
const ARM_MS = 2000;

/**
 * Clicks at `point` if the element is still what it hits; false when nothing
 * was pressed or the guard stopped a press (the caller then clicks through the
 * locator, which waits).
 */
export async function clickAtPoint(call: PageCall, target: ClickTarget, point: Point): Promise<boolean> {
  const { page, timeout } = call;
  const armed = await ('css' in target
    ? page.evaluate(`(${armOn.toString()})((${findInPage.toString()})(${JSON.stringify(target.css)}), ${JSON.stringify(point)})`)
    : target.locator.evaluate(armOn, point, { timeout: ARM_MS })
  ).catch(() => false);
  if (armed !== true) return false;
  // force: Playwright's own checks are the ones above; it still waits for a navigation the click starts to commit.
  await ('css' in target ? page.click(target.css, { force: true, timeout }) : target.locator.click({ force: true, timeout }));
  call.inputDone();   // the check below overlaps the effect gate's round trip
  return landed(page);
}

/** A click that navigated took the guard with its document: it landed. */
async function landed(page: Page): Promise<boolean> {
  const answer = await page.evaluate('typeof __webcapPristine === "undefined" || __webcapPristine.clickLanded()').catch(() => true);
  return answer !== false;
}
