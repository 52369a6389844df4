// Hand-offs (web.handoff) as the console sees them: the session the person
// drives, why, and until when. Input reaches the sidecar only through an open
// hand-off's id, and only for that hand-off's session; Done, the timeout and
// Stop each end it once.
import { randomBytes } from 'node:crypto';
import type { HandoffAsk, HandoffOutcome, PersonInput } from '../../manifests/wire.js';
import { plain } from '../consent/text.js';

export interface HandoffView { id: string; session: string; reason: string; url: string; title: string; viewport: { width: number; height: number }; until: string }

interface Open { view: HandoffView; finish(outcome: HandoffOutcome): void }

export class HandoffDesk {
  private readonly open = new Map<string, Open>();

  constructor(private readonly deliver: (session: string, events: PersonInput[]) => Promise<number>, private readonly changed: () => void) {}

  /** Waits until the person presses Done, the wait times out, or Stop ends it. */
  start(ask: HandoffAsk): Promise<HandoffOutcome> {
    const id = randomBytes(16).toString('hex');
    return new Promise<HandoffOutcome>((resolve) => {
      const timer = setTimeout(() => finish('timeout'), ask.timeout_s * 1000);
      const finish = (outcome: HandoffOutcome) => {
        if (!this.open.delete(id)) return;
        clearTimeout(timer);
        resolve(outcome);
        this.changed();
      };
      this.open.set(id, {
        view: {
          id, session: ask.session, reason: plain(ask.reason, 500), url: plain(ask.url, 500), title: plain(ask.title, 200),
          viewport: ask.viewport, until: new Date(Date.now() + ask.timeout_s * 1000).toISOString(),
        },
        finish,
      });
      this.changed();
    });
  }

  /** The person's input for hand-off `id`: 'unknown' if there is no such open hand-off (nothing is sent). */
  async input(id: string, events: PersonInput[]): Promise<number | 'unknown'> {
    const h = this.open.get(id);
    if (!h) return 'unknown';
    return this.deliver(h.view.session, events);
  }

  /** Done: 'unknown' if it is not open (handed back already, timed out, never existed). */
  handBack(id: string): 'handed_back' | 'unknown' {
    const h = this.open.get(id);
    if (!h) return 'unknown';
    h.finish('handed_back');
    return 'handed_back';
  }

  /** Stop on the session: its hand-off ends as stopped. */
  stopSession(session: string): void {
    for (const h of [...this.open.values()]) if (h.view.session === session) h.finish('stopped');
  }

  of(session: string): HandoffView | undefined {
    return [...this.open.values()].find((h) => h.view.session === session)?.view;
  }

  /** Resolves when the session is no longer handed off (at once if it is not). */
  driving(session: string): boolean { return this.of(session) !== undefined; }

  list(): HandoffView[] { return [...this.open.values()].map((h) => h.view); }
}
