// web.wait and web.scroll.
import { WebcapError } from '../../manifests/errors.js';
import { settleAfter } from '../settle.js';
import { pageTool, waitForSelector } from '../tool.js';

export const wait = pageTool('web.wait', async ({ page, timeout, selector }, params) => {
  const started = Date.now();
  const given = (['selector', 'text', 'network', 'time'] as const).filter((k) => params[k] !== undefined);
  if (given.length !== 1) {
    throw new WebcapError('invalid_params', `web.wait: give exactly one of selector, text, network, time (got ${given.join(', ') || 'none'})`, { field: given[1] ?? 'selector' });
  }
  if (params.selector) {
    await waitForSelector(page, selector(params.selector), timeout, params.state ?? 'visible', params.frame);
  } else if (params.text) {
    const text = params.text;
    await page.getByText(text).first().waitFor({ timeout }).catch((err: Error) => {
      if (err.name !== 'TimeoutError') throw err;
      throw new WebcapError('selector_not_found', `the text "${text}" did not appear within ${timeout} ms`, { text, timeout_ms: timeout });
    });
  } else if (params.network) {
    await page.waitForLoadState('networkidle', { timeout });
  } else {
    await page.waitForTimeout(params.time ?? 0);
  }
  return { ok: true, waited_ms: Date.now() - started };
});

// Infinite scroll: wait (at most this long) for what the scroll loaded.
const SETTLE_CAP_MS = 5000;

export const scroll = pageTool('web.scroll', async ({ page, timeout, selector }, params) => {
  if (params.selector) {
    const target = await waitForSelector(page, selector(params.selector), timeout, 'attached');
    await settleAfter(page, () => target.scrollIntoViewIfNeeded({ timeout }), Math.min(timeout, SETTLE_CAP_MS));
  } else {
    const how = params.top ? 'top' : params.bottom ? 'bottom' : 'by';
    if (how === 'by' && params.by === undefined) {
      throw new WebcapError('invalid_params', 'web.scroll: give one of top, bottom, by, selector', { field: 'by' });
    }
    await settleAfter(page, async () => {
      await page.evaluate(({ how, by }) => {
        const el = document.scrollingElement ?? document.documentElement;
        if (how === 'top') window.scrollTo(0, 0);
        else if (how === 'bottom') window.scrollTo(0, el.scrollHeight);
        else window.scrollBy(0, by);
      }, { how, by: params.by ?? 0 });
    }, Math.min(timeout, SETTLE_CAP_MS));
  }
  const pos = await page.evaluate(() => new Promise<{ y: number; h: number }>((done) => requestAnimationFrame(() =>
    done({ y: window.scrollY, h: (document.scrollingElement ?? document.documentElement).scrollHeight }))));
  return { ok: true, scroll_y: pos.y, scroll_height: pos.h };
});
