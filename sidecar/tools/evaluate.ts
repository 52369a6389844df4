// web.evaluate: run a script in the page. Off unless [capabilities.browser]
// evaluate_enabled = true, and the manifest's approval "always" makes the host
// ask the user before every call. The host checks the flag first; the sidecar
// refuses too, so a host bug cannot turn it on.
import { WebcapError } from '../../manifests/errors.js';
import type { Page } from 'playwright';
import { locateTarget, type Target } from '../target.js';
import { notFoundAsSelector, pageTool } from '../tool.js';

const MAX_RESULT_CHARS = 100_000;

export const evaluate = pageTool('web.evaluate', async (call, params) => {
  const { page, timeout, ctx } = call;
  if (!ctx.init.browser.evaluate_enabled) {
    throw new WebcapError('capability_disabled', 'web.evaluate is disabled: set [capabilities.browser] evaluate_enabled = true to allow scripts in pages', { config_key: 'capabilities.browser.evaluate_enabled' });
  }
  const expression = params.expression;
  const named = params.ref ?? params.selector ?? params.role;
  const target = named ? await locateTarget(call, params) : undefined;
  let timer: NodeJS.Timeout | undefined;
  // page.evaluate has no timeout of its own: a script that never returns must not hang the call.
  const overtime = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new WebcapError('timeout', `web.evaluate: the script did not finish within ${timeout} ms (the page may still be busy)`, { timeout_ms: timeout })), timeout);
  });
  let value: unknown;
  try {
    value = await Promise.race([run(page, expression, params.arg, target, timeout), overtime]);
  } catch (err) {
    if (err instanceof WebcapError) throw err;
    const message = String((err as Error)?.message ?? err).split('\n')[0].replace(/^(\w+\.)?(evaluate|evaluateHandle|elementHandle): /, '');
    if (/has been closed|Target closed/i.test(message)) throw err;
    throw new WebcapError('invalid_params', `web.evaluate: the script threw: ${message}`, { field: 'expression' });
  } finally {
    clearTimeout(timer);
  }
  return { ok: true, url: page.url(), ...bounded(value) };
});

/**
 * Playwright evaluates a string as an expression and never calls it, so an
 * expression that yields a function ("el => el.value") is called here, in the
 * page, with the element (if one was named) and `arg`.
 */
async function run(page: Page, expression: string, arg: unknown, target: Target | undefined, timeout: number): Promise<unknown> {
  const element = target ? await notFoundAsSelector(target.locator.elementHandle({ timeout }), target.label, timeout) : undefined;
  // In the element's own frame (a ref can point into an iframe): handles do not cross frames.
  const frame = (await element?.ownerFrame()) ?? page.mainFrame();
  const handle = await frame.evaluateHandle(expression);
  try {
    return await handle.evaluate((v, [el, a]) => (typeof v === 'function' ? (el ? v(el, a) : v(a)) : v), [element, arg] as const);
  } finally {
    void handle.dispose().catch(() => undefined);
    void element?.dispose().catch(() => undefined);
  }
}

/** The value as JSON, unless it is too big to hand an agent: then a clipped text and a notice. */
function bounded(value: unknown): Record<string, unknown> {
  const json = JSON.stringify(value ?? null);
  if (json.length <= MAX_RESULT_CHARS) return { result: value ?? null, type: value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value };
  return { result: json.slice(0, MAX_RESULT_CHARS), type: 'truncated', truncated: `the result was ${json.length} characters of JSON; only the first ${MAX_RESULT_CHARS} are returned` };
}
