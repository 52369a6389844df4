// Sets one located field the way its kind wants it and reads it back: a value
// only counts as filled if the page holds it afterwards (a maxlength, an input
// mask or a script that resets the field all show up as failures).
import type { Locator } from 'playwright';
import type { FieldKind } from './locate.js';
import { toIsoDate } from './dates.js';

export type FieldValue = string | number | boolean;
export type SetOutcome = { ok: true; value: string | boolean } | { ok: false; reason: string };

const NO = /^(false|0|off|no|unchecked)$/i;
const YES = /^(true|1|on|yes|checked)$/i;

/** `secret`: a password or payment field, whose content never goes into a reason (it would reach the result and the chain). */
export async function setField(target: Locator, kind: FieldKind, count: number, value: FieldValue, timeout: number, secret = false): Promise<SetOutcome> {
  const text = String(value);
  switch (kind) {
    case 'select': return setSelect(target.first(), text, timeout);
    case 'radio': return setChoice(target, count, text, timeout, 'radio');
    case 'checkbox': return setChoice(target, count, text, timeout, 'checkbox');
    case 'date': {
      const iso = toIsoDate(text);
      if (!iso.ok) return iso;
      return setText(target.first(), iso.value, timeout, secret);
    }
    default: return setText(target.first(), text, timeout, secret);
  }
}

async function setText(target: Locator, text: string, timeout: number, secret: boolean): Promise<SetOutcome> {
  await target.fill(text, { timeout });
  const held = await target.inputValue({ timeout });
  // A textarea normalises \r\n to \n; anything else that differs did not stick.
  if (held === text.replace(/\r\n?/g, '\n')) return { ok: true, value: held };
  // What a secret field kept is a fragment of the secret (a maxlength cut it, a mask
  // reformatted it): whole-secret redaction would miss it, so it is never shown.
  const shown = secret ? 'a different value (not shown: the field is secret)' : JSON.stringify(held.slice(0, 80));
  return { ok: false, reason: `the field holds ${shown} after typing (a length limit, an input mask or a script changed it)` };
}

/** By option value first, then by visible label (case and spacing ignored). */
async function setSelect(target: Locator, wanted: string, timeout: number): Promise<SetOutcome> {
  const options = await target.evaluate((el) => [...(el as HTMLSelectElement).options].map((o) => ({ value: o.value, label: o.label || o.text, disabled: o.disabled })), undefined, { timeout });
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
  const option = options.find((o) => o.value === wanted) ?? options.find((o) => norm(o.label) === norm(wanted));
  if (!option) return { ok: false, reason: `no option ${JSON.stringify(wanted)} (options: ${options.slice(0, 12).map((o) => JSON.stringify(o.label)).join(', ')})` };
  if (option.disabled) return { ok: false, reason: `option ${JSON.stringify(option.label)} is disabled` };
  await target.selectOption({ value: option.value }, { timeout });
  const held = await target.inputValue({ timeout });
  return held === option.value ? { ok: true, value: held } : { ok: false, reason: `the select holds ${JSON.stringify(held)} after choosing ${JSON.stringify(option.value)}` };
}

/**
 * A lone checkbox or radio: "true"/"false" (yes/no/on/off/1/0). A group sharing
 * a name: the value or label of the one to pick (checkboxes: a comma-separated
 * list, the others cleared).
 */
async function setChoice(target: Locator, count: number, text: string, timeout: number, type: 'radio' | 'checkbox'): Promise<SetOutcome> {
  if (count === 1 && (YES.test(text) || NO.test(text) || text === '')) {
    const on = YES.test(text);
    if (!on && type === 'radio' && (await target.isChecked({ timeout }))) return { ok: false, reason: 'a radio button cannot be cleared; choose another one of its group' };
    await target.setChecked(on, { timeout });
    const held = await target.isChecked({ timeout });
    return held === on ? { ok: true, value: held } : { ok: false, reason: `the ${type} is ${held ? 'still checked' : 'still unchecked'} (a script reset it)` };
  }
  const wanted = type === 'radio' ? [text] : text.split(',').map((s) => s.trim()).filter(Boolean);
  const choices = await target.evaluateAll((els) => els.map((el) => {
    const input = el as HTMLInputElement;
    const label = [...(input.labels ?? [])].map((l) => l.textContent ?? '').join(' ');
    return { value: input.value, label: label.replace(/\s+/g, ' ').trim() };
  }));
  const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();
  const pick = wanted.map((w) => choices.findIndex((c) => c.value === w || norm(c.label) === norm(w)));
  const missing = wanted.filter((_, i) => pick[i] < 0);
  if (missing.length) return { ok: false, reason: `no ${type} ${missing.map((m) => JSON.stringify(m)).join(', ')} (choices: ${choices.slice(0, 12).map((c) => JSON.stringify(c.label || c.value)).join(', ')})` };
  for (let i = 0; i < choices.length; i++) {
    const on = pick.includes(i);
    if (on || type === 'checkbox') await target.nth(i).setChecked(on, { timeout });
  }
  const held = await target.evaluateAll((els) => els.map((el) => (el as HTMLInputElement).checked));
  const right = held.every((h, i) => h === pick.includes(i));
  const value = pick.map((i) => choices[i].value).join(',');
  return right ? { ok: true, value } : { ok: false, reason: `the ${type} group did not keep ${JSON.stringify(value)} (a script changed it)` };
}
