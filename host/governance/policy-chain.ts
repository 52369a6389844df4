// The one place the policy chain is composed (the documented order, SSRF before robots):
// audit → enabled → validate → allowlist → ssrf → robots → budget → consent →
// forward. SSRF runs before robots because the robots policy connects to the
// target host (GET /robots.txt): a host resolving to a private address must be
// refused before anything connects to it, not after. Between ssrf and robots,
// warm-up (policies/warm-up.ts) has the sidecar launch Chromium for a web.open;
// it decides nothing.
import type { Manifest } from '../../manifests/load.js';
import { PolitenessGate } from '../budget/politeness.js';
import { siteRates } from '../budget/site-rates.js';
import type { ConsentGate } from '../consent/gate.js';
import type { ConsoleHub } from '../console/hub.js';
import type { WebcapConfig } from '../config/types.js';
import { allowlistPolicy } from '../policies/allowlist.js';
import { auditPolicy } from '../policies/audit.js';
import { budgetPolicy } from '../policies/budget.js';
import { compose } from '../policies/compose.js';
import { consentPolicy } from '../policies/consent.js';
import { enabledPolicy } from '../policies/enabled.js';
import { challengePolicy, waitWhileDrivenPolicy, type ChallengeFound } from '../policies/handoff.js';
import { interruptPolicy } from '../policies/interrupt.js';
import { robotsPolicy } from '../policies/robots.js';
import { sessionScopePolicy } from '../policies/session-scope.js';
import { ssrfPolicy } from '../policies/ssrf.js';
import type { CallContext, CallResult } from '../policies/types.js';
import { compileValidators, validatePolicy } from '../policies/validate.js';
import { warmUpPolicy } from '../policies/warm-up.js';
import { writeAheadPolicy } from '../policies/write-ahead.js';
import type { BrowserBackend } from '../providers/browser-backend.js';
import type { Redactor } from '../redact/redactor.js';
import type { RobotsCache } from '../robots/robots.js';
import type { GovernanceStore } from '../store/types.js';
import type { ChainWriter } from './chain-writer.js';
import { ownerOf } from './terminal.js';

interface PolicyChainDeps {
  config: WebcapConfig; manifests: Manifest[]; chain: ChainWriter; redactor: Redactor; hub: ConsoleHub;
  browser: BrowserBackend; robots: RobotsCache; store: GovernanceStore; gate: ConsentGate;
  /** The whole governed path again, for the hand-off a challenge starts by itself (a web.handoff call like any other). */
  rerun(call: CallContext): Promise<CallResult>;
}

/**
 * Compiled once, while the chain file opens (not inside createHost), so a
 * cold start overlaps it with the sidecar's own start-up.
 */
export function buildPolicyChain(d: PolicyChainDeps, terminal: (call: CallContext) => Promise<CallResult>) {
  const { config, redactor } = d;
  // With a shared store the host keeps the site profiles' polite gap for the fleet too (see budget/site-rates.ts).
  const politeness = new PolitenessGate(config, undefined, undefined, d.store.kind === 'redis' ? siteRates() : undefined);
  const admission = d.store.admission(politeness);
  const handoffManifest = d.manifests.find((m) => m.id === 'web.handoff')!;
  const run = d.chain.ready.then((chain) => compose([
    auditPolicy(chain, redactor),
    interruptPolicy(d.hub), // Stop and Ctrl-C: recorded by audit like any other outcome
    waitWhileDrivenPolicy(d.hub, config.capabilities.browser.default_timeout_ms), // the person drives the session (web.handoff)
    challengePolicy({ // a CAPTCHA, 2FA prompt or login wall after a plan step ([handoff] on_captcha)
      mode: config.handoff.on_captcha,
      hub: d.hub,
      probe: async (call, session) => (d.browser.name === 'sidecar'
        ? ((await d.browser.invoke('webcap.challenge_probe', { session, ...(typeof call.params.url === 'string' ? { requested: call.params.url } : {}) }, 10_000, ownerOf(call))).found as ChallengeFound | null)
        : null),
      handOff: (call, session, reason) => d.rerun({
        capability: 'web.handoff', manifest: handoffManifest, params: { session, reason }, planId: call.planId, session, decisions: [], startedAt: Date.now(),
        owner: call.owner, step: call.step, caller: call.caller, signal: call.signal, via: call.via, principal: call.principal,
      }),
    }),
    enabledPolicy(config),
    validatePolicy(compileValidators(d.manifests)),
    sessionScopePolicy(),  // one MCP client among several: only its own sessions
    allowlistPolicy(config),
    ssrfPolicy(config),   // before robots: see the header comment
    writeAheadPolicy(chain, redactor), // the intent is on disk before anything below acts
    warmUpPolicy(d.browser), // not a decision: Chromium starts while robots/consent run
    robotsPolicy(d.robots, config, politeness),
    budgetPolicy(config, { politeness, admission }),
    consentPolicy(d.gate, config.consent),
  ], terminal));
  run.catch(() => undefined);
  return run;
}
