// What drives the browser for the `web.*` capabilities whose manifest says
// "provider": "sidecar": webcap's own sidecar (the default) or an existing
// Playwright MCP server ([capabilities.browser] provider = "playwright-mcp").
// The host's policy chain runs in front of either; only the last step differs.
import type { InvokeParams } from '../../manifests/wire.js';

export type Narrowed = NonNullable<InvokeParams['narrowed']>;

export interface BrowserBackend {
  /** "sidecar" or "playwright-mcp": recorded on chain entries when not the sidecar. */
  readonly name: string;
  /**
   * `owner`: the caller the call belongs to; it reaches only the sessions that owner opened.
   * `narrowed`: its client's own allowlist, held at the page for every session the call opens.
   */
  invoke(capability: string, params: Record<string, unknown>, timeoutMs: number, owner: string, narrowed?: Narrowed): Promise<Record<string, unknown>>;
  /** Start-up hints (the sidecar overlaps its start with the policy checks); others may ignore them. */
  prestart(): void;
  /** `spare`: the web.open on its way is a plain one (manifests/wire.ts PrelaunchParams). */
  prelaunch(spare?: boolean): void;
  close(): Promise<void>;
}
