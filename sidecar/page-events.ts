// What a session's pages did on their own: console messages, dialogs the
// policy answered, downloads saved or refused, and a stable id per tab. Kept
// per session (beside it, in a WeakMap, so Session stays a plain record) and
// read by web.console ("since the last read"), web.status and web.tabs.
import type { Page } from 'playwright';
import type { SidecarInit } from '../manifests/wire.js';
import { answerDialogs, type DialogEntry } from './dialogs.js';
import { saveDownloads, type DownloadEntry } from './downloads.js';
import type { Session } from './sessions/sessions.js';

interface ConsoleEntry { type: string; text: string; tab: string; url: string; at: string }

// A chatty page must not grow the sidecar without bound: the oldest go first, counted.
const MAX_ENTRIES = 500;
const MAX_TEXT = 2000;

/** A bounded list with a read cursor: take() returns what arrived since the previous take(). */
export class EventLog<T> {
  private items: T[] = [];
  private unread = 0;
  private droppedUnread = 0;
  private total = 0;

  push(item: T): void {
    this.items.push(item);
    this.total += 1;
    this.unread += 1;
    if (this.items.length > MAX_ENTRIES) this.items.shift();
    if (this.unread > MAX_ENTRIES) { this.unread = MAX_ENTRIES; this.droppedUnread += 1; }
  }

  take(): { items: T[]; dropped: number } {
    const items = this.unread ? this.items.slice(-this.unread) : [];
    const dropped = this.droppedUnread;
    this.unread = 0;
    this.droppedUnread = 0;
    return { items, dropped };
  }

  get unreadCount(): number { return this.unread + this.droppedUnread; }
  /** How many were ever logged: a mark to find what one call caused (since(mark)). */
  get count(): number { return this.total; }
  since(mark: number): T[] {
    const n = Math.min(this.total - mark, this.items.length);
    return n > 0 ? this.items.slice(-n) : [];
  }
  recent(n: number): T[] { return n > 0 ? this.items.slice(-n) : []; }
}

export class PageEvents {
  readonly console = new EventLog<ConsoleEntry>();
  readonly dialogs = new EventLog<DialogEntry>();
  readonly downloads = new EventLog<DownloadEntry>();
  /** Downloads still being written: a call that started one waits for it (downloads.ts). */
  readonly pending = new Set<Promise<void>>();
  private readonly ids = new WeakMap<Page, string>();
  private tabCounter = 0;

  tabId(page: Page): string {
    let id = this.ids.get(page);
    if (!id) this.ids.set(page, (id = `t${++this.tabCounter}`));
    return id;
  }

  watched(page: Page): boolean { return this.ids.has(page); }
}

const bySession = new WeakMap<Session, PageEvents>();

export function eventsOf(session: Session): PageEvents {
  let events = bySession.get(session);
  if (!events) bySession.set(session, (events = new PageEvents()));
  return events;
}

export function clip(text: string): string {
  return text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}… [${text.length - MAX_TEXT} more characters]` : text;
}

/** Starts listening to one page of a session (its first page, then every tab and popup). Idempotent. */
export function watchPage(session: Session, page: Page, init: SidecarInit): void {
  const events = eventsOf(session);
  if (events.watched(page)) return;
  const tab = events.tabId(page);
  page.on('console', (m) => events.console.push({ type: m.type(), text: clip(m.text()), tab, url: page.url(), at: new Date().toISOString() }));
  page.on('pageerror', (e) => events.console.push({ type: 'pageerror', text: clip(`${e.name}: ${e.message}`), tab, url: page.url(), at: new Date().toISOString() }));
  answerDialogs(page, tab, init.browser.dialogs ?? 'dismiss', events.dialogs);
  saveDownloads(page, tab, init.workspace, events);
}

/**
 * Starts watching one call: the returned function gives the dialogs answered
 * and downloads started while the call ran (waiting, up to `timeout` ms, for
 * those downloads to be saved or refused), so an agent learns of them in the
 * result of the action that caused them.
 */
export function callEvents(session: Session): (timeout: number) => Promise<{ dialogs?: DialogEntry[]; downloads?: DownloadEntry[] }> {
  const events = eventsOf(session);
  const dialogMark = events.dialogs.count;
  const downloadMark = events.downloads.count;
  return async (timeout) => {
    const started = events.downloads.since(downloadMark);
    if (started.some((d) => d.state === 'saving')) await settled([...events.pending], timeout);
    const dialogs = events.dialogs.since(dialogMark);
    return { ...(dialogs.length ? { dialogs } : {}), ...(started.length ? { downloads: started } : {}) };
  };
}

async function settled(jobs: Promise<void>[], timeout: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.allSettled(jobs), new Promise<void>((done) => { timer = setTimeout(done, timeout); })]);
  clearTimeout(timer);
}
