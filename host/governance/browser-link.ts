// The sidecar process and what it reports back: blocked requests, session
// events, sensitive steps and effects held for consent, robots.txt checks of
// navigations, vault references about to be typed, live-view frames. Then the
// backend that runs approved browser calls: the sidecar, or a Playwright MCP
// server (recorded on each chain entry).
import type { Logger } from 'pino';
import type { ConsentGate } from '../consent/gate.js';
import type { ConsoleHub } from '../console/hub.js';
import type { WebcapConfig } from '../config/types.js';
import type { Profiles } from '../profiles/manager.js';
import { chooseBackend } from '../providers/choose-backend.js';
import type { Redactor } from '../redact/redactor.js';
import { robotsForNavigation } from '../robots/navigation.js';
import type { RobotsCache } from '../robots/robots.js';
import { requestOrigin } from '../../manifests/secrets/refs.js';
import { secretResolver } from '../secrets/resolver.js';
import { learnLiterals } from '../secrets/terminal.js';
import { SidecarClient } from '../sidecar-link/sidecar-client.js';
import { sidecarInit } from '../sidecar-link/sidecar-init.js';
import type { SessionTracker } from '../sidecar-link/session-tracker.js';
import type { StoreWatch } from '../store/watch.js';
import type { BlockedRequests } from './blocked-requests.js';
import type { ChainWriter } from './chain-writer.js';

interface BrowserLinkDeps {
  config: WebcapConfig; log: Logger; redactor: Redactor; chain: ChainWriter; sessions: SessionTracker;
  blocked: BlockedRequests; gate: ConsentGate; profiles: Profiles; robots: RobotsCache; storeWatch: StoreWatch; hub: ConsoleHub;
}

export function buildBrowserLink(d: BrowserLinkDeps) {
  const { config, log, redactor, chain, gate, storeWatch } = d;
  const sidecar = new SidecarClient(() => sidecarInit(config), {
    onBlocked(b) {
      d.blocked.note(b);
      // A secret stopped on its way off its origins: which one (by name) and where it was going.
      if (b.secret) void chain.event('secret_blocked', b.session, { secret: `{{secret:${b.secret}}}`, origin: requestOrigin(b.url), kind: b.kind }).catch(() => undefined);
      log.info({ session: b.session, host: b.host, code: b.code }, 'request blocked in the browser');
    },
    onEvent(e) {
      if (e.kind === 'browser_crashed' || e.kind === 'sidecar_crashed') d.sessions.forgetAll();
      if (e.session && e.kind === 'session_idle_closed') d.sessions.closed(e.session);
      // An idle-closed profile session hands back its storage for saving (never into the chain).
      const { storage_state: state, ...detail } = (e.detail ?? {}) as Record<string, unknown>;
      void chain.append({ kind: 'event', ...chain.viaFor(e.session), session: e.session ?? null, result: redactor.redact({ event: e.kind, ...detail }) }, chain.after).catch(() => undefined);
      if (e.session && e.kind === 'session_idle_closed') void d.profiles.closed(e.session, state as never).catch((err: unknown) => log.warn({ err: String(err) }, 'profile save after idle close failed'));
    },
    async onSensitive(a) {
      if (a.secret) learnLiterals(a.secret, (v) => redactor.addSecret(v));
      return storeWatch.watch(() => gate.confirmSensitive(a));
    },
    // Checks at the effect (sidecar/guard/effect-gate.ts): a request an action caused, a navigation the page made.
    onEffectConsent: (q) => storeWatch.watch(() => gate.confirmRequest(q)),
    onRobotsCheck: (q) => storeWatch.watch(() => robotsForNavigation(d.robots, config, q.url)),
    onSecret: secretResolver(config, gate, (value) => redactor.addSecret(value), chain.event),
    onFrame: (session, jpeg) => d.hub.frame(session, jpeg),
    onHandoff: (ask) => d.hub.handoff(ask),
  }, log);
  return { sidecar, browser: chooseBackend(config, log, sidecar) };
}
