// Playwright traces per session ([report] trace): recording starts with the
// session's context (screenshots, DOM snapshots, network) and stops when the
// session closes. "always" keeps every trace, "on-failure" only a session in
// which a call failed. The zip goes through the safe writer into
// <workspace>/traces. A session in which a password, a payment field or
// another secret was typed, or that carries a profile's logged-in cookies, is
// never kept: its trace is dropped and the close says why.
import type { BrowserContext } from 'playwright';
import { writeInWorkspace } from './workspace-write.js';
import { join } from 'node:path';

type TraceMode = 'off' | 'on-failure' | 'always';
export interface TraceOutcome { trace?: string; trace_dropped?: string }

interface Recording { failed: boolean; secret?: string }

export class SessionTraces {
  private readonly recording = new WeakMap<BrowserContext, Recording>();

  constructor(private readonly mode: TraceMode, private readonly workspace: string) {}

  async start(context: BrowserContext, profile: boolean): Promise<void> {
    if (this.mode === 'off') return;
    await context.tracing.start({ screenshots: true, snapshots: true, sources: false });
    this.recording.set(context, { failed: false, ...(profile ? { secret: "it carries a profile's logged-in cookies" } : {}) });
  }

  failed(context: BrowserContext): void {
    const r = this.recording.get(context);
    if (r) r.failed = true;
  }

  /** A secret reached this page (typed, filled, or a sensitive field asked about): the trace would hold it. */
  secret(context: BrowserContext, why: string): void {
    const r = this.recording.get(context);
    if (r && !r.secret) r.secret = why;
  }

  /** Stops recording; writes the zip when the mode and the session's history say so. Never throws: a trace is a by-product. */
  async finish(context: BrowserContext, session: string, failed = false): Promise<TraceOutcome> {
    const r = this.recording.get(context);
    if (!r) return {};
    this.recording.delete(context);
    const keep = this.mode === 'always' || r.failed || failed;
    if (!keep || r.secret) {
      await context.tracing.stop().catch(() => undefined);
      return r.secret && keep ? { trace_dropped: `the trace of session ${session} was not kept: ${r.secret}` } : {};
    }
    const name = `${session.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64)}-${new Date().toISOString().replace(/[:.]/g, '-')}.zip`;
    const path = join(this.workspace, 'traces', name);
    try {
      await writeInWorkspace(this.workspace, path, 'trace', (tmp) => context.tracing.stop({ path: tmp }));
      return { trace: path };
    } catch (err) {
      await context.tracing.stop().catch(() => undefined);
      return { trace_dropped: `the trace of session ${session} could not be written: ${(err as Error).message}` };
    }
  }
}
