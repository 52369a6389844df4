// Frames of one page for the console's live view, about 6 a second at most,
// got in whichever of two ways costs less for what the page is doing:
// - a page that changes now and then: CDP's screencast, which sends a frame
//   only when the page repaints (a still page costs nothing);
// - a page that repaints all the time (an animation, a video): screenshots on
//   a timer. Chromium's screencast copies every repainted frame out of the
//   compositor, 60 a second, however slowly its frames are acknowledged; that
//   copying, not the JPEG encoding, is most of what a viewer costs. A
//   screenshot copies one frame per frame sent.
// A viewer starts with screenshots (a first frame at once); screenshots that
// stop changing switch to the screencast, and screencast frames that keep
// arriving as soon as they are acknowledged switch back.
import type { CDPSession } from 'playwright';

const FRAME_GAP_MS = 166;       // about 6 frames/s: enough to follow and drive a page
const BUSY_AFTER_ACK_MS = 100;  // a frame this soon after its ack was waiting: the page repaints all the time
const BUSY_FRAMES = 5;          // ...for this many frames in a row: switch to screenshots
const STILL_FRAMES = 3;         // this many identical screenshots in a row: switch back to the screencast
const SHOT_TIMEOUT_MS = 2000;   // a page that cannot paint (a hung renderer) must not stall the loop for good

interface CastFrame { data: string; sessionId: number }

export class LiveFrames {
  private stopped = false;
  private mode: 'cast' | 'shots' = 'shots';
  private last = '';
  private lastAckAt = 0;
  private lastFrameAt = 0;
  private busy = 0;

  constructor(private readonly cdp: CDPSession, private readonly size: { width: number; height: number }, private readonly emit: (jpeg: string) => void) {
    cdp.on('Page.screencastFrame', this.onCastFrame);
  }

  start(): void { void this.takeShots(); }

  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.cdp.off('Page.screencastFrame', this.onCastFrame);
    if (this.mode === 'cast') await this.cdp.send('Page.stopScreencast').catch(() => undefined);
  }

  private send(jpeg: string): void {
    // An unchanged picture is not sent again: nothing downstream has to decode or forward it.
    if (jpeg === this.last) return;
    this.last = jpeg;
    this.emit(jpeg);
  }

  private async startCast(): Promise<void> {
    this.mode = 'cast';
    this.busy = 0;
    this.lastAckAt = 0;
    await this.cdp.send('Page.startScreencast', { format: 'jpeg', quality: 60, maxWidth: this.size.width, maxHeight: this.size.height, everyNthFrame: 1 });
  }

  private readonly onCastFrame = (f: CastFrame): void => {
    if (this.stopped || this.mode !== 'cast') return;
    const now = Date.now();
    this.busy = this.lastAckAt && now - this.lastAckAt < BUSY_AFTER_ACK_MS ? this.busy + 1 : 0;
    this.send(f.data);
    if (this.busy >= BUSY_FRAMES) { void this.cdp.send('Page.stopScreencast').catch(() => undefined); void this.takeShots(); return; }
    // Chromium sends the next frame only after the ack: acking no sooner than FRAME_GAP_MS after the last frame caps the rate.
    const wait = Math.max(0, this.lastFrameAt + FRAME_GAP_MS - now);
    this.lastFrameAt = now + wait;
    setTimeout(() => {
      if (this.stopped || this.mode !== 'cast') return;
      this.lastAckAt = Date.now();
      void this.cdp.send('Page.screencastFrameAck', { sessionId: f.sessionId }).catch(() => undefined);
    }, wait);
  };

  private async takeShots(): Promise<void> {
    this.mode = 'shots';
    let still = 0;
    while (!this.stopped && still < STILL_FRAMES) {
      const began = Date.now();
      const jpeg = await this.screenshot();
      if (this.stopped) return;
      if (jpeg === undefined || jpeg === this.last) still++;
      else { still = 0; this.send(jpeg); }
      await new Promise((r) => setTimeout(r, Math.max(0, began + FRAME_GAP_MS - Date.now())));
    }
    if (!this.stopped) await this.startCast().catch(() => undefined);
  }

  private async screenshot(): Promise<string | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((r) => { timer = setTimeout(() => r(undefined), SHOT_TIMEOUT_MS); });
    const shot = this.cdp.send('Page.captureScreenshot', { format: 'jpeg', quality: 60, optimizeForSpeed: true })
      .then((r) => r.data, () => undefined);
    try { return await Promise.race([shot, late]); } finally { clearTimeout(timer); }
  }
}
