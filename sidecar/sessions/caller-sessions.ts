// One caller's view of the sessions (what every tool sees, so no tool can
// reach another caller's session), and the signal that tells calls in flight
// their browser is gone.
import type { Page } from 'playwright';
import { WebcapError } from '../../manifests/errors.js';
import type { Session, StorageState } from './sessions.js';
import type { TraceOutcome } from '../trace.js';

/** One caller's view: what every tool sees (sidecar/tool.ts), so no tool can reach another caller's session. */
export interface CallerSessions {
  readonly owner: string;
  /** This caller's latest session, or null. */
  readonly current: string | null;
  /** This caller's sessions. */
  list(): Session[];
  get(name?: string): Session;
  open(name?: string, viewport?: { width: number; height: number }, waitMs?: number, profile?: { state: StorageState }): Promise<Session>;
  close(name?: string, opts?: { failed?: boolean; announce?: boolean }): Promise<{ closed: string; current: string | null } & TraceOutcome>;
  scratch(label: string): Promise<{ name: string; page: Page; close(): Promise<void> }>;
  storageOf(session: Session): Promise<StorageState>;
  /** Counts the browsers lost so far: a call that sees it change lost its browser. */
  readonly generation: number;
  /** Rejects with browser_crashed when this session's browser goes away. */
  lost(session: Session): Promise<never>;
}

export function crashSignal(): { promise: Promise<never>; fire(): void } {
  let fire!: () => void;
  const promise = new Promise<never>((_, reject) => {
    fire = () => reject(new WebcapError('browser_crashed', 'the browser went away (it crashed or was killed); its sessions are gone and the next web.open starts a new one'));
  });
  promise.catch(() => undefined);
  return { promise, fire };
}
