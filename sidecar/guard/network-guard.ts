// The second line of the network policy: every request a session's pages make
// is checked against the same rules the host applies to web.open (scheme,
// domains_allowlist/denylist, SSRF with [network] resolve and allow_private).
//
// Two layers, because Playwright's context.route() never sees redirect hops
// (microsoft/playwright#3993, #33882: Playwright continues them itself):
//  1. context.route + routeWebSocket: documents, iframes, popups, subresources,
//     fetch/XHR, dedicated workers' requests and page websockets. A refusal is
//     route.abort('blockedbyclient') and carries the resource type.
//  2. The guard proxy (startGuardProxy, passed as the context's `proxy`): a
//     tiny HTTP/CONNECT proxy on 127.0.0.1 through which Chromium sends every
//     connection, so redirect hops, shared workers, beacons and worker
//     websockets are checked too, and it connects to the very address it
//     checked (no DNS-rebinding gap between check and connect). A remote
//     browser gets it too (remote-guard.ts proves it can reach it, or the
//     sidecar refuses that browser).
// Both layers also ask the effect gate (effect-gate.ts): consent for
// state-changing requests, robots.txt for top-level navigations.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { BrowserContext, Request } from 'playwright';
import { checkHost, checkUrl, mappedPort, type Denial, type NetPolicy, type Verdict } from '../../manifests/net/resolve.js';
import { normalizeHost } from '../../manifests/net/hostname.js';
import type { BlockedRequest } from '../../manifests/wire.js';
import type { EffectGate } from './effect-gate.js';
import { EFFECT_PASS_HEADER, effectFacts, passesEffect } from './effect-route.js';
import { hostOf, isStateChanging } from './effect-rules.js';
import { hopsWatched, watchRedirectHops } from './redirect-hops.js';
import { walkRedirects } from './redirect-walk.js';
import type { SecretBook } from '../secrets/book.js';
import { guardMessages, leakInMessage, leakInProxied, leakInRequest, readBody, type Leak } from '../secrets/dlp.js';
import { portOf, type RefusedEndpoints } from './refused-endpoints.js';

export interface GuardOptions extends NetPolicy {
  session: string;
  onBlocked(b: BlockedRequest): void;
  /** Consent for state-changing requests and robots.txt for navigations (absent: network policy only). */
  effects?: EffectGate;
  /** The secrets typed so far: a request carrying one off its origins is refused (absent: [secrets] dlp = false). */
  dlp?: SecretBook;
  /** Address:port pairs refused whatever allow_private says (the host's console). */
  refused?: RefusedEndpoints;
  /** Sessions stopped by the person: nothing of theirs leaves until their next call (sidecar/stops.ts). */
  stopped?: { has(session: string): boolean };
}

type Refused = Pick<Denial, 'host' | 'reason'> & { code: BlockedRequest['code'] };

export interface NetworkGuard {
  /** The latest refusal (a failed goto often means "blocked": look here before reporting navigation_failed). */
  lastBlocked(): BlockedRequest | undefined;
  clearBlocked(): void;
  /** A call is about to navigate the page to `url`: if the network policy lets it go, robots.txt is asked ahead (effect-gate.ts expect). */
  expectNavigation(url: string): void;
}

interface BlockLog extends Pick<NetworkGuard, 'lastBlocked' | 'clearBlocked'> {
  /** Remember only (visible to lastBlocked at once); report() when the details are final. */
  note(b: BlockedRequest): void;
  report(b: BlockedRequest): void;
}

function blockLog(opts: GuardOptions): BlockLog {
  let last: BlockedRequest | undefined;
  return {
    lastBlocked: () => last,
    clearBlocked: () => { last = undefined; },
    note(b) { last = b; },
    report(b) {
      last = b;
      try { opts.onBlocked(b); } catch { /* a reporting failure must not unblock or crash */ }
    },
  };
}

async function verdictFor(check: () => Promise<Verdict>): Promise<Verdict> {
  try {
    return await check();
  } catch (err) {
    // Fail closed: a guard bug must not turn into an open door.
    return { ok: false, code: 'ssrf_blocked', reason: `network guard error: ${(err as Error).message}` };
  }
}

