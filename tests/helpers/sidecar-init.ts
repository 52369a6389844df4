// A sidecar init for tests that drive the sidecar's Sessions directly (no host):
// a temporary workspace, four slots, any domain, loopback allowed.
import type { SidecarInit } from '../../manifests/wire.js';
import { tempDir } from './host.js';

export function bareSidecarInit(): SidecarInit {
  return {
    workspace: tempDir(), profiles: [],
    browser: {
      headless: true, executable_path: process.env.WEBCAP_CHROMIUM, max_concurrent_sessions: 4, idle_timeout_s: 300,
      default_timeout_ms: 30_000, viewport: { width: 1280, height: 800 }, auto_accept_cookies: false,
    },
    network: { resolve: {}, allow_private: ['127.0.0.1'], domains_allowlist: ['*'], domains_denylist: [] },
  };
}
