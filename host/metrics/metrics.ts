// The process's Prometheus metrics (prom-client), one registry for every host
// in the process, served at /metrics by `webcap mcp --http`, the daemon
// ([metrics] listen) and `webcap browser-server`, and as text by
// host.metrics(). Recording is a few map lookups; with [metrics] enabled =
// false nothing is recorded at all.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { codeLabel, isPlainName, LabelSet } from './labels.js';
import { chromiumRssBytes } from './rss.js';

export const registry = new Registry();
let enabled = true;
/** Manifest ids: the only capability labels (a caller's unknown id counts as "other"). */
const capabilityIds = new Set<string>();
const capabilities = new LabelSet((id) => capabilityIds.has(id), 200);
const policies = new LabelSet(isPlainName, 30);
const reasons = new LabelSet(isPlainName, 30);

const calls = new Counter({ name: 'webcap_calls_total', help: 'Capability calls by outcome (ok, error) and error code (none on success).', labelNames: ['capability', 'outcome', 'code'], registers: [registry] });
const duration = new Histogram({ name: 'webcap_call_duration_seconds', help: 'Capability call latency, policies included.', labelNames: ['capability'], buckets: [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60], registers: [registry] });
const refusals = new Counter({ name: 'webcap_policy_refusals_total', help: 'Calls refused, by the policy that refused them.', labelNames: ['policy'], registers: [registry] });
const consent = new Counter({ name: 'webcap_consent_questions_total', help: 'Consent decisions by reason and answer (approved, denied, remembered).', labelNames: ['reason', 'answer'], registers: [registry] });
const consentWait = new Histogram({ name: 'webcap_consent_answer_seconds', help: 'Time from a consent question to its answer (questions actually asked).', buckets: [0.01, 0.1, 1, 5, 15, 60, 300], registers: [registry] });
const cache = new Counter({ name: 'webcap_cache_requests_total', help: 'Result cache lookups (hit, stale, miss).', labelNames: ['result'], registers: [registry] });
const storeErrors = new Counter({ name: 'webcap_store_errors_total', help: 'Shared store commands that failed (refused, timed out, unreachable).', registers: [registry] });
const storeLatency = new Histogram({ name: 'webcap_store_latency_seconds', help: 'Shared store command latency.', buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.05, 0.25, 1], registers: [registry] });
const restarts = new Counter({ name: 'webcap_sidecar_restarts_total', help: 'Sidecar processes started after an earlier one of the same host had exited.', registers: [registry] });

// The label objects of each (capability, code) seen, made once: a call then costs two
// map hits and prom-client's own update, no new objects. Keyed by what the caller sent,
// so only known capabilities are kept (an unknown id, maybe hostile, maps to "other" each time), and at most 1000.
interface CallLabels { calls: { capability: string; outcome: string; code: string }; duration: { capability: string } }
const callLabels = new Map<string, CallLabels>();
const MAX_CACHED_LABELS = 1000;
function labelsOf(capability: string, code: string | undefined): CallLabels {
  const key = code === undefined ? capability : `${capability}\u0000${code}`;
  const hit = callLabels.get(key);
  if (hit) return hit;
  const cap = capabilities.of(capability);
  const made = { calls: { capability: cap, outcome: code === undefined ? 'ok' : 'error', code: codeLabel(code) }, duration: { capability: cap } };
  if (cap !== 'other' && callLabels.size < MAX_CACHED_LABELS) callLabels.set(key, made);
  return made;
}

type SessionSource = () => { open: number; queued?: number };
const sessionSources = new Set<SessionSource>();
const sidecarPids = new Set<number>();
new Gauge({
  name: 'webcap_sessions', help: 'Browser sessions by state (open; queued waiting for a slot where the host knows it).', labelNames: ['state'], registers: [registry],
  collect() {
    let open = 0; let queued = 0;
    for (const s of sessionSources) { const v = s(); open += v.open; queued += v.queued ?? 0; }
    this.set({ state: 'open' }, open);
    this.set({ state: 'queued' }, queued);
  },
});
new Gauge({
  name: 'webcap_chromium_rss_bytes', help: 'Resident memory of the browser processes under this process\'s sidecars.', registers: [registry],
  async collect() { this.set(await chromiumRssBytes([...sidecarPids])); },
});

export const metrics = {
  get enabled(): boolean { return enabled; },
  setEnabled(on: boolean): void { enabled = on; },
  knowCapabilities(ids: Iterable<string>): void { for (const id of ids) capabilityIds.add(id); },

  call(capability: string, code: string | undefined, seconds: number, refusedBy?: string): void {
    if (!enabled) return;
    const labels = labelsOf(capability, code);
    calls.inc(labels.calls);
    duration.observe(labels.duration, seconds);
    if (refusedBy !== undefined) refusals.inc({ policy: policies.of(refusedBy) });
  },
  consent(reason: string, answer: 'approved' | 'denied' | 'remembered'): void {
    if (enabled) consent.inc({ reason: reasons.of(reason), answer });
  },
  consentAnswered(seconds: number): void { if (enabled) consentWait.observe(seconds); },
  cache(result: 'hit' | 'stale' | 'miss'): void { if (enabled) cache.inc({ result }); },
  store(seconds: number, failed: boolean): void {
    if (!enabled) return;
    storeLatency.observe(seconds);
    if (failed) storeErrors.inc();
  },
  sidecarRestarted(): void { if (enabled) restarts.inc(); },
  sidecarStarted(pid: number | undefined): () => void {
    if (pid === undefined) return () => undefined;
    sidecarPids.add(pid);
    return () => sidecarPids.delete(pid);
  },
  sessions(source: SessionSource): () => void {
    sessionSources.add(source);
    return () => sessionSources.delete(source);
  },
  text: (): Promise<string> => registry.metrics(),
  contentType: registry.contentType,
};

/** A result-cache lookup, counted as hit, stale or miss and passed through. */
export function countedLookup<T extends { stale: boolean } | undefined>(hit: T): T {
  metrics.cache(!hit ? 'miss' : hit.stale ? 'stale' : 'hit');
  return hit;
}
