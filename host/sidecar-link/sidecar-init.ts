// What the sidecar is told at start, derived from the validated config.
import { join } from 'node:path';
import { projectRoot } from '../../manifests/load.js';
import type { SidecarInit } from '../../manifests/wire.js';
import type { WebcapConfig } from '../config/types.js';
import { loadProfiles } from '../profiles/site-profiles.js';

export function sidecarInit(config: WebcapConfig): SidecarInit {
  const b = config.capabilities.browser;
  return {
    workspace: config.workspace.path,
    chain_path: config.chain.path,
    log_path: config.logging.file,
    profiles: loadProfiles(join(projectRoot(), 'site-profiles')),
    browser: {
      headless: b.headless,
      executable_path: b.executable_path,
      remote: b.remote_endpoint ? { kind: b.remote_kind, endpoint: b.remote_endpoint } : undefined,
      user_agent: b.user_agent,
      max_concurrent_sessions: b.max_concurrent_sessions,
      session_queue: b.session_queue,
      idle_timeout_s: b.idle_timeout_s,
      default_timeout_ms: b.default_timeout_ms,
      viewport: { width: b.viewport_width, height: b.viewport_height },
      auto_accept_cookies: b.auto_accept_cookies,
      ignore_https_errors: b.ignore_https_errors,
      dialogs: b.dialogs,
      evaluate_enabled: b.evaluate_enabled,
    },
    network: {
      resolve: config.network.resolve,
      allow_private: config.network.allow_private,
      domains_allowlist: b.domains_allowlist,
      domains_denylist: b.domains_denylist,
    },
    trace: config.report.trace,
    effects: { gate_requests: config.consent.gate_requests, robots: b.respect_robots },
    secrets: { dlp: config.secrets.dlp },
  };
}
