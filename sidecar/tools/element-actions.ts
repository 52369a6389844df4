// web.select, web.hover, web.type: element actions beyond click and fill. The
// element is named like every other action (locateTarget: ref, wa-N, selector
// or role + name). Typing into a password or payment field asks first, as
// web.fill does; a newline typed into a POST or password form submits it, so
// that asks too.
import type { Locator } from 'playwright';
import { WebcapError } from '../../manifests/errors.js';
import { hasRefs } from '../../manifests/secrets/refs.js';
import { frameOf, resolveRefs } from '../secrets/resolve.js';
import { locateTarget } from '../target.js';
import { notFoundAsSelector, pageTool, type PageCall, type Params } from '../tool.js';
import { TypingGuard } from '../guard/typing-guard.js';
import { disarmKeys } from '../guard/key-guard.js';
import { describeField, describeSubmit, readValueByCss, valueAfter } from './field-kind.js';
import { lookByCss, lookFieldByCss, type Look } from './look-by-css.js';
import { selectInPage } from './select-in-page.js';
import { typeAtOnce, TYPED_AT_ONCE } from './type-at-once.js';
import { fingerprintOf } from '../fingerprint.js';

/** A plain CSS selector of the top document: the one-round-trip look applies (look-by-css.ts). */
function plainCss(params: Params, label: string): string | undefined {
  return typeof params.selector === 'string' && params.frame === undefined ? label : undefined;
}

/** What web.select must know of the element before choosing (closure-free: it runs in the page). */
function selectOptionsInPage(el: Element) {
  return {
    tag: el.tagName.toLowerCase(),
    multiple: el instanceof HTMLSelectElement && el.multiple,
    options: el instanceof HTMLSelectElement ? [...el.options].map((o) => ({ value: o.value, label: o.label })) : [],
  };
}

const printOf = (look: Look<unknown>) => (look.fingerprint ? { fingerprint: look.fingerprint } : {});

/** The options answered as selected: those whose value was picked, labels trimmed. */
const chosen = (options: Array<{ value: string; label: string }>, picked: string[]) => options.filter((o) => picked.includes(o.value)).map((o) => ({ value: o.value, label: o.label.trim() }));

const asList = (v: unknown): string[] | undefined => (v === undefined ? undefined : Array.isArray(v) ? v.map(String) : [String(v)]);

export const select = pageTool('web.select', async (call, params) => {
  const { page, session, timeout, ctx } = call;
  const values = asList(params.value);
  const labels = asList(params.label);
  if ((values === undefined) === (labels === undefined)) {
    throw new WebcapError('invalid_params', 'web.select: give `value` (the option\'s value attribute) or `label` (its visible text), not both and not neither', { field: 'value' });
  }
  const wanted = values ?? labels!;
  const key = values ? 'value' : 'label';
  // Shown, its options and its fingerprint in one look, which also chooses when Playwright would act at once
  // (select-in-page.ts); else (not there or not shown yet) wait for it as a person would.
  const target = await locateTarget(call, params);
  const { locator, label } = target;
  const css = plainCss(params, label);
  if (css) await ctx.polite(session);
  const look = css ? await lookByCss(page, css, selectInPage, { arg: { key, wanted }, visible: true, fingerprint: true, acts: 'web.select', flushAfter: true }) : undefined;
  if (look?.value.picked) {
    // The gate's flush went right behind the look that chose: the gate waits for that one.
    if (look.flushed) call.inputDone(look.flushed);
    return { ok: true, selected: chosen(look.value.options, look.value.picked), ...printOf(look) };
  }
  if (!look) await notFoundAsSelector(locator.waitFor({ state: 'visible', timeout }), label, timeout);
  const read = look?.value ?? await locator.evaluate(selectOptionsInPage);
  const options = { ...read, options: read.options.map((o) => ({ value: o.value, label: o.label.trim() })) };
  if (options.tag !== 'select') {
    throw new WebcapError('invalid_params', `web.select: ${label} is a <${options.tag}>, not a <select>; for a custom dropdown click it open and click the option`, { selector: label });
  }
  const missing = wanted.filter((w) => !options.options.some((o) => o[key] === w));
  if (missing.length) {
    // Page text, quoted and cut, so it reads as a value (the host neutralises markers in every error).
    const shown = options.options.slice(0, 30).map((o) => `${JSON.stringify(o.label.slice(0, 80))} (${JSON.stringify(o.value.slice(0, 80))})`).join(', ');
    throw new WebcapError('invalid_params', `web.select: no option with ${key} ${missing.map((m) => JSON.stringify(m)).join(', ')} in ${label}; options: ${shown}`, { field: key, missing });
  }
  if (wanted.length > 1 && !options.multiple) {
    throw new WebcapError('invalid_params', `web.select: ${label} takes one option, ${wanted.length} were given`, { field: key });
  }
  if (!css) await ctx.polite(session);
  const fp = look ? Promise.resolve(printOf(look)) : fingerprintOf(locator);
  const choice = wanted.map((w) => ({ [key]: w }));
  // The page-level call skips the locator's extra round trips (same first-match element).
  const picked = css ? await page.selectOption(css, choice, { timeout }) : await locator.selectOption(choice, { timeout });
  return { ok: true, selected: chosen(options.options, picked), ...(await fp) };
});

