// The shape of a site profile (site-profiles/*.json): shared by the host, which
// reads and validates the files, and the sidecar, which applies them.
export interface ConsentRules {
  banner?: string; accept?: string; reject?: string;
  iframe?: string; shadow_host?: string;
  /** What policy auto picks when auto_accept_cookies = "per_site". */
  default?: 'accept' | 'reject';
}

export interface TaskStep { call: string; args?: Record<string, unknown>; as?: string; description?: string }

export interface SiteTask {
  description?: string;
  needs: string[];
  inputs?: Record<string, { type: 'string' | 'number' | 'integer' | 'boolean'; description?: string; default?: unknown }>;
  steps: TaskStep[];
  returns?: string;
}

export interface SiteProfile {
  name: string;
  description?: string;
  verified?: boolean;
  note?: string;
  domains: string[];
  selectors?: Record<string, string>;
  consent?: ConsentRules;
  rate?: { min_delay_ms?: number; jitter_ms?: number; max_per_minute?: number };
  scroll?: { max_scrolls?: number; stop_when_no_new_items?: boolean; item_selector?: string; by?: number };
  pagination?: { next?: string; max_pages?: number };
  tasks?: Record<string, SiteTask>;
}

/**
 * `@name` is the named selector of the page's site profile; it may lead a
 * Playwright chain (`@result_item >> nth=19`: the 20th result), kept as `rest`.
 * Undefined for any other selector.
 */
export function namedSelector(selector: string): { name: string; rest: string } | undefined {
  if (!selector.startsWith('@')) return undefined;
  const chain = selector.indexOf(' >> ');
  return chain > 0 ? { name: selector.slice(1, chain), rest: selector.slice(chain) } : { name: selector.slice(1), rest: '' };
}
