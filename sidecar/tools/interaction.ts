// web.click, web.fill, web.keypress. Sensitive steps (typing into a password
// or payment field, submitting a POST form or one with a password) are
// confirmed through the host before they happen.
import type { Locator, Page } from 'playwright';
import { WebcapError } from '../../manifests/errors.js';
import { locateTarget } from '../target.js';
import { notFoundAsSelector, pageTool } from '../tool.js';
import { TypingGuard, typedText } from '../guard/typing-guard.js';
import { fingerprintOf } from '../fingerprint.js';
import { describeField, describeSubmit, READ_BACK_MS, readBackByCss, submitInPage, valueAfter, type FieldInfo } from './field-kind.js';
import { lookByCss, lookFieldByCss, lookSubmitByCss } from './look-by-css.js';
import { clickAtPoint, lookClickByLocator } from './click-at-point.js';
import { armInsert, fillAtFocus, insertingArmed } from './fill-at-focus.js';
import { typesIntoField } from '../guard/effect-rules.js';
import { fieldTurnedSecret, landsInSecret, secretMark, secretValue, typesText } from './secret-input.js';
import { hasRefs } from '../../manifests/secrets/refs.js';
import { pageFlush } from '../guard/redirect-hops.js';
import { frameOf, resolveRefs } from '../secrets/resolve.js';

// One look at the element before acting (is this a sensitive submit or field?
// and its fingerprint): a single page.evaluate for plain CSS selectors, else
// through the locator, which also waits for the element to appear.
export const click = pageTool('web.click', async (call, params) => {
  const { page, session, timeout, ctx } = call;
  const { locator: target, label } = await locateTarget(call, params);
  const css = typeof params.selector === 'string' && params.frame === undefined ? label : undefined;
  const look = css ? await lookSubmitByCss(page, css) : undefined;
  // An element of the top document named another way (a snapshot's bare ref, a role) gets the same look through its locator.
  const topDocument = !look && params.frame === undefined && (typeof params.ref !== 'string' || /^e\d+$/.test(params.ref));
  const located = topDocument ? await notFoundAsSelector(lookClickByLocator(target, timeout), label, timeout) : undefined;
  const submit = look?.value ?? located ?? await notFoundAsSelector(describeSubmit(target, false, timeout), label, timeout);
  if (submit.sensitive) await ctx.confirm({ capability: 'web.click', selector: label, reason: 'form_submit' }, session);
  await ctx.polite(session);
  // Taken before the click: a click that navigates takes the element away.
  const fp = look ? (look.fingerprint ? { fingerprint: look.fingerprint } : {}) : await fingerprintOf(target);
  // Straight to the point the look found when it still holds; else the locator's click, which waits (click-at-point.ts).
  const point = look?.point ?? located?.point;
  const clicked = point ? await clickAtPoint(call, look?.point ? { css: css! } : { locator: target }, point) : false;
  if (!clicked) await target.click({ timeout });
  // 'commit' holds once the click returns: the document it left or reached is committed already.
  if (params.wait_until && params.wait_until !== 'commit') await page.waitForLoadState(params.wait_until, { timeout }).catch(() => undefined);
  return { ok: true, url: page.url(), ...fp };
});