function blocked(opts: GuardOptions, url: string, kind: string, d: Refused): BlockedRequest {
  let host = d.host ?? '';
  try { host ||= normalizeHost(new URL(url).hostname); } catch { /* keep '' */ }
  return { session: opts.session, url, host, kind, code: d.code, reason: d.reason };
}

function leaked(opts: GuardOptions, url: string, kind: string, leak: Leak): BlockedRequest {
  return { ...blocked(opts, url, kind, { code: 'consent_denied', reason: leak.reason }), secret: leak.ref.name };
}

/** A name that never resolves (RFC 6761 .invalid): only the guard proxy answers it. */
const PROBE_HOST = 'webcap-guard-probe.invalid';

export interface GuardProxy {
  /** Give this to browser.newContext({ proxy }) (Playwright adds <-loopback>, so 127.0.0.1 is proxied too). */
  readonly proxy: { server: string };
  readonly log: BlockLog;
  /** A URL only the proxy answers (with probeToken): a browser that loads it does send its traffic through the guard. */
  readonly probeUrl: string;
  readonly probeToken: string;
  /** Header value that tells the proxy the route layer already let this state-changing request go (to this host). */
  pass(url: string): string;
  watch(context: BrowserContext): void;
  close(): Promise<void>;
}

// Hop-by-hop headers belong to one connection; forwarding them breaks framing.
const HOP = ['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade'];
function endToEnd<T extends Record<string, unknown>>(headers: T): T {
  const copy = { ...headers };
  for (const h of HOP) delete copy[h];
  return copy;
}

/**
 * The port of a CONNECT target ("host:port"), read from the text itself:
 * new URL('http://host:80').port is '' (80 is http's default), which would
 * send a ws:// tunnel to port 80 on to 443.
 */
export function connectPort(authority: string): number {
  const port = /:(\d+)$/.exec(authority)?.[1];
  return port === undefined ? 443 : Number(port);
}

