// Plans through the host: each run has a plan_id in the chain, and the
// sessions it opened are closed when it ends — on success and on every kind of
// failure, which also names line:column and a code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEntries } from '../../host/chain/verify.js';
import type { Host } from '../../host/host.js';
import { WebcapError } from '../../manifests/errors.js';
import { failure } from '../helpers/failure.js';
import { serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';
import { shopRoutes } from '../fixtures/shop-site.js';

let site: FixtureServer;
let host: Host;
let config: ReturnType<typeof testConfig>;

beforeAll(async () => {
  site = await serve(shopRoutes);
  config = testConfig({ network: { resolve: { 'shop.test': '127.0.0.1' } } });
  host = testHost(config);
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

const planError = (source: string): Promise<WebcapError> => failure(host.runPlan(source));

const open = () => `(call :web.open {:url "${site.url('shop.test', '/list')}"})`;

async function noSessionLeft() {
  const e = await host.call('web.extract', { selector: 'h1' }).catch((err: WebcapError) => err);
  expect((e as WebcapError).code).toBe('session_not_found');
}

describe('plans', () => {
  it('returns the value and closes the session it opened, with one plan_id in the chain', async () => {
    const value = await host.runPlan(`(do ${open()}
      (let [r (call :web.extract {:selector ".item .name" :limit 2})]
        (return (map (fn [i] (get i :text)) (get r :items)))))`);
    expect(value).toEqual(['Item 1', 'Item 2']);
    await noSessionLeft();
    const entries = readEntries(config.chain.path).filter((e) => e.plan_id && e.kind === 'call');
    const ids = new Set(entries.map((e) => e.plan_id));
    expect(ids.size).toBe(1);
    expect(entries.map((e) => e.capability)).toEqual(['web.open', 'web.extract', 'web.close']);
  });

  it.each([
    ['unbalanced parens', () => `(do\n  ${open()}\n  (call :web.extract {:selector "h1"}`, 'invalid_params', /plan:3:3: unclosed/],
    ['an unknown symbol', () => `(do ${open()}\n  (frobnicate 1))`, 'invalid_params', /plan:2:4: .*frobnicate/],
    ['wrong arity', () => `(do ${open()}\n  (count 1 2))`, 'invalid_params', /plan:2:3: count/],
    ['an unknown capability', () => `(do ${open()}\n  (call :web.teleport {}))`, 'unknown_capability', /plan:2:3/],
    ['a failing step', () => `(do ${open()}\n  (call :web.wait {:selector "#never" :timeout 300}))`, 'selector_not_found', /plan:2:3/],
  ])('fails on %s with line:column and a code, leaving no session open', async (_name, source, code, where) => {
    const e = await planError(source());
    expect(e.code).toBe(code);
    expect(e.message).toMatch(where);
    await noSessionLeft();
  });
});
