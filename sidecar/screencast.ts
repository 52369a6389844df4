// The console's live view: JPEG frames of a session's page through CDP's
// Page.startScreencast, started when the first viewer connects and stopped
// when the last one leaves, so an unwatched session costs nothing.
import type { CDPSession, Page } from 'playwright';

export class Screencasts {
  private readonly running = new Map<string, { page: Page; cdp: CDPSession }>();

  constructor(private readonly onFrame: (session: string, jpeg: string) => void) {}

  async start(session: string, page: Page, size: { width: number; height: number }): Promise<boolean> {
    const current = this.running.get(session);
    if (current?.page === page) return true;
    if (current) await this.stop(session);
    const cdp = await page.context().newCDPSession(page);
    cdp.on('Page.screencastFrame', (f: { data: string; sessionId: number }) => {
      void cdp.send('Page.screencastFrameAck', { sessionId: f.sessionId }).catch(() => undefined);
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
