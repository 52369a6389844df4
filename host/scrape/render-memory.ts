// Per-domain memory of whether pages need the browser: when a page was read
// both ways and the rendered reading won (render-choice.ts), the comparison
// is remembered; a domain whose rendering changed the text renders its next
// pages too (still compared with the HTTP reading). Kept in the host's cache
// (host/cache), so it is shared by every process on the workspace and expires
// with the cache. LEARN_PAGES is kept for callers that count comparisons.
import { cacheKey } from '../cache/index.js';
import type { CacheHit } from '../cache/index.js';
import { wordsOf } from './text.js';

/** Pages of a domain compared both ways before HTTP alone is trusted. */
export const LEARN_PAGES = 3;
// Rendered text that shares less than this with the HTTP text (Dice over words) means rendering mattered.
const SAME_TEXT = 0.9;

interface RenderMemory { compared: number; render_needed: boolean; evidence?: string }

/** The few cache methods used: the cache's own interface, whatever store is behind it. */
export interface MemoryStore {
  get<T>(key: string): Promise<CacheHit<T> | undefined>;
  set(key: string, value: unknown): Promise<unknown>;
}

const memoryKey = (host: string) => cacheKey('scrape-render-memory', { host: host.toLowerCase() });

export async function recall(store: MemoryStore, host: string): Promise<RenderMemory | undefined> {
  const hit = await store.get<RenderMemory>(memoryKey(host)).catch(() => undefined);
  return hit && !hit.stale ? hit.value : undefined;
}

export async function remember(store: MemoryStore, host: string, memory: RenderMemory): Promise<void> {
  await store.set(memoryKey(host), memory).catch(() => undefined);
}

/** What one comparison teaches: did rendering add or change the text? */
export function learn(before: RenderMemory | undefined, url: string, httpText: string, renderedText: string): RenderMemory {
  const agreement = textAgreement(httpText, renderedText);
  const needed = agreement < SAME_TEXT;
  const compared = (before?.compared ?? 0) + 1;
  if (needed) return { compared, render_needed: true, evidence: `${url}: rendered text shared ${agreement.toFixed(2)} of its words with the HTTP text` };
  return { compared, render_needed: before?.render_needed ?? false, evidence: before?.evidence };
}

/** Dice coefficient over the two texts' word multisets: 1 = the same words, as often. */
export function textAgreement(a: string, b: string): number {
  const wa = wordsOf(a);
  const wb = wordsOf(b);
  if (wa.length === 0 && wb.length === 0) return 1;
  const counts = new Map<string, number>();
  for (const w of wa) counts.set(w, (counts.get(w) ?? 0) + 1);
  let shared = 0;
  for (const w of wb) {
    const n = counts.get(w) ?? 0;
    if (n > 0) { shared++; counts.set(w, n - 1); }
  }
  return (2 * shared) / (wa.length + wb.length);
}