export const fill = pageTool('web.fill', async (call, params) => {
  const { page, session, timeout, ctx } = call;
  const { locator: target, label } = await locateTarget(call, params);
  const css = typeof params.selector === 'string' && params.frame === undefined ? label : undefined;
  const text = params.text;
  // A plain input or textarea is focused in the same look, and what has focus read once its focus handlers ran.
  // Polite first: then a plain field can also be readied for the insertion in that look (nothing waits between).
  if (css) await ctx.polite(session);
  const insertAtOnce = !!css && text !== '' && !hasRefs(text);
  const look = css ? await lookFieldByCss(page, css, { focus: 'plain-field', readyToInsert: insertAtOnce }) : undefined;
  const field = look?.value ?? await notFoundAsSelector(describeField(target, timeout), label, timeout);
  const guard = new TypingGuard(call, 'web.fill', text);
  if (field.kind === 'password' || field.kind === 'payment') {
    await ctx.confirm({ capability: 'web.fill', selector: label, reason: `${field.kind}_field`, secret: text }, session);
  } else if (look?.focused !== undefined) {
    await guard.checkRead(look.focused);
  } else if (field.tag === 'input' || field.tag === 'textarea') {
    // A field may turn into type=password when it gets focus: look again once it has it, before any text lands.
    await target.focus({ timeout });
    await guard.check();
  }
  if (!css) await ctx.polite(session);
  const fp = look ? Promise.resolve(look.fingerprint ? { fingerprint: look.fingerprint } : {}) : fingerprintOf(target);
  // A vault reference becomes its value here, for the frame the field is in (secrets/resolve.ts).
  const typed = hasRefs(text) ? await resolveRefs(call, 'web.fill', text, await frameOf(target, timeout)) : text;
  // The insertion guard stopped the text (nothing landed): a secret field it was bound for asks first ("no": consent_denied).
  const stopped = { ask: (why: string) => (why === 'password' || why === 'payment' ? guard.approveStopped(why) : Promise.resolve()), approved: () => guard.approvedKinds() };
  const { value, now } = await setValue(target, field.tag, field.type, typed, timeout, css ? { page, css, focused: look?.focused !== undefined, readied: look?.ready === true, inputDone: call.inputDone, stopped } : undefined).catch((err: Error) => {
    // A ref or role can name a button as easily as a field: say so, not "internal".
    if (/Element is not an <input>/.test(err.message)) {
      throw new WebcapError('invalid_params', `${label} is a <${field.tag}>, not a field web.fill can type into`, { ref: label, tag: field.tag });
    }
    throw err;
  });
  // A field that turned into a password field on focus (or while typed into) is only one now: look again, so the host hides the text.
  const turned = field.kind === 'plain' && (guard.saw('password') || guard.saw('payment') || (field.tag === 'input' && (now ? now.kind !== 'plain' : await fieldTurnedSecret(page, target, css))));
  const secret = field.kind !== 'plain' || turned;
  // The fingerprint was read before focus: a field that turned secret since is marked so here (its value is never exported).
  const print = await fp;
  if (secret && print.fingerprint) print.fingerprint.secret = true;
  return { ok: true, value: secret ? '[REDACTED]' : value, field: field.type || field.tag, ...secretMark(secret, turned ? text : undefined), ...print };
});

/**
 * Sets a field the way its kind wants it, then reads it back so a caller knows
 * it stuck; on the CSS fast path the read-back also says what kind the field
 * is now (`now`), in the same page.evaluate.
 */
async function setValue(target: Locator, tag: string, type: string, text: string, timeout: number, byCss?: { page: Page; css: string; focused: boolean; readied: boolean; inputDone(): void; stopped: Stopped }): Promise<{ value: unknown; now?: FieldInfo }> {
  if (tag === 'select') {
    // By value when an option has it, else by label. Asked first, because selectOption waits its whole
    // timeout for an option that is not there: trying the value and then the label kept a fill by label
    // waiting 30 s. The page's answer only picks which of its own options is meant.
    const hasValue = await target.evaluate((el, t) => Array.from((el as HTMLSelectElement).options ?? []).some((o) => o.value === t), text, { timeout }).catch(() => false);
    await target.selectOption(hasValue ? { value: text } : { label: text }, { timeout });
    return { value: await valueAfter(target) };
  }
  if (type === 'checkbox' || type === 'radio') {
    await target.setChecked(!/^(false|0|off|no|)$/i.test(text), { timeout });
    return { value: await target.isChecked({ timeout: READ_BACK_MS }).catch(() => null) };
  }
  if (byCss) {
    // Straight into the field the look focused when it still has focus (fill-at-focus.ts); else Playwright's
    // page-level fill, which skips the locator's extra round trips (same first-match element).
    // Either way the page's insertion guard judges the text where it lands (fillAfterStop below).
    const tried = byCss.focused ? await fillAtFocus(byCss.page, byCss.css, text, byCss.readied) : { direct: false, armed: false };
    if (!tried.direct) await insertingArmed(byCss.page, tried.armed, () => byCss.page.fill(byCss.css, text, { timeout }));
    byCss.inputDone();   // the read-back overlaps the effect gate's round trip
    const back = await readBackByCss(byCss.page, byCss.css, tried.armed);
    if (back?.stopped === undefined) return { value: back ? back.value : await valueAfter(byCss.page.locator(byCss.css)), now: back?.field };
    return fillAfterStop(byCss.page, byCss.css, text, timeout, back.stopped, byCss.stopped);
  }
  await target.fill(text, { timeout });
  return { value: await valueAfter(target) };
}

/** What web.fill does when the page's insertion guard stopped its text: ask about a secret field, the approved kinds. */
interface Stopped { ask(why: string): Promise<void>; approved(): string[] }

/**
 * The insertion guard stopped the text where it landed (focus had left the
 * field, or it turned secret): nothing went in. A secret field it was bound
 * for asks first ("no": consent_denied). Then Playwright's fill, as for a
 * field that was not ready, once, with the guard armed again; one more round
 * trip for the effect gate (the one it waits for went before this input).
 * Stopped again: the call fails and says nothing was typed.
 */
