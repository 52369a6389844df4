// The innermost step of every approved call: a host capability runs here, a
// browser call goes to the backend. On the way: profiles' storage (in and
// out), vault references, secrets learned from what was typed, the sessions
// the host knows of, and a store outage met mid-call.
import type { Logger } from 'pino';
import { WebcapError } from '../../manifests/errors.js';
import type { ConsentGate } from '../consent/gate.js';
import type { WebcapConfig } from '../config/types.js';
import type { CallContext, CallResult } from '../policies/types.js';
import type { Profiles } from '../profiles/manager.js';
import { withProfiles } from '../profiles/terminal.js';
import type { BrowserBackend } from '../providers/browser-backend.js';
import { provide } from '../providers/index.js';
import { narrowedOf } from '../policies/narrowed.js';
import type { Redactor } from '../redact/redactor.js';
import { learnTypedSecret } from '../redact/typed-text.js';
import { robotsForNavigation } from '../robots/navigation.js';
import type { RobotsCache } from '../robots/robots.js';
import { learnLiterals, withSecrets, type MissingHandling } from '../secrets/terminal.js';
import type { SessionTracker } from '../sidecar-link/session-tracker.js';
import type { StoreWatch } from '../store/watch.js';

/** The caller of plain host.call()s that name no owner (host.ts). */
export const DEFAULT_OWNER = 'library';
export const ownerOf = (call: CallContext) => call.owner ?? DEFAULT_OWNER;

interface TerminalDeps {
  config: WebcapConfig; log: Logger; redactor: Redactor; gate: ConsentGate; profiles: Profiles;
  browser: BrowserBackend; robots: RobotsCache; sessions: SessionTracker; storeWatch: StoreWatch;
  /** A secret the vault lacks: entered by a person where the client can send them (missing-secrets.ts). */
  missingSecrets: MissingHandling;
}

export function buildTerminal(d: TerminalDeps): (call: CallContext) => Promise<CallResult> {
  const { config, redactor, browser, storeWatch } = d;
  return withSecrets(config, withProfiles(d.profiles, async (call) => {
    if (call.manifest.provider === 'host') {
      return provide(call.capability, call.params, { config, log: d.log, redactor, gate: d.gate, call, sidecar: (id, params, ms) => browser.invoke(id, params, ms, ownerOf(call), narrowedOf(call)), robots: (url) => robotsForNavigation(d.robots, config, url) });
    }
    const timeout = typeof call.params.timeout === 'number' ? call.params.timeout : config.capabilities.browser.default_timeout_ms;
    const seen = storeWatch.mark();
    try {
      let result = await browser.invoke(call.capability, call.params, timeout, ownerOf(call), narrowedOf(call));
      learnTypedSecret(result, (s) => learnLiterals(s, (v) => redactor.addSecret(v)));
      // The sidecar keeps secret fields' values out of what it answers; another provider's answer (its snapshot) is cleaned here.
      if (browser.name !== 'sidecar') result = redactor.hideSecrets(result);
      d.sessions.observe(ownerOf(call), call.capability, result);
      return result;
    } catch (err) {
      if (err instanceof WebcapError && (err.code === 'sidecar_crashed' || err.code === 'browser_crashed')) d.sessions.forgetAll();
      throw storeWatch.since(seen, call) ?? err;
    }
  }), d.missingSecrets);
}
