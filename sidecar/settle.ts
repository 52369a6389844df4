// Pages keep loading after the moment Playwright reports: a script fetches its
// text around `load`, an infinite-scroll list fetches more items after a
// scroll. Tracking the requests that matter and waiting (bounded) until they
// have finished and the page has rendered what they brought replaces a fixed
// sleep. Used by web.scroll and by web.scrape's renderer.
import type { Page, Request } from 'playwright';

interface RequestTracker {
  /** Waits until no tracked request is in flight and two frames have passed, or capMs has gone by. */
  settle(capMs: number): Promise<void>;
  stop(): void;
}

/** Starts counting the page's requests of these resource types now (so ones started during a navigation are seen). */
export function trackRequests(page: Page, kinds: ReadonlySet<string>): RequestTracker {
  const pending = new Set<Request>();
  let changed = () => undefined as void;
  const started = (r: Request) => { if (kinds.has(r.resourceType())) { pending.add(r); changed(); } };
  const ended = (r: Request) => { if (pending.delete(r)) changed(); };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return {
    async settle(capMs) {
      const deadline = Date.now() + Math.max(0, capMs);
      // Bounded: a page stuck in a busy script must not hold the call past its time.
      const frames = () => Promise.race([
        page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)))).catch(() => undefined),
        new Promise((r) => setTimeout(r, Math.min(500, Math.max(0, deadline - Date.now())))),
      ]);
      do {
        while (pending.size > 0 && Date.now() < deadline) {
          await new Promise<void>((r) => { changed = r; setTimeout(r, Math.max(0, deadline - Date.now())); });
        }
        // Response handlers write the page in the tasks after a request ends, and may start the next request.
        await frames();
      } while (pending.size > 0 && Date.now() < deadline);
    },
    stop() {
      page.off('request', started);
      page.off('requestfinished', ended);
      page.off('requestfailed', ended);
    },
  };
}

const SCROLL_LOADS = new Set(['fetch', 'xhr', 'document', 'script', 'image']);
const GRACE_MS = 120;          // scroll handlers are often throttled or use IntersectionObserver

/** Runs `action` (a scroll) and waits, at most capMs, for what it made the page load. */
export async function settleAfter(page: Page, action: () => Promise<void>, capMs: number): Promise<void> {
  const tracker = trackRequests(page, SCROLL_LOADS);
  const deadline = Date.now() + capMs;
  try {
    await action();
    await new Promise((r) => setTimeout(r, GRACE_MS));
    await tracker.settle(deadline - Date.now());
  } finally {
    tracker.stop();
  }
}
