// web.fill_form: fill a whole form from {field: value}, read every value back,
// optionally submit it with the form's own button. Password and payment fields
// and the submit itself are confirmed through the host (the user) first; typed
// secrets never come back in the result.
import { WebcapError } from '../../manifests/errors.js';
import { hasRefs } from '../../manifests/secrets/refs.js';
import { frameOf, resolveRefs } from '../secrets/resolve.js';
import { mapError } from '../errors.js';
import { clickAndSettle, findSubmit, SUBMIT_MARK } from '../forms/submit.js';
import { clearMarks, fieldLocator, locateFields, STRATEGIES, type Located, type Strategy } from '../forms/locate.js';
import { mainText } from '../forms/main-text.js';
import { setField, type FieldValue, type SetOutcome } from '../forms/set-field.js';
import { FormShots } from '../forms/shots.js';
import { defineTool, pageTool, waitForSelector, type PageCall, type ToolContext } from '../tool.js';
import { TypingGuard } from '../guard/typing-guard.js';
import { describeField } from './field-kind.js';
import { navigate, open } from './navigation.js';

const REDACTED = '[REDACTED]';
/** Fields were found and are visible: a few seconds is plenty, and one stuck field must not eat the whole call's time. */
const FIELD_TIMEOUT_MS = 5000;

interface Failed { field: string; reason: string }

const fillOnPage = pageTool('web.fill_form', async (call, params) => {
  const { page, session, ctx, selector } = call;
  // Every step takes its time from one budget, so the call ends within `timeout` as the host expects.
  const deadline = Date.now() + call.timeout;
  const left = () => Math.max(1, deadline - Date.now());
  const fields = params.fields;
  const strategy = params.selector_strategy ?? 'auto';
  const scope = params.form ? await waitForSelector(page, selector(params.form), left(), 'attached') : undefined;
  const shots = new FormShots(ctx.init.workspace, left);
  await shots.take(page, 'before');
  const located = await locateFields(page, Object.keys(fields), strategy === 'auto' ? STRATEGIES : [strategy], scope);
  const secrets = await confirmSecrets(call, left, located, fields);
  const scrub = (text: string) => secrets.reduce((t, s) => t.split(s).join(REDACTED), text);

  await ctx.polite(session);
  const filled: string[] = [];
  const failed: Failed[] = [];
  const values: Record<string, { located_by: Strategy; kind: string; value: string | boolean }> = {};
  for (const [i, loc] of located.entries()) {
    if (!loc.kind || !loc.by) { failed.push({ field: loc.field, reason: loc.problem ?? 'not found' }); continue; }
    const value = fields[loc.field];
    let secret = secrets.includes(String(value)) || loc.kind === 'password';
    if (!secret && typeof value === 'string' && !['select', 'radio', 'checkbox'].includes(loc.kind)) {
      // A field can turn into type=password when it gets focus: look once it has it, before any text lands.
      const guard = new TypingGuard(call, 'web.fill_form', value);
      await fieldLocator(page, i).first().focus({ timeout: Math.min(left(), FIELD_TIMEOUT_MS) }).catch(() => undefined);
      await guard.check();
      if (guard.saw('password') || guard.saw('payment')) { secret = true; secrets.push(value); }
    }
    // A vault reference becomes its value here, for the frame the field is in; a refusal fails the whole call (nothing more is typed).
    const typed = hasRefs(value) ? await resolveRefs(call, 'web.fill_form', value, await frameOf(fieldLocator(page, i).first(), Math.min(left(), FIELD_TIMEOUT_MS))) : value;
    const outcome = await setField(fieldLocator(page, i), loc.kind, loc.count, typed, Math.min(left(), FIELD_TIMEOUT_MS), secret).catch(asFailure);
    if (!outcome.ok) { failed.push({ field: loc.field, reason: scrub(outcome.reason) }); continue; }
    filled.push(loc.field);
    values[loc.field] = { located_by: loc.by, kind: loc.kind, value: secret ? REDACTED : outcome.value };
  }

  const sent = params.submit ? await submit(call, left, { scope, located, filled, failed, shots, waitMs: params.wait_after_submit ?? 3000 }) : undefined;
  await clearMarks(page, SUBMIT_MARK);
  const resultPage = session.page; // a form with target=_blank lands in a new tab
  await shots.take(resultPage, 'after');
  return {
    success: failed.length === 0 && (!params.submit || (sent?.submitted === true && (sent.status ?? 200) < 400)),
    fields_filled: filled,
    fields_failed: failed,
    values,
    submitted: sent?.submitted ?? false,
    ...(sent?.skipped ? { submit_skipped: sent.skipped } : {}),
    result_url: sent?.submitted ? resultPage.url() : null,
    result_status: sent?.status ?? null,
    result_content: sent?.submitted ? scrub(await mainText(resultPage)) : null,
    screenshots: shots.paths,
    ...(shots.problems.length ? { screenshot_problems: shots.problems } : {}),
    url: resultPage.url(),
  };
});

