// The console's live view: JPEG frames of a session's page through CDP's
// Page.startScreencast, started when the first viewer connects and stopped
// when the last one leaves, so an unwatched session costs nothing.
import type { CDPSession, Page } from 'playwright';

// At most about 8 frames/s: enough to follow and drive a page, cheap enough to leave on.
const MIN_FRAME_GAP_MS = 125;

export class Screencasts {
  private readonly running = new Map<string, { page: Page; cdp: CDPSession }>();

  constructor(private readonly onFrame: (session: string, jpeg: string) => void) {}

  async start(session: string, page: Page, size: { width: number; height: number }): Promise<boolean> {
    const current = this.running.get(session);
    if (current?.page === page) return true;
    if (current) await this.stop(session);
    const cdp = await page.context().newCDPSession(page);
    // Chromium sends the next frame only after the ack: acking no sooner than MIN_FRAME_GAP_MS after the
    // last frame caps the rate (and so the CPU a viewer costs) whatever the page's repaint rate.
    let last = 0;
    cdp.on('Page.screencastFrame', (f: { data: string; sessionId: number }) => {
      const now = Date.now();
      const wait = Math.max(0, last + MIN_FRAME_GAP_MS - now);
      last = now + wait;
      setTimeout(() => void cdp.send('Page.screencastFrameAck', { sessionId: f.sessionId }).catch(() => undefined), wait);
      this.onFrame(session, f.data);
    });
    await cdp.send('Page.startScreencast', { format: 'jpeg', quality: 60, maxWidth: size.width, maxHeight: size.height, everyNthFrame: 1 });
    this.running.set(session, { page, cdp });
    page.once('close', () => { if (this.running.get(session)?.cdp === cdp) this.running.delete(session); });
    return true;
  }

  async stop(session: string): Promise<void> {
    const current = this.running.get(session);
    if (!current) return;
    this.running.delete(session);
    await current.cdp.send('Page.stopScreencast').catch(() => undefined);
    await current.cdp.detach().catch(() => undefined);
  }
}
