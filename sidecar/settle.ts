// After a scroll, infinite-scroll pages fetch more items and render them a
// moment later. Waiting until the requests the scroll started have finished
// (bounded) lets the next web.extract see them, without a fixed sleep.
import type { Page, Request } from 'playwright';

const WATCHED = new Set(['fetch', 'xhr', 'document', 'script', 'image']);
const GRACE_MS = 120;          // scroll handlers are often throttled or use IntersectionObserver

export async function settleAfter(page: Page, action: () => Promise<void>, capMs: number): Promise<void> {
  const pending = new Set<Request>();
  let changed: () => void = () => undefined;
  const started = (r: Request) => { if (WATCHED.has(r.resourceType())) { pending.add(r); changed(); } };
  const ended = (r: Request) => { if (pending.delete(r)) changed(); };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  const deadline = Date.now() + capMs;
  try {
    await action();
    await new Promise((r) => setTimeout(r, GRACE_MS));
    while (pending.size > 0 && Date.now() < deadline) {
      await new Promise<void>((r) => { changed = r; setTimeout(r, Math.max(0, deadline - Date.now())); });
    }
    // One frame for the page to render what arrived.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))).catch(() => undefined);
  } finally {
    page.off('request', started);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);
  }
}