export const hover = pageTool('web.hover', async (call, params) => {
  const { page, session, timeout, ctx } = call;
  const { locator, label } = await locateTarget(call, params);
  const css = plainCss(params, label);
  const look = css ? await lookByCss(page, css, () => null, { visible: true, fingerprint: true }) : undefined;
  if (!look) await notFoundAsSelector(locator.waitFor({ state: 'visible', timeout }), label, timeout);
  await ctx.polite(session);
  const fp = look ? Promise.resolve(printOf(look)) : fingerprintOf(locator);
  await (css ? page.hover(css, { timeout }) : locator.hover({ timeout }));
  return { ok: true, url: page.url(), ...(await fp) };
});

export const type = pageTool('web.type', async (call, params) => {
  const { page, session, timeout, ctx } = call;
  const text = params.text;
  const delay = params.delay_ms ?? 0;
  const named = params.ref ?? params.selector ?? params.role;
  const located = named ? await locateTarget(call, params) : undefined;
  const css = located && plainCss(params, located.label);
  // One look: shown, its kind and fingerprint, and (a plain field) focused, with what has focus read once its
  // focus handlers ran. Else the locator path: wait until it shows, then look.
  // Plain keys into a page of one document: the look also arms the page's key guard (type-at-once.ts).
  const atOnce = !!css && !params.clear && !delay && TYPED_AT_ONCE.test(text) && !hasRefs(text) && page.frames().length === 1;
  const look = css ? await lookFieldByCss(page, css, { visible: true, focus: 'plain', armKeys: atOnce }) : undefined;
  if (atOnce && !look?.armed) await disarmKeys(page);   // it may have armed before its answer was lost
  if (located && !look) await notFoundAsSelector(located.locator.waitFor({ state: 'visible', timeout }), located.label, timeout);
  const target = located ?? { locator: page.locator(':focus').first(), label: 'the focused element' };
  if (!named && (await target.locator.count()) === 0) {
    throw new WebcapError('invalid_params', 'web.type: nothing has focus; name the field (ref, selector or role + name)', { field: 'ref' });
  }
  const field = look?.value ?? await describeField(target.locator, timeout);
  const guard = new TypingGuard(call, 'web.type', text);
  if (look?.armed) {
    const value = await typeAtOnce(call, guard, css!, target.locator, text);
    return { ok: true, url: page.url(), ...(value === undefined ? {} : { value: guard.saw('password') ? '[REDACTED]' : value }), ...printOf(look) };
  }
  if (field.kind !== 'plain') {
    await ctx.confirm({ capability: 'web.type', selector: target.label, reason: `${field.kind}_field`, secret: text }, session);
    guard.approvedAlready(field.kind);
  }
  // A typed CR or LF is an Enter key press: it submits like one.
  const submits = /[\r\n]/.test(text);
  if (submits && (await describeSubmit(target.locator, true, timeout)).sensitive) {
    await ctx.confirm({ capability: 'web.type', selector: target.label, reason: 'form_submit' }, session);
  }
  await ctx.polite(session);
  // Taken before typing: a typed newline may navigate.
  const fp = look ? printOf(look) : named ? await fingerprintOf(target.locator) : {};
  if (params.clear) await target.locator.clear({ timeout });
  // Key by key (keydown, keypress, input, keyup per character): autocompletes and key handlers see real typing.
  // Each character asks, as it lands, whether focus is now in a password or payment field (typing-guard.ts).
  // The look's read of the focus counts for the first key when nothing ran on the page since.
  let fresh = look?.focused !== undefined && !params.clear;
  if (fresh) {
    await guard.checkRead(look!.focused);
    if (guard.saw('password') || guard.saw('payment')) fresh = false;   // it asked: time passed
  } else await target.locator.focus({ timeout });
  // A vault reference becomes its value here, for the frame the field is in (secrets/resolve.ts).
  const typed = hasRefs(text) ? await resolveRefs(call, 'web.type', text, await frameOf(target.locator, timeout)) : text;
  if (typed !== text) fresh = false;
  for (const ch of typed) {
    if (!fresh) await guard.beforeKey(ch);
    fresh = false;
    await page.keyboard.type(ch);
    if (delay) await new Promise((r) => setTimeout(r, delay));
  }
  call.inputDone();   // the read-back overlaps the effect gate's round trip
  const value = (look && await readValueByCss(page, target.label)) ?? (await valueAfter(target.locator)) ?? undefined;
  const secret = field.kind === 'password' || guard.saw('password');
  return { ok: true, url: page.url(), ...(value === undefined ? {} : { value: secret ? '[REDACTED]' : value }), ...fp };
});