async function fillAfterStop(page: Page, css: string, text: string, timeout: number, why: string, stopped: Stopped): Promise<{ value: unknown; now?: FieldInfo }> {
  await stopped.ask(why);
  const armed = await armInsert(page, css, stopped.approved());
  await insertingArmed(page, armed, () => page.fill(css, text, { timeout }));
  await pageFlush(page).run().catch(() => undefined);
  const again = await readBackByCss(page, css, armed);
  if (again?.stopped !== undefined) {
    await stopped.ask(again.stopped);
    throw new WebcapError('blocked', `web.fill: the page moved focus away from ${css} (or made it a secret field) each time the text went in; nothing was typed`, { selector: css, reason: again.stopped });
  }
  return { value: again ? again.value : await valueAfter(page.locator(css)), now: again?.field };
}

export const keypress = pageTool('web.keypress', async (call, params) => {
  const { page, session, timeout, ctx } = call;
  const keys = params.keys;
  const located = (params.ref ?? params.selector ?? params.role) ? await locateTarget(call, params) : undefined;
  const css = located && typeof params.selector === 'string' && params.frame === undefined ? located.label : undefined;
  // One look at a named element: shown, whether Enter in it submits a form, its fingerprint, and focused, with
  // what has focus read once its focus handlers ran. Else the locator path waits until it shows.
  const look = css ? await lookByCss(page, css, submitInPage, { arg: true, visible: true, fingerprint: true, focus: 'always' }) : undefined;
  if (located && !look) await notFoundAsSelector(located.locator.waitFor({ state: 'visible', timeout }), located.label, timeout);
  const target = located?.locator;
  // Enter in a field of a POST or password form submits it: same consent as clicking submit.
  if (keys.some(isEnterKey)) {
    const focused = target ?? await focusedElement(page);
    const submit = look?.value ?? (focused ? await describeSubmit(focused, true) : { sensitive: false });
    if (submit.sensitive) await ctx.confirm({ capability: 'web.keypress', reason: 'form_submit' }, session);
  }
  await ctx.polite(session);
  const fp = look ? (look.fingerprint ? { fingerprint: look.fingerprint } : {}) : target ? await fingerprintOf(target) : {};   // before: Enter may navigate
  // Each key asks, at the moment it lands, whether the focused field is a password or payment field (typing-guard.ts);
  // one that did makes the host hide this call's keys and learn the field's value (secret-input.ts).
  const guard = new TypingGuard(call, 'web.keypress', typedText(keys));
  let secret = false;
  let value: string | undefined;
  // The look focused the target and read the focus: that counts for the first key if nothing ran on the page since.
  let fresh = look?.focused !== undefined && !keys.some(isEnterKey);
  for (const key of keys) {
    if (fresh) await guard.checkRead(typesIntoField(key) ? look!.focused : '');
    else if (target) {
      // Back to the target before each key, and what has focus read in the same round trip.
      const again = css ? await lookByCss(page, css, () => null, { focus: 'always' }) : undefined;
      if (again) { if (typesIntoField(key)) await guard.checkRead(again.focused); } else {
        await target.focus({ timeout });
        await guard.beforeKey(key);
      }
    } else await guard.beforeKey(key);
    fresh = false;
    const ref = hasRefs(key);
    const into = typesText(key) || ref ? target ?? await focusedElement(page) : undefined;
    if (ref) {
      // A vault reference is resolved for the frame focus is in now, and typed character by character.
      if (!into) throw new WebcapError('invalid_params', 'web.keypress: nothing has focus to type a secret into; name the field', { field: 'ref' });
      const text = await resolveRefs(call, 'web.keypress', key, await frameOf(into, timeout));
      if (target) await target.pressSequentially(text, { timeout });
      else await page.keyboard.type(text);
    } else await page.keyboard.press(key); // a named target has focus already (above): the key goes where the guard just looked
    // Asked after the key landed: a field that turns into type=password on focus has turned by now.
    if (into && await landsInSecret(into, css && target ? { page, css } : undefined)) { secret = true; value = await secretValue(into) ?? value; }
  }
  return { ok: true, url: page.url(), ...secretMark(secret, value), ...fp };
});

/** Enter, NumpadEnter, Control+Enter…, and a bare CR or LF (which Playwright types as Enter). */
function isEnterKey(key: string): boolean {
  return /Enter$/.test(key) || /^[\r\n]$/.test(key);
}

/**
 * The element keys go to when no target is named. Focus inside an iframe shows
 * in the parent only as the iframe element, so every frame is asked for its
 * focused element that is not itself a frame.
 */
async function focusedElement(page: Page): Promise<Locator | undefined> {
  for (const frame of page.frames()) {
    const focused = frame.locator(':focus:not(iframe):not(frame)').first();
    if (await focused.count().catch(() => 0)) return focused;
  }
  return undefined;
}
