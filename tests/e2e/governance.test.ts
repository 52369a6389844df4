// Governance end to end through the library: the host refuses what it can
// see, the sidecar's guard refuses what the page does, and every decision
// lands in the chain without secrets. All traffic stays on loopback.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebcapError } from '../../manifests/errors.js';
import { verifyChain, readEntries } from '../../host/chain/verify.js';
import { serve, send, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';
import { governedRoutes } from '../fixtures/governed-site.js';
import { failure } from '../helpers/failure.js';
import type { Asker } from '../../host/consent/asker.js';
import type { Host } from '../../host/host.js';

let site: FixtureServer;
let robots: FixtureServer[] = [];
const resolve = () => ({
  'ok.test': '127.0.0.1', 'foreign.test': '127.0.0.1', 'inside.test': '127.0.0.2',
  'missing.test': '127.0.0.1', 'broken.test': '127.0.0.1', 'rules.test': '127.0.0.1',
});

// One host (one sidecar, one Chromium) for the tests whose config is the base one: each
// test sets the answer its consent questions get and reads only the chain entries it
// wrote. Nothing is remembered between them (approval_ttl_s = 0), and there are slots
// for every session they leave open.
let shared: Host;
let sharedConfig: ReturnType<typeof baseConfig>;
let answer: Asker = async () => true;
const entriesSince = (mark: number) => readEntries(sharedConfig.chain.path).slice(mark);
const chainMark = () => readEntries(sharedConfig.chain.path).length;

beforeAll(async () => {
  site = await serve(governedRoutes(() => site.port));
  sharedConfig = baseConfig({ browser: { max_concurrent_sessions: 10 }, consent: { approval_ttl_s: 0 } });
  shared = testHost(sharedConfig, { ask: (q) => answer(q) });
});
afterAll(async () => {
  await shared?.close();
  await site?.close();
  await Promise.all(robots.map((r) => r.close()));
});


const baseConfig = (extra: Parameters<typeof testConfig>[0] = {}) => testConfig({
  ...extra,
  // 127.0.0.2 and inside.test (→ 127.0.0.2) are allowlisted so that the SSRF guard is what stops them.
  browser: { domains_allowlist: ['ok.test', 'inside.test', '127.0.0.2'], ...extra.browser },
  network: { resolve: resolve(), allow_private: ['127.0.0.1'], ...extra.network },
});

describe('host-side checks', () => {
  it('refuses a host off the allowlist, a file: URL and a name that resolves outside allow_private', async () => {
    const host = testHost(baseConfig());
    try {
      const na = await failure(host.call('web.open', { url: site.url('foreign.test', '/') }));
      expect([na.code, na.details.host]).toEqual(['not_allowlisted', 'foreign.test']);
      const scheme = await failure(host.call('web.open', { url: 'file:///etc/passwd' }));
      expect(scheme.code).toBe('unsupported_scheme');
      const ssrf = await failure(host.call('web.open', { url: site.url('inside.test', '/') }));
      expect(ssrf.code).toBe('ssrf_blocked');
      expect(ssrf.message).toContain('127.0.0.2');
    } finally {
      await host.close();
    }
  });
});

describe('the sidecar guard', () => {
  it('blocks a redirect to a host off the allowlist and to a loopback address outside allow_private', async () => {
    const host = shared;
    const mark = chainMark();
    const off = await failure(host.call('web.open', { url: site.url('ok.test', '/to-foreign') }));
    expect(off.code).toBe('not_allowlisted');
    const priv = await failure(host.call('web.open', { url: site.url('ok.test', '/to-private') }));
    expect(priv.code).toBe('ssrf_blocked');
    const named = await failure(host.call('web.open', { url: site.url('ok.test', '/to-inside') }));
    expect([named.code, named.message]).toEqual(['ssrf_blocked', expect.stringContaining('127.0.0.2')]);
    expect(site.hits.some((h) => h.startsWith('foreign.test') || h.startsWith('127.0.0.2'))).toBe(false);
    const blocked = entriesSince(mark).filter((e) => e.kind === 'network_blocked');
    expect(JSON.stringify(blocked)).toContain('foreign.test');
  });

  it('aborts an image and a fetch() to a foreign host and summarises them in the chain', async () => {
    const host = shared;
    const mark = chainMark();
    await host.call('web.open', { url: site.url('ok.test', '/subresources') });
    await host.call('web.wait', { selector: 'body[data-fetch]', state: 'attached' });
    const r = await host.call('web.extract', { selector: 'body', schema: { fetch: 'body[data-fetch]' } });
    expect(r.items).toEqual([{ fetch: expect.anything() }]);
    const state = await host.call('web.extract', { selector: 'body[data-fetch="fetch-failed"]' });
    expect(state.count).toBe(1);
    await host.call('web.close', {}); // what the page had refused is written to the chain after this call
    expect(site.hits.some((h) => h.startsWith('foreign.test'))).toBe(false);
    const blocked = entriesSince(mark).filter((e) => e.kind === 'network_blocked');
    const text = JSON.stringify(blocked);
    expect(text).toContain('pixel.png');
    expect(text).toContain('/api');
  });
});

describe('robots.txt', () => {
  async function robotsHost(status: number, body = '') {
    const server = await serve({
      '/robots.txt': (_req, res) => send(res, body, status, 'text/plain'),
      '*': (_req, res) => send(res, '<!doctype html><title>page</title><h1>page</h1>'),
    });
    robots.push(server);
    return server;
  }

  it('allows all on a 404 robots.txt, disallows all on a 500, and applies Disallow/Allow', async () => {
    const missing = await robotsHost(404);
    const broken = await robotsHost(500);
    const rules = await robotsHost(200, 'User-agent: *\nDisallow: /private\nAllow: /private/ok\n');
    const host = testHost(baseConfig({ browser: { respect_robots: true, domains_allowlist: ['*.test'] } }));
    try {
      expect((await host.call('web.open', { url: missing.url('missing.test', '/any') })).status).toBe(200);
      const down = await failure(host.call('web.open', { url: broken.url('broken.test', '/any') }));
      expect(down.code).toBe('robots_disallowed');
      const denied = await failure(host.call('web.open', { url: rules.url('rules.test', '/private/x') }));
      expect(denied.code).toBe('robots_disallowed');
      expect(denied.message).toContain('Disallow: /private');
      expect((await host.call('web.open', { url: rules.url('rules.test', '/private/ok') })).status).toBe(200);
      expect((await host.call('web.open', { url: rules.url('rules.test', '/public') })).status).toBe(200);
    } finally {
      await host.close();
    }
  }, 90_000);
});

describe('budgets', () => {
  it('refuses the 61st action in a minute with retry_after_ms', async () => {
    const host = testHost(baseConfig({ browser: { max_actions_per_minute: 60 } }));
    try {
      await host.call('web.open', { url: site.url('ok.test', '/') });
      for (let i = 0; i < 59; i++) await host.call('web.extract', { selector: 'h1' });
      const over = await failure(host.call('web.extract', { selector: 'h1' }));
      expect(over.code).toBe('budget_exceeded');
      expect(over.details.retry_after_ms as number).toBeGreaterThan(0);
    } finally {
      await host.close();
    }
  });
});

describe('consent and redaction', () => {
  it('never writes a typed password to the chain or the log', async () => {
    const config = sharedConfig;
    const host = shared;
    const mark = chainMark();
    const questions: string[] = [];
    answer = async (q) => { questions.push(q.question); return true; };
    const plan = `(do
      (call :web.open {:url "${site.url('ok.test', '/login')}"})
      (call :web.fill {:selector "#user" :text "ada"})
      (call :web.fill {:selector "#pw" :text "hunter2-SECRET"})
      (call :web.click {:selector "#go" :wait_until "load"})
      (call :web.wait {:selector "#echo"})
      (call :web.extract {:selector "#echo"}))`;
    const result = await host.runPlan(plan) as { items: Array<{ text: string }> };
    expect(result.items[0].text).toContain('hunter2-SECRET'); // the caller gets the page as it is
    expect(questions.some((q) => q.includes('password'))).toBe(true);
    expect(questions.some((q) => q.includes('web.click'))).toBe(true);
    // The password's own entries are this test's; the whole chain and log must not hold it either.
    expect(JSON.stringify(entriesSince(mark))).toContain('[REDACTED]');
    const chain = readFileSync(config.chain.path, 'utf8');
    const log = readFileSync(config.logging.file, 'utf8');
    expect(chain).not.toContain('hunter2-SECRET');
    expect(log).not.toContain('hunter2-SECRET');
    expect(verifyChain(config.chain.path).ok).toBe(true);
  });

  it('refuses with consent_denied when the user says no, and records it', async () => {
    const host = shared;
    const mark = chainMark();
    answer = async () => false;
    await host.call('web.open', { url: site.url('ok.test', '/') });
    const e = await failure(host.call('web.cookies.set', { cookies: [{ name: 'a', value: 'b', url: site.url('ok.test', '/') }] }));
    expect(e.code).toBe('consent_denied');
    const no = await failure(host.call('ccos.user.ask', { question: 'Go on?' }));
    expect(no.code).toBe('consent_denied');
    const entries = entriesSince(mark);
    expect(entries.filter((e) => e.kind === 'consent' && e.decision?.decision === 'denied').length).toBeGreaterThanOrEqual(2);
    expect(entries.find((e) => e.capability === 'web.cookies.set' && e.kind === 'call')?.error?.code).toBe('consent_denied');
  });

  it('denies by default without a TTY or asker ([consent] non_interactive = "deny")', async () => {
    const host = testHost(baseConfig({ consent: { non_interactive: 'deny' } }));
    try {
      const e = await failure(host.call('ccos.user.ask', { question: 'Proceed?' }));
      expect(e.code).toBe('consent_denied');
    } finally {
      await host.close();
    }
  });
});
