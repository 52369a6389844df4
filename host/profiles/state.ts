// Playwright storage state (cookies + per-origin localStorage/IndexedDB), split
// by what the allowlist allows now: the allowed part is restored into the
// session, the rest stays on disk untouched and is written back as it was.
import { matchHost, normalizeHost } from '../../manifests/net/hostname.js';
import type { BrowserConfig } from '../config/types.js';

export interface Cookie { name: string; value: string; domain: string; path: string; [k: string]: unknown }
interface OriginState { origin: string; localStorage: Array<{ name: string; value: string }>; indexedDB?: unknown[] }
export interface StorageState { cookies: Cookie[]; origins: OriginState[] }

export const EMPTY: StorageState = { cookies: [], origins: [] };

type Allow = Pick<BrowserConfig, 'domains_allowlist' | 'domains_denylist'>;

const allowedHost = (host: string, b: Allow) => matchHost(normalizeHost(host.replace(/^\./, '')), b.domains_allowlist, b.domains_denylist).allowed;
const originHost = (origin: string) => { try { return new URL(origin).hostname; } catch { return ''; } };

export function split(state: StorageState, b: Allow): { allowed: StorageState; kept: StorageState } {
  const cookieOk = (c: Cookie) => allowedHost(c.domain, b);
  const originOk = (o: OriginState) => allowedHost(originHost(o.origin), b);
  return {
    allowed: { cookies: state.cookies.filter(cookieOk), origins: state.origins.filter(originOk) },
    kept: { cookies: state.cookies.filter((c) => !cookieOk(c)), origins: state.origins.filter((o) => !originOk(o)) },
  };
}

/** What the session holds now, plus what was kept aside (the session never saw those origins' entries). */
export function merge(session: StorageState, kept: StorageState): StorageState {
  const seen = new Set(session.origins.map((o) => o.origin));
  return { cookies: [...session.cookies, ...kept.cookies], origins: [...session.origins, ...kept.origins.filter((o) => !seen.has(o.origin))] };
}

/** Origins a state holds data for (cookie domains as https origins of their host), sorted. */
export function originsOf(state: StorageState): string[] {
  const set = new Set(state.origins.filter((o) => o.localStorage.length || o.indexedDB?.length).map((o) => o.origin));
  for (const c of state.cookies) set.add(c.domain.replace(/^\./, ''));
  return [...set].sort();
}

export function counts(state: StorageState): { cookies: number; local_storage_items: number } {
  return { cookies: state.cookies.length, local_storage_items: state.origins.reduce((n, o) => n + o.localStorage.length, 0) };
}
