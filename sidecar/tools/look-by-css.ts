// One page.evaluate instead of a locator's round trips, for an element named
// by a plain CSS selector: resolve it, check it shows (when the action would
// wait for that), read what the action must know before acting (its field
// kind, whether it submits, its options), its fingerprint, and, for typing,
// focus it and read what has focus once the focus handlers ran. Anything the
// fast path cannot vouch for answers undefined and the caller takes the
// locator path, which also waits for the element to appear.
import type { Page } from 'playwright';
import { WebcapError } from '../../manifests/errors.js';
import type { Pristine } from '../guard/pristine.js';
import { evaluateInPage, pageFlush, watchEvaluate } from '../guard/redirect-hops.js';
import { readFingerprint, TEXT_CHARS, type Fingerprint } from '../fingerprint.js';
import { fieldInPage, submitInPage, type FieldInfo } from './field-kind.js';
import { clickPointInPage, type Point } from './click-at-point.js';
import { readyInPage } from './fill-at-focus.js';

declare const __webcapPristine: Pristine | undefined;

/**
 * When the look focuses the element: `plain-field` an input or textarea that is
 * no password or payment field (web.fill), `plain` any element of that kind
 * (web.type), `always` whatever it is (web.keypress: the typing guard asks).
 */
type FocusMode = 'plain-field' | 'plain' | 'always';

interface LookOptions<A> {
  arg?: A;
  fingerprint?: boolean;
  /** Miss unless the element shows (the caller's fallback waits for it). */
  visible?: boolean;
  focus?: FocusMode;
  /** Also where a click would land now (click-at-point.ts), when it can. */
  point?: boolean;
  /**
   * The check may act (web.select chooses in it): a failed round trip then
   * throws navigation_failed instead of missing, since the caller's fallback
   * would act a second time if it had acted.
   */
  acts?: string;
  /**
   * After focusing, arm the page's key guard (pristine.ts armKeys) when what
   * has focus is one plain field: the caller then types without a read per key
   * and must disarm it (key-guard.ts).
   */
  armKeys?: boolean;
  /**
   * The check acts (web.select chooses): send the effect gate's ordered flush
   * on the watch's session right behind the look, without waiting for its
   * answer. The look's body runs to its end before the flush's timer is armed,
   * so the flush answers after what the change handlers set off; the action
   * needs no further round trip for it, and a flush lost to a navigation the
   * handlers started fails alone, not the look.
   */
  flushAfter?: boolean;
  /**
   * After focusing, when what has focus is one plain field: check it can take
   * an insertion at once and select its text (fill-at-focus.ts readyInPage),
   * so web.fill's insertion follows this look with no round trip between; and
   * arm the page's insertion guard on it (pristine.ts armInsert), which stops
   * that insertion if focus has left the field, or the field turned secret,
   * by the time it lands. The caller must disarm it (readBackByCss).
   */
  readyToInsert?: boolean;
}

export interface Look<R> {
  value: R;
  fingerprint?: Fingerprint;
  /** After focusing: the kinds along the focused chain (focusedKindsInPage), when the look focused. */
  focused?: string;
  point?: Point;
  /** The look armed the page's key guard (LookOptions.armKeys). */
  armed?: boolean;
  /** The field took focus, is plain, and its text is selected for an insertion (LookOptions.readyToInsert). */
  ready?: boolean;
  /** The ordered flush sent right behind the look (LookOptions.flushAfter), when the look ran on the watch's session. */
  flushed?: Promise<unknown>;
}

/**
 * Visible as Playwright's actionability check means it: a box with an area, not
 * visibility:hidden, not inside display:none or content-visibility:hidden. A
 * convenience (act once it shows), not a guard: the page may lie about it.
 */
function visibleInPage(el: Element): boolean {
  const rect = el.getBoundingClientRect();
  if (!(rect.width > 0 && rect.height > 0)) return false;
  if (getComputedStyle(el).visibility !== 'visible') return false;
  return typeof el.checkVisibility !== 'function' || el.checkVisibility();
}

/**
 * The kinds (field-kind.ts) of the focused element and every shadow host above
 * it, read from the top document down through open shadow roots and frames of
 * the same origin, with the DOM functions captured before the page's scripts
 * (pristine.ts). 'opaque': focus is inside another origin's frame, which only
 * Playwright's per-frame look can read. No capture: 'password' (fail closed).
 * A string, built with +=: the page may redefine Array methods and setters.
 */
function focusedKindsInPage(field: (el: Element) => FieldInfo): string {
  if (typeof __webcapPristine === 'undefined') return 'password';
  const P = __webcapPristine;
  let root: Document | ShadowRoot = document;
  let out = '';
  for (let depth = 0; depth < 64; depth++) {
    const el = P.active(root);
    if (!el) return out;
    const tag = P.tag(el);
    if (tag === 'iframe' || tag === 'frame') {
      const inner = P.frameDoc(el);
      if (!inner) return 'opaque';
      root = inner;
      continue;
    }
    out += `${field(el).kind} `;
    const shadow = P.openShadow(el);
    if (!shadow) return out;
    root = shadow;
  }
  return out;
}

