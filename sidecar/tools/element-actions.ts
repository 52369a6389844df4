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
import { describeField, describeSubmit, lookFieldByCss, readValueByCss } from './field-kind.js';
import { fingerprintOf } from '../fingerprint.js';

/** The element, once it is visible (as a person would wait for it). */
async function visible(call: PageCall, params: Params): Promise<{ locator: Locator; label: string }> {
  const target = await locateTarget(call, params);
  await notFoundAsSelector(target.locator.waitFor({ state: 'visible', timeout: call.timeout }), target.label, call.timeout);
  return target;
}

const asList = (v: unknown): string[] | undefined => (v === undefined ? undefined : Array.isArray(v) ? v.map(String) : [String(v)]);

export const select = pageTool('web.select', async (call, params) => {
  const { session, timeout, ctx } = call;
  const values = asList(params.value);
  const labels = asList(params.label);
  if ((values === undefined) === (labels === undefined)) {
    throw new WebcapError('invalid_params', 'web.select: give `value` (the option\'s value attribute) or `label` (its visible text), not both and not neither', { field: 'value' });
  }
  const { locator, label } = await visible(call, params);
  const options = await locator.evaluate((el) => ({
    tag: el.tagName.toLowerCase(),
    multiple: el instanceof HTMLSelectElement && el.multiple,
    options: el instanceof HTMLSelectElement ? [...el.options].map((o) => ({ value: o.value, label: o.label.trim() })) : [],
  }));
  if (options.tag !== 'select') {
    throw new WebcapError('invalid_params', `web.select: ${label} is a <${options.tag}>, not a <select>; for a custom dropdown click it open and click the option`, { selector: label });
  }
  const wanted = values ?? labels!;
  const key = values ? 'value' : 'label';
  const missing = wanted.filter((w) => !options.options.some((o) => o[key] === w));
  if (missing.length) {
    // Page text, quoted and cut, so it reads as a value (the host neutralises markers in every error).
    const shown = options.options.slice(0, 30).map((o) => `${JSON.stringify(o.label.slice(0, 80))} (${JSON.stringify(o.value.slice(0, 80))})`).join(', ');
    throw new WebcapError('invalid_params', `web.select: no option with ${key} ${missing.map((m) => JSON.stringify(m)).join(', ')} in ${label}; options: ${shown}`, { field: key, missing });
  }
  if (wanted.length > 1 && !options.multiple) {
    throw new WebcapError('invalid_params', `web.select: ${label} takes one option, ${wanted.length} were given`, { field: key });
  }
  await ctx.polite(session);
  const fp = fingerprintOf(locator);
  const picked = await locator.selectOption(wanted.map((w) => ({ [key]: w })), { timeout });
  const selected = options.options.filter((o) => picked.includes(o.value));
  return { ok: true, selected, ...(await fp) };
});

export const hover = pageTool('web.hover', async (call, params) => {
  const { page, session, timeout, ctx } = call;
  const { locator } = await visible(call, params);
  await ctx.polite(session);
  const fp = fingerprintOf(locator);
  await locator.hover({ timeout });
  return { ok: true, url: page.url(), ...(await fp) };
});

export const type = pageTool('web.type', async (call, params) => {
  const { page, session, timeout, ctx } = call;
  const text = params.text;
  const delay = params.delay_ms ?? 0;
  const named = params.ref ?? params.selector ?? params.role;
  const target = named ? (await visible(call, params)) : { locator: page.locator(':focus').first(), label: 'the focused element' };
  if (!named && (await target.locator.count()) === 0) {
    throw new WebcapError('invalid_params', 'web.type: nothing has focus; name the field (ref, selector or role + name)', { field: 'ref' });
  }
  // Kind and fingerprint in one page.evaluate for a plain CSS selector (field-kind.ts), else through the locator.
  const look = typeof params.selector === 'string' && params.frame === undefined ? await lookFieldByCss(page, target.label) : undefined;
  const field = look?.value ?? await describeField(target.locator, timeout);
  const guard = new TypingGuard(call, 'web.type', text);
  if (field.kind !== 'plain') {
    await ctx.confirm({ capability: 'web.type', selector: target.label, reason: `${field.kind}_field`, secret: text }, session);
    guard.approvedAlready(field.kind);
  }
  // A typed CR or LF is an Enter key press: it submits like one.
  if (/[\r\n]/.test(text) && (await describeSubmit(target.locator, true, timeout)).sensitive) {
    await ctx.confirm({ capability: 'web.type', selector: target.label, reason: 'form_submit' }, session);
  }
  await ctx.polite(session);
  // Taken before typing: a typed newline may navigate.
  const fp = look ? (look.fingerprint ? { fingerprint: look.fingerprint } : {}) : named ? await fingerprintOf(target.locator) : {};
  if (params.clear) await target.locator.clear({ timeout });
  // Key by key (keydown, keypress, input, keyup per character): autocompletes and key handlers see real typing.
  // Each character asks, as it lands, whether focus is now in a password or payment field (typing-guard.ts).
  await target.locator.focus({ timeout });
  // A vault reference becomes its value here, for the frame the field is in (secrets/resolve.ts).
  const typed = hasRefs(text) ? await resolveRefs(call, 'web.type', text, await frameOf(target.locator, timeout)) : text;
  for (const ch of typed) {
    await guard.beforeKey(ch);
    await page.keyboard.type(ch);
    if (delay) await new Promise((r) => setTimeout(r, delay));
  }
  const value = (look && await readValueByCss(page, target.label)) ?? await target.locator.inputValue({ timeout: 1000 }).catch(() => undefined);
  const secret = field.kind === 'password' || guard.saw('password');
  return { ok: true, url: page.url(), ...(value === undefined ? {} : { value: secret ? '[REDACTED]' : value }), ...fp };
});
