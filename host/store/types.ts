// The governance state a host may share with other hosts. Two kinds: the
// embedded store (memory + the workspace on disk: one host, today's
// behaviour) and Redis (many hosts, one state). Callers see only these
// interfaces, so no policy branches on which store is in use.
import type { Admission } from '../budget/admission.js';
import type { PolitenessGate } from '../budget/politeness.js';
import type { ResultCache } from '../cache/result-cache.js';
import type { WebcapConfig } from '../config/types.js';
import type { StateBackend } from '../search/provider-state.js';

/** The store could not be reached or did not answer in time. Budgets refuse on it; caches treat it as a miss. */
export class StoreUnavailable extends Error {
  constructor(readonly reason: string) {
    super(`the governance store is unavailable (${reason})`);
  }
}

/** Small values with a time to live: robots.txt answers, remembered approvals. */
export interface SharedValues {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
}

export interface StoreChecks {
  ping(): Promise<void>;
  /** The admission script is accepted by the server (SCRIPT LOAD). */
  scriptLoads(): Promise<void>;
  /** A write is accepted (not READONLY, not out of memory) and read back. */
  writes(): Promise<void>;
}

export type StoreEvent = { kind: 'store_unavailable'; reason: string } | { kind: 'store_available' };

export interface GovernanceStore {
  readonly kind: 'embedded' | 'redis';
  /** Budgets and politeness, checked and taken in one step. */
  admission(politeness: PolitenessGate, now?: () => number): Admission;
  /**
   * Where a host keeps remembered approvals and robots.txt answers: the fleet's
   * (Redis), or, embedded, its own memory for approvals (a new one per call) and
   * nothing for robots (the host's RobotsCache already holds them).
   */
  values(use: 'approvals' | 'robots'): SharedValues;
  resultCache(config: Pick<WebcapConfig, 'workspace' | 'cache'>): ResultCache;
  providerState(workspace: string): StateBackend;
  /** A shared store's health (doctor, /healthz); the embedded store has none to check. */
  readonly checks?: StoreChecks;
  /** Transitions only (up → down, down → up): the chain records each once. */
  onEvent(listener: (e: StoreEvent) => void): () => void;
  close(): Promise<void>;
}