/** The expression that reads focusedKindsInPage in one round trip (a page.evaluate of source text). */
export const FOCUSED_KINDS = `(${focusedKindsInPage.toString()})(${fieldInPage.toString()})`;

/**
 * Only for a selector document.querySelector accepts, on a page without open
 * shadow roots, where it finds the very element Playwright's engine picks (the
 * first match in document order). A fingerprint that fails to read is left
 * out, as fingerprintOf does; the check still counts.
 */
export async function lookByCss<A, R>(page: Page, css: string, check: (el: Element, arg: A) => R, opts: LookOptions<A> = {}): Promise<Look<R> | undefined> {
  const focus = opts.focus === undefined ? '' : `
    const kind = (${fieldInPage.toString()})(el);
    if (${JSON.stringify(opts.focus)} === 'always' || (kind.kind === 'plain' && (${JSON.stringify(opts.focus)} === 'plain' || kind.tag === 'input' || kind.tag === 'textarea'))) {
      P.focus(el);
      await P.tick();
      focused = ${FOCUSED_KINDS};
      ${opts.armKeys ? `if (focused === 'plain ') { P.armKeys('', ${fieldInPage.toString()}); armed = true; }` : ''}
      ${opts.readyToInsert ? `if (focused === 'plain ') { try { ready = (${readyInPage.toString()})(${JSON.stringify(css)}, ${fieldInPage.toString()}) === true; } catch {} if (ready) P.armInsert(el, ${fieldInPage.toString()}); }` : ''}
    }`;
  const expression = `(async () => {
    if (typeof __webcapPristine === 'undefined') return { miss: true };
    const P = __webcapPristine;
    const el = P.docQuery(${JSON.stringify(css)});
    if (!el || P.hasShadowRoots()) return { miss: true };
    ${opts.visible ? `try { if (!(${visibleInPage.toString()})(el)) return { miss: true }; } catch { return { miss: true }; }` : ''}
    let fingerprint;
    ${opts.fingerprint ? `try { fingerprint = (${readFingerprint.toString()})(el, ${TEXT_CHARS}); } catch {}` : ''}
    let point;
    ${opts.point ? `try { point = (${clickPointInPage.toString()})(el) ?? undefined; } catch {}` : ''}
    let value;
    try { value = (${check.toString()})(el, ${JSON.stringify(opts.arg ?? null)}); } catch { return { miss: true }; }
    let focused;
    let armed = false;
    let ready = false;
    ${focus}
    return { value, fingerprint, focused, point, armed, ready };
  })()`;
  // A look that acts reads its answer through the browser's own copy (watchEvaluate), so a failure means the
  // document went away, not that the page broke the copy.
  const watched = opts.acts ? watchEvaluate(page) : undefined;
  const asked = watched ? watched(expression) : opts.acts ? page.evaluate(expression) : evaluateInPage(page, expression);
  const flush = opts.flushAfter && watched ? pageFlush(page) : undefined;
  const flushed = flush?.ordered ? flush.run() : undefined;
  flushed?.catch(() => undefined);
  const r = await asked.catch((err: unknown) => {
    if (opts.acts) throw new WebcapError('navigation_failed', `${opts.acts}: the page went away (or its evaluate failed) while it acted on ${css}; whether it took effect is unknown, so look at the page again (${firstLine(err)})`, { selector: css });
    return { miss: true };
  }) as { miss?: true; value: R; fingerprint?: Fingerprint; focused?: string; point?: Point; armed?: boolean; ready?: boolean };
  if (r.miss) return undefined;
  return {
    value: r.value, ...(r.fingerprint ? { fingerprint: r.fingerprint } : {}), ...(typeof r.focused === 'string' ? { focused: r.focused } : {}),
    ...(isPoint(r.point) ? { point: r.point } : {}), ...(r.armed === true ? { armed: true } : {}), ...(r.ready === true ? { ready: true } : {}),
    ...(flushed ? { flushed } : {}),
  };
}

const isPoint = (p: unknown): p is Point => typeof p === 'object' && p !== null && Number.isFinite((p as Point).x) && Number.isFinite((p as Point).y);
const firstLine = (err: unknown) => String((err as Error)?.message ?? err).split('\n')[0].slice(0, 200);

export const describeFieldByCss = async (page: Page, css: string) => (await lookByCss(page, css, fieldInPage))?.value;

/** The field's kind and fingerprint (one page.evaluate; fingerprintOf alone costs a locator's round trips). */
export const lookFieldByCss = (page: Page, css: string, more: Omit<LookOptions<undefined>, 'fingerprint'> = {}) => lookByCss(page, css, fieldInPage, { ...more, fingerprint: true });

/** web.click's look: is it a sensitive submit, its fingerprint, and where a click would land now. */
export const lookSubmitByCss = (page: Page, css: string) => lookByCss(page, css, submitInPage, { arg: false, fingerprint: true, point: true });
