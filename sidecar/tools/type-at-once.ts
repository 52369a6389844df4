// web.type's keys without a read of the focus before each one: the look that
// focused the field armed the page's key guard (pristine.ts armKeys), which
// stops, where the keys land, every key bound for a password or payment field
// the user has not approved, and every key after it. The keys go one after
// another; one round trip at the end disarms the guard and reads what it
// stopped and the field's value. A stopped key asks the same question the read
// before it would have asked; on "yes" the guard is armed again with that
// approval and the keys go on from the stopped one.
import type { Locator, Page, Request } from 'playwright';
import { armKeys, disarmKeys, type Disarmed } from '../guard/key-guard.js';
import { pageFlush } from '../guard/redirect-hops.js';
import type { TypingGuard } from '../guard/typing-guard.js';
import type { PageCall } from '../tool.js';
import { valueAfter } from './field-kind.js';

/** Printable ASCII, one key each, nothing that moves focus or submits (Tab, Enter). */
export const TYPED_AT_ONCE = /^[\x20-\x7e]+$/;

/**
 * Sends keys from `from` until all are sent or the page grew a frame or
 * started a navigation: keys then could go to a document the guard is not
 * in, so the rest waits for the caller's checks. Both show here (Playwright's
 * frame and request events) before the frame or the new document can hold a
 * field: its document comes through the network guard's route in this process.
 */
async function sendKeys(page: Page, text: string, from: number): Promise<number> {
  let moved = false;
  const onFrame = () => { moved = true; };
  const onRequest = (r: Request) => { if (r.isNavigationRequest()) moved = true; };
  page.on('frameattached', onFrame);
  page.on('framenavigated', onFrame);
  page.on('request', onRequest);
  try {
    let i = from;
    for (; i < text.length; i++) {
      if (moved || page.frames().length !== 1) break;
      await page.keyboard.type(text[i]);
    }
    return i;
  } finally {
    page.off('frameattached', onFrame);
    page.off('framenavigated', onFrame);
    page.off('request', onRequest);
  }
}

/** Types `text` into the field the look focused and armed the guard in; answers the field's value after. */
export async function typeAtOnce(call: PageCall, guard: TypingGuard, css: string, field: Locator, text: string): Promise<string | undefined> {
  const { page, session, ctx } = call;
  let armed = true;
  try {
    await ctx.polite(session);
    let from = 0;
    for (;;) {
      const sent = await sendKeys(page, text, from);
      // The effect gate's flush goes first on the same session, so the disarm's read overlaps it.
      const flush = pageFlush(page);
      const flushed = flush.ordered ? flush.run() : undefined;
      flushed?.catch(() => undefined);
      const read: Disarmed | undefined = await disarmKeys(page, css);
      armed = false;
      const stopped = read && read.record.stopped >= 0 ? from + read.record.stopped : undefined;
      const why = read?.record.why;
      if (stopped !== undefined && stopped < sent && (why === 'password' || why === 'payment')) {
        await guard.approveStopped(why);   // a "no" throws consent_denied: nothing reached the field
        armed = await armKeys(page, guard.approvedKinds());
        from = stopped;
        if (armed) continue;
      } else {
        if (read && stopped === undefined && read.record.seen < sent - from) {
          // Keys the guard never saw (its document's listeners were erased): where they went is read now.
          await guard.check();
        }
        from = stopped ?? sent;
      }
      if (from >= text.length && read) {
        call.inputDone(flushed);
        return read.value ?? (await valueAfter(field)) ?? undefined;
      }
      break;
    }
    // What the guard could not cover (a frame, a navigation, a replaced document, a lost record): a read of the
    // focus before each key.
    for (const ch of text.slice(from)) {
      await guard.beforeKey(ch);
      await page.keyboard.type(ch);
    }
    call.inputDone();
    return (await valueAfter(field)) ?? undefined;
  } finally {
    if (armed) await disarmKeys(page).catch(() => undefined);
  }
}
