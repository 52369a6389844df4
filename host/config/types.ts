// The validated config, every default filled in (see schema.ts).
import type { BudgetTables } from '../budget/buckets.js';

export interface BrowserConfig {
  enabled: boolean;
  headless: boolean;
  domains_allowlist: string[];
  domains_denylist: string[];
  max_actions_per_minute: number;
  max_concurrent_sessions: number;
  auto_accept_cookies: boolean | 'per_site';
  respect_robots: boolean;
  user_agent: string;
  executable_path?: string;
  remote_endpoint?: string;
  remote_kind: 'playwright' | 'cdp';
  idle_timeout_s: number;
  default_timeout_ms: number;
  viewport_width: number;
  viewport_height: number;
  evaluate_enabled: boolean;
  ignore_https_errors: boolean;
  /** How the sidecar answers alert/confirm/prompt (beforeunload is always accepted). */
  dialogs: 'dismiss' | 'accept';
  /** Who drives the browser: webcap's own sidecar, or a Playwright MCP server ([playwright_mcp]). */
  provider: 'sidecar' | 'playwright-mcp';
  /** A web.open over max_concurrent_sessions waits for a slot ("wait") or fails at once ("fail"). */
  session_queue: 'wait' | 'fail';
}

interface SearchProviderQuota { daily_quota?: number; monthly_quota?: number }
export type PlacesSource = 'google_maps' | 'yelp' | 'thefork';
export interface SearchConfig {
  default_source: 'serpapi' | 'exa' | 'auto';
  timeout_ms: number;
  breaker_failures: number;
  breaker_open_s: number;
  serpapi: SearchProviderQuota & { endpoint: string; api_key_env: string; engine: 'google' | 'bing' };
  exa: SearchProviderQuota & { endpoint: string; api_key_env: string; type: 'neural' | 'keyword' | 'auto' };
  apify: SearchProviderQuota & {
    endpoint: string;
    token_env: string;
    timeout_ms: number;
    max_results: number;
    actors: Partial<Record<PlacesSource, string>>;
    inputs: Partial<Record<PlacesSource, Record<string, unknown>>>;
  };
}

/** [[mcp.clients]]: one principal of `webcap mcp --http`. */
export interface McpClientConfig {
  name: string;
  token_env: string;
  /** Narrows [capabilities.browser] domains_allowlist: a URL must pass both. */
  domains_allowlist?: string[];
  /** Budgets of this client alone, on top of the host's (keys of [budgets]). */
  budgets?: BudgetTables;
  /** Narrows who may answer its consent questions: nobody ("deny"), only the console, or only its own MCP form. */
  consent?: ClientConsent;
}

/** The channel names are those the chain records as `channel` of a consent answer. */
export type ClientConsent = 'deny' | 'console' | 'mcp_elicitation';

export interface WebcapConfig {
  capabilities: { browser: BrowserConfig };
  /** Sliding-window limits: per minute (per_capability, per_domain), per hour and per day. */
  budgets: Required<BudgetTables> & { jitter_ms: number };
  robots: { cache_ttl_s: number; fetch_timeout_ms: number };
  network: { resolve: Record<string, string>; allow_private: string[] };
  consent: { non_interactive: 'deny' | 'approve'; require: string[]; waive: string[]; approval_ttl_s: number; gate_requests: boolean; timeout_s: number };
  /** The person's window (host/console). */
  console: { enabled: boolean; listen: string };
  handoff: { on_captcha: 'fail' | 'ask' };
  chain: { path: string; signing_key_env?: string; checkpoint_every: number };
  plans: { max_steps: number; max_duration_s: number; max_bytes: number };
  workspace: { path: string };
  logging: { level: string; file: string };
  /** On-disk cache of scrape and search results (host/cache). */
  cache: { enabled: boolean; ttl_s: number; max_bytes: number };
  /** Shared governance state (host/store): no url = embedded (memory + workspace), url = Redis. */
  store: { url?: string; prefix: string; password_env?: string };
  mcp: { wrap_untrusted: boolean; dynamic_tools: boolean; clients: McpClientConfig[]; tool_list: 'lean' | 'full'; after_action: 'diff' | 'snapshot' | 'none' };
  /** [capabilities.browser] provider = "playwright-mcp": the server to forward browser calls to. */
  playwright_mcp: { command?: string[]; url?: string };
  /** Prometheus metrics; listen: where the daemon serves /metrics and /healthz. */
  metrics: { enabled: boolean; listen?: string; token_env?: string };
  report: { screenshots: 'each_step' | 'on_error'; trace: 'off' | 'on-failure' | 'always' };
  /** Web search and place-search providers (host/search). Quotas: absent = no limit. */
  search: SearchConfig;
  /** `webcap call`/`run` use the workspace's background daemon. */
  cli: { daemon: boolean };
  /** Encrypted persistent browser profiles (host/profiles). path is resolved like chain.path. */
  profiles: { path: string; key_env: string; max_age_days: number };
  /** The credential vault (host/secrets) and the guard that keeps its values on their origins. */
  secrets: { path: string; key_env: string; dlp: boolean };
  redaction: { builtin: Array<'email' | 'card' | 'token'>; patterns: string[] };
  /** Folder relative paths were resolved against (the config file's folder). */
  base_dir: string;
}
