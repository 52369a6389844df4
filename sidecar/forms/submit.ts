// Submits a filled form with its own submit control (never a synthetic
// form.submit(), which would skip the page's validation and handlers), then
// waits for what the click leads to: a navigation, or wait_after_submit ms
// for a page that updates in place.
import type { Locator, Page } from 'playwright';
import { WebcapError } from '../../manifests/errors.js';

export const SUBMIT_MARK = 'data-webcap-submit';

interface SubmitControl {
  locator: Locator;
  /** What the user is shown in the consent question. */
  action: string;
  method: string;
  label: string;
}

/** `anchor`: the form itself or any field in it. */
export async function findSubmit(page: Page, anchor: Locator, timeout: number): Promise<SubmitControl> {
  const found = await anchor.evaluate((el, mark) => {
    for (const old of document.querySelectorAll(`[${mark}]`)) old.removeAttribute(mark);
    const form = el instanceof HTMLFormElement ? el : (el as HTMLInputElement).form ?? el.closest('form');
    if (!form) return { error: 'the fields are not inside a <form>' };
    // form.elements includes controls placed outside the form with form="id".
    const submit = [...form.elements].find((c) => {
      const e = c as HTMLButtonElement | HTMLInputElement;
      const type = (e.getAttribute('type') ?? (e.tagName === 'BUTTON' ? 'submit' : '')).toLowerCase();
      return !e.disabled && (type === 'submit' || (e.tagName === 'INPUT' && type === 'image'));
    }) as HTMLButtonElement | HTMLInputElement | undefined;
    const action = form.getAttribute('action') === null ? location.href : form.action;
    const method = (form.getAttribute('method') ?? 'get').toUpperCase();
    if (!submit) return { error: 'the form has no enabled submit button', action, method };
    submit.setAttribute(mark, '1');
    return { action, method, label: (submit.textContent ?? '').trim() || submit.value || submit.getAttribute('aria-label') || 'submit' };
  }, SUBMIT_MARK, { timeout });
  if ('error' in found) {
    throw new WebcapError('selector_not_found', `web.fill_form: cannot submit: ${found.error}; the fields were filled, use web.click or web.keypress Enter to send it`, { action: found.action, method: found.method });
  }
  return { locator: page.locator(`[${SUBMIT_MARK}]`).first(), action: found.action, method: found.method, label: found.label.slice(0, 80) };
}

interface Submitted { navigated: boolean; status: number | null }

export async function clickAndSettle(page: Page, control: Locator, waitMs: number, timeout: number): Promise<Submitted> {
  const frame = page.mainFrame();
  let status: number | null = null;
  const onResponse = (r: import('playwright').Response) => {
    if (r.frame() === frame && r.request().isNavigationRequest()) status = r.status();
  };
  page.on('response', onResponse);
  try {
    const navigated = page.waitForEvent('framenavigated', { predicate: (f) => f === frame, timeout: Math.max(waitMs, 1) }).then(() => true, () => false);
    await control.click({ timeout });
    const moved = await navigated;
    if (moved) await page.waitForLoadState('load', { timeout });
    // A page that answers with fetch() and redraws: give its requests a moment to finish.
    await page.waitForLoadState('networkidle', { timeout: Math.max(moved ? Math.min(waitMs, 2000) : 500, 1) }).catch(() => undefined);
    return { navigated: moved, status };
  } finally {
    page.off('response', onResponse);
  }
}