export async function startGuardProxy(opts: GuardOptions): Promise<GuardProxy> {
  const log = blockLog(opts);
  const lastWord = (v: Verdict, hostname: string, port: number) => refusedAfter(opts, v, hostname, port);
  const recent: Request[] = [];                 // to name the resource type of a refused hop
  const waiters = new Set<(r: Request) => void>();
  const tunnels = new Set<net.Socket>();
  const secret = randomBytes(16).toString('hex');
  const probeUrl = `http://${PROBE_HOST}/${secret}`;

  // The proxy sees a URL or a host:port; the page's 'request' event (emitted
  // around the same time) says what it was. Waits briefly, then gives up.
  function findRequest(match: (u: URL) => boolean): Promise<Request | undefined> {
    const test = (r: Request) => { try { return match(new URL(r.url())); } catch { return false; } };
    for (let i = recent.length - 1; i >= 0; i--) if (test(recent[i])) return Promise.resolve(recent[i]);
    return new Promise((resolve) => {
      const done = (r?: Request) => { clearTimeout(timer); waiters.delete(w); resolve(r); };
      const w = (r: Request) => { if (test(r)) done(r); };
      const timer = setTimeout(done, 300);
      waiters.add(w);
    });
  }

  function refuse(url: string, d: Refused, match: (u: URL) => boolean): void {
    const entry = blocked(opts, url, 'other', d);
    log.note(entry);
    void findRequest(match).then((r) => {
      if (r) {
        entry.kind = r.resourceType();
        entry.url = r.url();
        const from = r.redirectedFrom()?.url();
        if (from) entry.reason = `redirect from ${from}: ${entry.reason}`;
      }
      log.report(entry);
    });
  }

  const server = http.createServer(async (req, res) => {
    let url: URL;
    try { url = new URL(req.url ?? ''); } catch { res.writeHead(400).end('webcap guard: absolute http URL expected\n'); return; }
    if (url.protocol !== 'http:') { res.writeHead(400).end('webcap guard: only http is proxied in the clear\n'); return; }
    // The reachability probe (remote-guard.ts); the favicon Chromium asks for after it is not the page's traffic.
    if (url.hostname === PROBE_HOST) { res.writeHead(url.href === probeUrl ? 200 : 404, { 'content-type': 'text/plain' }).end(url.href === probeUrl ? secret : ''); return; }
    const pass = req.headers[EFFECT_PASS_HEADER];
    delete req.headers[EFFECT_PASS_HEADER];
    const body = opts.dlp?.size ? await readBody(req).catch(() => Buffer.alloc(0)) : undefined;
    const leak = leakInProxied(opts.dlp, url.href, req.headers, body);
    if (leak) {
      const entry = leaked(opts, url.href, 'other', leak);
      log.report(entry);
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', 'x-webcap-blocked': 'consent_denied', 'cache-control': 'no-store' });
      res.end('blocked by webcap (consent_denied): secret_origin\n');
      return;
    }
    const verdict: Verdict | Refused = await verdictFor(() => checkHost(url.hostname, opts)).then((v) => lastWord(v, url.hostname, mappedPort(url.hostname, opts.resolve) ?? portOf(url))).then(async (v) => {
      // A state-changing request the route layer did not pass for this host (a 307/308 hop that re-sends a POST elsewhere): ask here.
      if (!v.ok || !opts.effects || !isStateChanging(req.method ?? 'GET') || passesEffect(pass, secret, url)) return v;
      return (await opts.effects.decide(opts.session, { method: req.method ?? 'POST', url: url.href, resource: 'other', topLevel: false, pageUrl: '' })) ?? v;
    });
    if (!('ok' in verdict) || !verdict.ok) {
      refuse(url.href, verdict, (u) => u.href.split('#')[0] === url.href);
      // The header lets the sidecar turn a blocked redirect into the right error code.
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', 'x-webcap-blocked': verdict.code, 'cache-control': 'no-store' });
      res.end(`blocked by webcap (${verdict.code}): ${verdict.reason}\n`);
      return;
    }
    const upstream = http.request({
      host: verdict.addresses[0], port: mappedPort(url.hostname, opts.resolve) ?? Number(url.port || 80), method: req.method,
      path: url.pathname + url.search, headers: endToEnd(req.headers),
    });
    upstream.on('response', (up) => {
      res.writeHead(up.statusCode ?? 502, up.statusMessage, endToEnd(up.headers));
      up.pipe(res);
    });
    // Nothing answered (refused, reset, unreachable): the page sees a failed connection, as it would
    // without the proxy, not a 502 page some Chromium builds would show as the site's own answer.
    upstream.on('error', () => res.destroy());
    res.on('close', () => { if (!res.writableFinished) upstream.destroy(); });
    if (body) upstream.end(body); else req.pipe(upstream);
  });

  // https:// and ws(s):// arrive as CONNECT host:port; only the host is visible, which is all the policy needs.
  server.on('connect', async (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    tunnels.add(socket);
    socket.on('close', () => tunnels.delete(socket));
    socket.on('error', () => socket.destroy());
    let target: URL;
    try { target = new URL(`http://${req.url ?? ''}`); } catch { socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'); return; }
    const port = connectPort(req.url ?? '');
    const verdict = lastWord(await verdictFor(() => checkHost(target.hostname, opts)), target.hostname, mappedPort(target.hostname, opts.resolve) ?? port);
    if (!verdict.ok) {
      const shown = port === 443 ? `https://${target.hostname}/` : `https://${target.hostname}:${port}/`;
      refuse(shown, verdict, (u) => u.hostname === target.hostname && Number(u.port || (u.protocol === 'http:' ? 80 : 443)) === port);
      socket.end(`HTTP/1.1 403 Forbidden\r\nx-webcap-blocked: ${verdict.code}\r\n\r\n`);
      return;
    }
    let connected = false;
    const upstream = net.connect(mappedPort(target.hostname, opts.resolve) ?? port, verdict.addresses[0], () => {
      connected = true;
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on('error', () => (connected ? socket.destroy() : socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n')));
    socket.on('close', () => upstream.destroy());
  });
  // Plain-ws upgrades through a proxy are not something Chromium sends (it
  // tunnels websockets with CONNECT); with no 'upgrade' listener Node drops them.

  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  return {
    proxy: { server: `http://127.0.0.1:${port}` },
    log,
    probeUrl,
    probeToken: secret,
    pass: (u) => `${secret} ${new URL(u).host}`,
    watch(context) {
      context.on('request', (r) => {
        recent.push(r);
        if (recent.length > 200) recent.shift();
        for (const w of [...waiters]) w(r);
      });
    },
    async close() {
      for (const s of tunnels) s.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** After the network policy allowed a connection: a stopped session sends nothing, and the console is never reached. */
function refusedAfter(opts: GuardOptions, v: Verdict, hostname: string, port: number): Verdict {
  if (!v.ok) return v;
  // Reported as consent_denied: the person withdrew consent for anything more from this session.
  if (opts.stopped?.has(opts.session)) return { ok: false, code: 'consent_denied' as 'ssrf_blocked', reason: `session ${opts.session} was stopped by the person`, host: hostname };
  for (const address of v.addresses) {
    const denial = opts.refused?.check(address, port, hostname);
    if (denial) return denial;
  }
  return v;
}

function navigationWatched(req: Request): boolean {
  try {
    return hopsWatched(req.frame().page());
  } catch {
    return false; // a popup's first navigation: its page does not exist yet
  }
}

/**
 * Checks every request of every page in `context` (popups included: routes are
 * per context). Give `proxy` (from startGuardProxy, already set as the
 * context's proxy) to also cover redirect hops and unrouted traffic; it closes
 * with the context.
 */
export async function installNetworkGuard(context: BrowserContext, opts: GuardOptions & { proxy?: GuardProxy }): Promise<NetworkGuard> {
  const log = opts.proxy?.log ?? blockLog(opts);
  const check = (url: string, subresource: boolean) => verdictFor(async () => {
    const u = new URL(url);
    const v = await checkUrl(u, { ...opts, subresource });
    return /^(https?|wss?):$/.test(u.protocol) ? refusedAfter(opts, v, u.hostname, mappedPort(u.hostname, opts.resolve) ?? portOf(u)) : v;
  });

  await context.route(() => true, async (route) => {
    const req = route.request();
    // The page's CDP watch may have announced this request (effect-gate.ts announce): say it arrived if it will not be decided.
    const arrived = () => opts.effects?.arrived(opts.session, req.method(), req.url());
    // The reachability probe (remote-guard.ts) and what Chromium fetches after it (a favicon): ours, not the page's.
    if (opts.proxy && req.url() === opts.proxy.probeUrl) { arrived(); return route.fallback().catch(() => undefined); }
    if (req.url().startsWith(`http://${PROBE_HOST}/`)) { arrived(); return route.abort('blockedbyclient').catch(() => undefined); }
    const leak = await leakInRequest(opts.dlp, req, context);
    if (leak) {
      arrived();
      log.report(leaked(opts, req.url(), req.resourceType(), leak));
      return route.abort('blockedbyclient').catch(() => undefined);
    }
    const verdict = await check(req.url(), !req.isNavigationRequest());
    const facts = effectFacts(req);
    if (!verdict.ok) arrived();
    // A navigation whose redirect hops no CDP watch will see: fetch and check them one by one here
    // (robots.txt on each hop; consent if a 307/308 re-sends its body to another host).
    const hopsMatter = opts.effects && (opts.effects.checksRobots || (opts.effects.gatesRequests && isStateChanging(facts.method)));
    const walk = Boolean(opts.proxy && hopsMatter && verdict.ok && facts.topLevel && /^https?:/i.test(facts.url) && !navigationWatched(req));
    // The action that caused it waits for the whole walk (held before the first decision, so it never looks finished in between).
    const walked = walk ? opts.effects!.hold(opts.session) : () => undefined;
    const refusal = verdict.ok ? await opts.effects?.decide(opts.session, facts) : verdict;
    if (refusal) {
      walked();
      log.report(blocked(opts, req.url(), req.resourceType(), refusal));
      return route.abort('blockedbyclient').catch(() => undefined);
    }
    if (walk) {
      // route.fetch goes through the proxy as a tunnel, so the proxy does not ask about a re-sent body: this does.
      return walkRedirects(route, (hop) => letHopGo({ ...hop, topLevel: true, resource: 'document', pageUrl: facts.pageUrl, bodyApproved: hostOf(hop.from) === hostOf(hop.url) })).finally(walked);
    }
    // fallback(), not continue(): other handlers registered before the guard still run.
    // Over https the proxy sees only a tunnel (and the header would reach the site): plain http only.
    if (!opts.proxy || !opts.effects || !isStateChanging(req.method()) || !req.url().startsWith('http:')) return route.fallback().catch(() => undefined);
    // Tell the proxy this one was let through, so it does not ask twice.
    const headers = { ...(await req.allHeaders().catch(() => req.headers())), [EFFECT_PASS_HEADER]: opts.proxy.pass(req.url()) };
    return route.fallback({ headers }).catch(() => undefined);
  });

  /**
   * A redirect hop the route never sees. Of a top-level navigation: the network policy, robots.txt, and consent
   * for a body re-sent to another host. Of anything else: the proxy applies the network policy; only a body sent
   * somewhere new is asked about.
   */
  async function letHopGo(hop: { url: string; method: string; from?: string; topLevel: boolean; resource: string; pageUrl: string; bodyApproved: boolean }): Promise<boolean> {
    // A hop that puts a typed secret in the URL of another origin (https hops show the proxy only a tunnel).
    const leak = leakInMessage(opts.dlp, hop.url, hop.url);
    if (leak) { log.report(leaked(opts, hop.url, hop.resource, leak)); return false; }
    if (!hop.topLevel && (hop.bodyApproved || !isStateChanging(hop.method))) return true;
    const verdict = hop.topLevel ? await check(hop.url, false) : undefined;
    const refusal = verdict && !verdict.ok
      ? verdict
      : await opts.effects?.decide(opts.session, { method: hop.method, url: hop.url, resource: hop.resource, topLevel: hop.topLevel, pageUrl: hop.pageUrl, bodyApproved: hop.bodyApproved });
    if (!refusal) return true;
    log.report(blocked(opts, hop.url, hop.resource, { ...refusal, reason: hop.from ? `redirect from ${hop.from}: ${refusal.reason}` : refusal.reason }));
    return false;
  }
  // Pages' own hops, seen through CDP (redirect-hops.ts). Over plain http the proxy asks about a re-sent body itself.
  if (opts.effects?.active) {
    const effects = opts.effects;
    watchRedirectHops(context, (hop) => letHopGo({
      ...hop, pageUrl: hop.page.url(), bodyApproved: hostOf(hop.from) === hostOf(hop.url) || hop.url.startsWith('http:'),
    }), (req) => effects.announce(opts.session, req.method, req.url, req.topLevel));
  }

  await context.routeWebSocket(() => true, async (ws) => {
    const verdict = await check(ws.url(), true);
    const leak = verdict.ok ? leakInMessage(opts.dlp, ws.url(), ws.url()) : undefined;
    if (verdict.ok && !leak) {
      const server = ws.connectToServer();
      // Each message the page sends is looked at before it is passed on; one carrying a secret off its origins ends the socket.
      if (opts.dlp) guardMessages(ws, server, opts.dlp, (found) => log.report(leaked(opts, ws.url(), 'websocket', found)));
      return;
    }
    log.report(!verdict.ok ? blocked(opts, ws.url(), 'websocket', verdict) : leaked(opts, ws.url(), 'websocket', leak!));
    await ws.close({ code: 1008, reason: 'blocked by webcap' }).catch(() => undefined);
  });

  if (opts.proxy) {
    const proxy = opts.proxy;
    proxy.watch(context);
    context.on('close', () => void proxy.close());
  } else {
    // Without the proxy a redirect hop cannot be stopped; at least say so, so
    // the sidecar can refuse to return what the page loaded.
    context.on('request', (r) => {
      const from = r.redirectedFrom();
      if (!from) return;
      void check(r.url(), !r.isNavigationRequest()).then((v) => {
        if (!v.ok) log.report(blocked(opts, r.url(), r.resourceType(), { ...v, reason: `redirect from ${from.url()} (not stopped: no guard proxy): ${v.reason}` }));
      });
    });
  }
  return {
    lastBlocked: log.lastBlocked,
    clearBlocked: log.clearBlocked,
    expectNavigation(url) {
      const effects = opts.effects;
      if (!effects?.checksRobots) return;
      // The same check the route makes first: robots.txt is never asked for a URL the policy refuses.
      void check(url, false).then((v) => { if (v.ok) effects.expect(opts.session, url); });
    },
  };
}