/** Asks about every password/payment field before anything is typed, so a "no" leaves the form untouched. */
async function confirmSecrets({ page, session, ctx }: PageCall, left: () => number, located: Located[], fields: Record<string, FieldValue>): Promise<string[]> {
  const secrets: string[] = [];
  for (const [i, loc] of located.entries()) {
    if (!loc.kind || loc.kind === 'checkbox' || loc.kind === 'radio' || loc.kind === 'select') continue;
    const info = await describeField(fieldLocator(page, i).first(), left());
    if (info.kind === 'plain') continue;
    const value = String(fields[loc.field]);
    secrets.push(value);
    await ctx.confirm({ capability: 'web.fill_form', selector: `${info.kind} field ${JSON.stringify(loc.field)}`, reason: `${info.kind}_field`, secret: value }, session);
  }
  return secrets.filter((s) => s.length > 0);
}

interface SubmitState { scope?: import('playwright').Locator; located: Located[]; filled: string[]; failed: Failed[]; shots: FormShots; waitMs: number }

async function submit({ page, session, ctx }: PageCall, left: () => number, s: SubmitState): Promise<{ submitted: boolean; status?: number | null; skipped?: string }> {
  // Sending half a form is worse than sending none: the caller fixes the fields and calls again.
  if (s.failed.length) return { submitted: false, skipped: `not submitted: ${s.failed.length} field(s) failed` };
  const first = s.located.findIndex((l) => l.kind !== undefined);
  const control = await findSubmit(page, s.scope ?? fieldLocator(page, first).first(), left());
  try {
    await ctx.confirm({
      capability: 'web.fill_form', selector: `submit button ${JSON.stringify(control.label)}`, reason: 'form_submit',
      details: { action: control.action, method: control.method, fields: s.filled.join(', ') },
    }, session);
  } catch (err) {
    const e = mapError(err);
    throw new WebcapError(e.code, `${e.message}; the form was filled but not sent`, { ...e.details, fields_filled: s.filled, screenshots: s.shots.paths });
  }
  await s.shots.take(page, 'filled');
  await ctx.polite(session);
  const sent = await clickAndSettle(page, control.locator, Math.min(s.waitMs, left()), left());
  return { submitted: true, status: sent.status };
}

function asFailure(err: unknown): SetOutcome {
  const e = mapError(err);
  if (e.code === 'browser_crashed') throw e;
  return { ok: false, reason: e.message };
}

function hasSession(ctx: ToolContext, name: string | undefined): boolean {
  return name ? ctx.sessions.list().some((s) => s.name === name) : ctx.sessions.current !== null;
}

/** With a url: navigate the session there, or open one (closed again if the fill then fails). */
export const fillForm = defineTool('web.fill_form', async (ctx, params) => {
  const url = params.url;
  const timeout = params.timeout ?? ctx.init.browser.default_timeout_ms;
  const started = Date.now();
  let opened: string | undefined;
  if (url && hasSession(ctx, params.session)) await navigate.handle(ctx, { url, session: params.session, timeout });
  else if (url) opened = (await open.handle(ctx, { url, session: params.session, timeout })).session as string;
  try {
    // The host gives the whole call `timeout` ms: the fill gets what loading the page left.
    const left = Math.max(1, timeout - (Date.now() - started));
    const result = await fillOnPage.handle(ctx, { ...params, session: opened ?? params.session, timeout: left });
    return opened ? { ...result, opened_session: true } : result;
  } catch (err) {
    if (opened) await ctx.sessions.close(opened).catch(() => undefined);
    throw err;
  }
});
