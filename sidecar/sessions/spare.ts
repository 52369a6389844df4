// The next session's context and page, made while its web.open is still on
// its way. A new context, its first page and the guard on it cost about as
// much as the browser's own start; the host asks for the browser (prelaunch)
// as soon as a web.open has passed its cheap checks, so the rest of its
// checks (robots.txt, politeness, consent) and the spare's making overlap.
// The spare is an empty page behind the guard, bound to the name the next
// session will get (the guard decides and reports per session name): a
// web.open that comes with that name and the default options takes it; any
// other discards it and makes its own. An unclaimed spare closes after a while.
import type { BrowserContext, Page } from 'playwright';

export interface Ready {
  context: BrowserContext;
  page: Page;
}

interface Pending {
  name: string;
  made: Promise<Ready | undefined>;
  timer: NodeJS.Timeout;
}

export class SpareContext {
  private pending: Pending | undefined;

  constructor(private readonly make: (name: string) => Promise<Ready>, private readonly keepMs: number) {}

  /** Starts making a spare for the session that will be called `name`, unless one is there. */
  prepare(name: string): void {
    if (this.pending) return;
    const made = this.make(name).catch(() => undefined); // the web.open makes its own and reports what fails
    const timer = setTimeout(() => void this.discard(), this.keepMs);
    timer.unref();
    this.pending = { name, made, timer };
  }

  /** The spare made for `name`, still alive; undefined (and the spare, if any, closed) otherwise. */
  async claim(name: string): Promise<Ready | undefined> {
    const pending = this.pending;
    if (!pending || pending.name !== name) {
      await this.discard();
      return undefined;
    }
    this.pending = undefined;
    clearTimeout(pending.timer);
    const ready = await pending.made;
    if (!ready) return undefined;
    if (ready.page.isClosed() || !ready.context.browser()?.isConnected()) {
      await ready.context.close().catch(() => undefined);
      return undefined;
    }
    return ready;
  }

  async discard(): Promise<void> {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    clearTimeout(pending.timer);
    const ready = await pending.made;
    await ready?.context.close().catch(() => undefined);
  }
}
