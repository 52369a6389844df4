// The host's view of which sessions are open and whose they are, learned from
// results (web.open / web.close) and the sidecar's events, so chain entries,
// consent routing and plan clean-up can name a session without asking the
// sidecar. There is no current session shared between callers: each owner (a
// plan run, an MCP client, a command, a library scope) has its own latest one.
// The sidecar decides (sidecar/sessions/sessions.ts); this view only labels and refuses early.
import type { SessionOwner } from '../policies/session-scope.js';

export class SessionTracker {
  /** Session name → its owner, in the order opened. */
  private readonly owners = new Map<string, string>();
  /** Sessions a crash took, by owner, until it opens another. */
  private readonly crashed = new Map<string, Set<string>>();

  /** The owner's latest open session. */
  currentOf(owner: string): string | undefined { return this.of(owner).at(-1); }
  has(name: string): boolean { return this.owners.has(name); }
  ownerOf(name: string): string | undefined { return this.owners.get(name); }
  /** Every open session (all owners), oldest first. */
  list(): string[] { return [...this.owners.keys()]; }
  /** The owner's open sessions, oldest first. */
  of(owner: string): string[] { return [...this.owners].filter(([, o]) => o === owner).map(([n]) => n); }

  /** What the session-scope policy checks a call of `owner` against. */
  scopeOf(owner: string): SessionOwner {
    const tracker = this;
    return {
      owns: (name) => this.owners.get(name) === owner,
      takenElsewhere: (name) => this.owners.has(name) && this.owners.get(name) !== owner,
      get sessions() { return tracker.of(owner); },
      lostInCrash: (name) => { const lost = tracker.crashed.get(owner); return Boolean(lost && (name === undefined || lost.has(name))); },
    };
  }

  observe(owner: string, capability: string, result: Record<string, unknown>): void {
    if (capability === 'web.open' && typeof result.session === 'string') this.opened(owner, result.session);
    if (capability === 'web.close' && typeof result.closed === 'string') this.closed(result.closed);
    // A call given a url with no session open (web.fill_form) opens one and says so.
    if (result.opened_session === true && typeof result.session === 'string') this.opened(owner, result.session);
  }

  opened(owner: string, name: string): void {
    this.crashed.delete(owner);
    this.owners.delete(name);
    this.owners.set(name, owner);
  }

  closed(name: string): void { this.owners.delete(name); }

  /** The browser or the sidecar died: every session with it. */
  forgetAll(): void {
    for (const [name, owner] of this.owners) this.crashed.set(owner, (this.crashed.get(owner) ?? new Set<string>()).add(name));
    this.owners.clear();
  }

  /** An owner that is done (a plan that ended) needs no memory of its crash. */
  forgetOwner(owner: string): void { this.crashed.delete(owner); }
}
