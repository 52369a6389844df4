// The host's view of which sessions are open and which is current, learned
// from results (web.open / web.close), so chain entries and plan clean-up can
// name the session without asking the sidecar.
export class SessionTracker {
  private readonly open: string[] = [];

  get current(): string | undefined { return this.open.at(-1); }
  has(name: string): boolean { return this.open.includes(name); }
  list(): string[] { return [...this.open]; }

  observe(capability: string, result: Record<string, unknown>): void {
    if (capability === 'web.open' && typeof result.session === 'string') this.opened(result.session);
    if (capability === 'web.close' && typeof result.closed === 'string') this.closed(result.closed);
    // A call given a url with no session open (web.fill_form) opens one and says so.
    if (result.opened_session === true && typeof result.session === 'string') this.opened(result.session);
  }

  opened(name: string): void {
    this.closed(name);
    this.open.push(name);
  }

  closed(name: string): void {
    const i = this.open.indexOf(name);
    if (i >= 0) this.open.splice(i, 1);
  }

  forgetAll(): void { this.open.length = 0; }
}
