// Consent where the effect happens: in deny mode no state-changing request an
// action causes leaves the browser, whatever path the page's own code takes;
// in approve mode (or once the user says yes) the same requests go through.
// The fixture server counts what arrived: the assertion a user would make.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readEntries, verifyChain } from '../../host/chain/verify.js';
import { projectRoot } from '../../manifests/load.js';
import { SETTLE_MS } from '../../sidecar/guard/effect-rules.js';
import type { Asker } from '../../host/consent/asker.js';
import type { Host } from '../../host/host.js';
import { effectRoutes, type Arrival } from '../fixtures/effect-pages.js';
import { failure } from '../helpers/failure.js';
import { serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';

let site: FixtureServer;
const arrivals: Arrival[] = [];
const posted = (name: string) => arrivals.filter((a) => a.path === `/sink/${name}`);
const flags = new Set<string>();

beforeAll(async () => {
  site = await serve(effectRoutes(arrivals, flags));
});
afterAll(async () => {
  await site?.close();
});

const config = (consent: Record<string, unknown>) => testConfig({
  network: { resolve: { 'shop.test': '127.0.0.1' }, allow_private: ['127.0.0.1'] },
  consent,
});

const open = (host: Host, name: string) => host.call('web.open', { url: site.url('shop.test', `/p/${name}`) });

/** Each path: the calls after web.open, the last of which sets off the request. */
const paths: Array<[string, (h: Host) => Promise<unknown>]> = [
  ['button-onclick', (h) => h.call('web.click', { selector: '#go' })],
  ['div-requestsubmit', (h) => h.call('web.click', { selector: '#go' })],
  ['javascript-link', (h) => h.call('web.click', { selector: '#go' })],
  ['label-for', (h) => h.call('web.click', { selector: '#go' })],
  ['tab-enter', async (h) => { await h.call('web.click', { selector: '#outside' }); return h.call('web.keypress', { keys: ['Tab', 'Enter'] }); }],
  ['space-on-submit', (h) => h.call('web.keypress', { selector: '#go', keys: ['Space'] })],
  ['space-typed', (h) => h.call('web.type', { selector: '#go', text: ' ' })],
  ['select-onchange', (h) => h.call('web.select', { selector: '#go', value: 'b' })],
  ['select-onchange-timer', (h) => h.call('web.select', { selector: '#go', value: 'b' })],
  ['fill-oninput', (h) => h.call('web.fill', { selector: '#go', text: 'hello' })],
  ['hover-onmouseover', (h) => h.call('web.hover', { selector: '#go' })],
  ['spa-login', (h) => h.call('web.click', { selector: '#go' })],
  ['beacon', (h) => h.call('web.click', { selector: '#go' })],
  ['xhr-delete', (h) => h.call('web.click', { selector: '#go' })],
  ['frame-post', (h) => h.call('web.click', { selector: '#go' })],
];
// "space-typed" types into the same page as "space-on-submit".
const pageOf = (name: string) => (name === 'space-typed' ? 'space-on-submit' : name);
const sinkOf = (name: string) => pageOf(name);

describe('deny mode ([consent] non_interactive = "deny", no --yes)', () => {
  let host: Host;
  let cfg: ReturnType<typeof config>;
  beforeAll(() => { cfg = config({ non_interactive: 'deny' }); host = testHost(cfg); });
  afterAll(async () => { await host?.close(); });

  for (const [name, act] of paths) {
    it(`refuses ${name} with consent_denied and the server receives nothing`, async () => {
      await open(host, pageOf(name));
      if (name === 'beacon') {
        // A beacon leaves after the click returns; on a loaded machine it can reach the guard after the
        // call's short grace (effect-rules.ts INPUT_GRACE_MS). It is refused all the same: then the
        // refusal is in the chain (network_blocked, consent_denied) instead of failing the click.
        const outcome = await act(host).then(() => 'answered', (err: { code?: string }) => err.code);
        if (outcome === 'answered') {
          await host.call('web.status', {}); // the next call writes the refusal of the last one
          const blocked = readEntries(cfg.chain.path).filter((x) => x.kind === 'network_blocked' && JSON.stringify(x.result).includes('consent_denied'));
          expect(blocked.length).toBeGreaterThan(0);
        } else expect(outcome).toBe('consent_denied');
      } else {
        const e = await failure(act(host));
        expect(e.code).toBe('consent_denied');
      }
      await sleep(200);      // anything that slipped out would have arrived by now
      expect(posted(sinkOf(name))).toEqual([]);
      await host.call('web.close', {});
    });
  }

  it('records the question and the "no" in the chain, and the chain verifies', async () => {
    const entries = readEntries(cfg.chain.path);
    const denied = entries.filter((e) => e.kind === 'consent' && e.decision?.decision === 'denied' && String(e.decision?.reason).startsWith('state_changing_request'));
    expect(denied.length).toBeGreaterThanOrEqual(5);
    expect(verifyChain(cfg.chain.path).ok).toBe(true);
  });
});

describe('approve mode ([consent] non_interactive = "approve")', () => {
  let host: Host;
  let cfg: ReturnType<typeof config>;
  beforeAll(() => { cfg = config({ non_interactive: 'approve' }); host = testHost(cfg); });
  afterAll(async () => { await host?.close(); });

  for (const [name, act] of paths) {
    it(`lets ${name} through`, async () => {
      const before = posted(sinkOf(name)).length;
      await open(host, pageOf(name));
      // The action may trip over its own page leaving (web.fill reads the value back): what matters is what was sent.
      await act(host).catch((e: { code?: string }) => expect(e.code).not.toBe('consent_denied'));
      await expect.poll(() => posted(sinkOf(name)).length, { timeout: 30_000 }).toBe(before + 1);
      await host.call('web.close', {});
    });
  }

  it('refuses a POST the page sends on its own timer outside any action, and reports it', async () => {
    const mark = readEntries(cfg.chain.path).length;
    await open(host, 'timer-post');
    // Past the open's settle window, with no action running: whatever the load, the POST is the page's own.
    await sleep(SETTLE_MS + 500);
    flags.add('timer-post');
    await expect.poll(() => arrivals.filter((a) => a.path === '/flag/timer-post-done').length, { timeout: 30_000 }).toBe(1);
    expect(posted('timer-post')).toEqual([]);
    await host.call('web.close', {}); // the refusal is written to the chain after this call at the latest
    const blocked = readEntries(cfg.chain.path).slice(mark).filter((e) => e.kind === 'network_blocked');
    expect(JSON.stringify(blocked)).toContain('consent_denied');
  });
});

describe('a user who says yes', () => {
  // One host for the tests whose answers come from a person (the asker each test sets):
  // deny mode otherwise, other.test resolvable, the https fixture's certificate accepted.
  // approval_ttl_s = 0, so no test's "yes" answers another test's question; each test
  // closes its session and reads only the chain entries it wrote.
  let asking: Host;
  let askingConfig: ReturnType<typeof config>;
  let answer: Asker = async () => false;
  beforeAll(() => {
    askingConfig = config({ non_interactive: 'deny', approval_ttl_s: 0 });
    askingConfig.network.resolve = { 'shop.test': '127.0.0.1', 'other.test': '127.0.0.1' };
    (askingConfig.capabilities.browser as Record<string, unknown>).ignore_https_errors = true;
    asking = testHost(askingConfig, { ask: (q) => answer(q) });
  });
  afterEach(async () => {
    answer = async () => false;
    await asking.call('web.close', {}).catch(() => undefined);
  });
  afterAll(async () => { await asking?.close(); });

  it('asks the user about a request the call did not show (a <label for> of a submit button) and sends it on yes', async () => {
    const questions: Array<{ reason: string; question: string }> = [];
    answer = async (q) => { questions.push({ reason: q.reason, question: q.question }); return true; };
    const host = asking;
    const before = posted('label-for').length;
    await open(host, 'label-for');
    await host.call('web.click', { selector: '#go' });
    await expect.poll(() => posted('label-for').length, { timeout: 30_000 }).toBe(before + 1);
    const asked = questions.find((q) => q.reason === 'state_changing_request');
    expect(asked?.question).toMatch(/web\.click to make the page send POST "http:\/\/shop\.test:\d+\/sink\/label-for" \(document\)/);
  });

  it('asks again when a 307 re-sends an approved POST to another host, and a "no" stops it there', async () => {
    const asked: string[] = [];
    const host = asking;
    const mark = readEntries(askingConfig.chain.path).length;
    // Yes for shop.test, no for anywhere else.
    answer = async (q) => { asked.push(`${q.origin} ${q.selector}`); return !String(q.origin).includes('other.test'); };
    await open(host, 'hop307');
    // The hop comes after the first POST's answer, often after the click has answered: then its refusal
    // is reported in the chain rather than as the click's error. Either way it must not arrive.
    await host.call('web.click', { selector: '#go' }).catch((e: { code?: string }) => expect(e.code).toBe('consent_denied'));
    await expect.poll(() => asked.length, { timeout: 30_000 }).toBe(2);
    await sleep(300);
    expect(arrivals.filter((a) => a.path === '/hop307')).toHaveLength(1);   // the approved one arrived…
    expect(posted('hop307')).toEqual([]);                                     // …the re-sent one did not
    expect(asked).toEqual([`http://shop.test:${site.port} POST /hop307`, `http://other.test:${site.port} POST /sink/hop307`]);
    await host.call('web.close', {});
    const denied = readEntries(askingConfig.chain.path).slice(mark).filter((e) => e.kind === 'consent' && e.decision?.decision === 'denied');
    expect(JSON.stringify(denied)).toContain('other.test');
  });

  // Inside an https tunnel the guard proxy sees only the host: the hop is stopped in the browser (redirect-hops.ts).
  for (const [what, page] of [['a fetch', 'hop307'], ['a form navigation', 'form307']]) {
    it(`asks again when a 307 re-sends ${what}'s approved POST to another host over https`, async () => {
      const tls = join(projectRoot(), 'demo-sites', 'tls');
      const secure = await serve(effectRoutes(arrivals), '127.0.0.1', { key: readFileSync(join(tls, 'demo-key.pem')), cert: readFileSync(join(tls, 'demo-cert.pem')) });
      const asked: string[] = [];
      const host = asking;
      answer = async (q) => { asked.push(String(q.origin)); return !String(q.origin).includes('other.test'); };
      const before = arrivals.filter((a) => a.path === '/hop307').length;
      try {
        await host.call('web.open', { url: secure.url('shop.test', `/p/${page}`) });
        await host.call('web.click', { selector: '#go' }).catch((e: { code?: string }) => expect(e.code).toBe('consent_denied'));
        await expect.poll(() => asked.some((o) => o.includes('other.test')), { timeout: 30_000 }).toBe(true);
        await sleep(300);
        expect(arrivals.filter((a) => a.path === '/hop307').length - before).toBe(1); // the approved one arrived…
        expect(posted('hop307')).toEqual([]);                                          // …the re-sent one did not
      } finally {
        await secure.close();
      }
    });
  }

  it('with --yes (yes: true) the same requests go through', async () => {
    const host = testHost(config({ non_interactive: 'deny' }), { yes: true });
    try {
      const before = posted('spa-login').length;
      await open(host, 'spa-login');
      await host.call('web.click', { selector: '#go' });
      await expect.poll(() => posted('spa-login').length, { timeout: 30_000 }).toBe(before + 1);
    } finally {
      await host.close();
    }
  });
});

describe('the request-level gate switched off', () => {
  it('[consent] gate_requests = false turns the request-level gate off', async () => {
    const host = testHost(config({ non_interactive: 'deny', gate_requests: false }));
    try {
      const before = posted('label-for').length;
      await open(host, 'label-for');
      await host.call('web.click', { selector: '#go' });
      await expect.poll(() => posted('label-for').length, { timeout: 30_000 }).toBe(before + 1);
    } finally {
      await host.close();
    }
  });
});
