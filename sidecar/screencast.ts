// The console's live view: JPEG frames of a session's page (live-frames.ts),
// started when the first viewer connects and stopped when the last one leaves,
// so an unwatched session costs nothing.
import type { CDPSession, Page } from 'playwright';
import { LiveFrames } from './live-frames.js';

export class Screencasts {
  private readonly running = new Map<string, { page: Page; cdp: CDPSession; frames: LiveFrames }>();

  constructor(private readonly onFrame: (session: string, jpeg: string) => void) {}

  async start(session: string, page: Page, size: { width: number; height: number }): Promise<boolean> {
    const current = this.running.get(session);
    if (current?.page === page) return true;
    if (current) await this.stop(session);
    const cdp = await page.context().newCDPSession(page);
    const frames = new LiveFrames(cdp, size, (jpeg) => this.onFrame(session, jpeg));
    frames.start();
    this.running.set(session, { page, cdp, frames });
    page.once('close', () => { if (this.running.get(session)?.cdp === cdp) { this.running.delete(session); void frames.stop(); } });
    return true;
  }

  async stop(session: string): Promise<void> {
    const current = this.running.get(session);
    if (!current) return;
    this.running.delete(session);
    await current.frames.stop();
    await current.cdp.detach().catch(() => undefined);
  }
}
