// [capabilities.browser] provider = "playwright-mcp": the reference booking plan,
// verbatim, through the real @playwright/mcp server (spawned over stdio,
// driving the project's Chromium) against the bundled booking-like site on
// loopback. The host keeps its policies; the chain names the provider.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { readEntries } from '../../host/chain/verify.js';
import { placesFor } from '../../demo-sites/data.js';
import { startDemoSites, type DemoSites } from '../../demo-sites/serve.js';
import { projectRoot } from '../../manifests/load.js';
import { findChromium } from '../../sidecar/browser/find-chromium.js';
import { failure } from '../helpers/failure.js';
import { testConfig, testHost } from '../helpers/host.js';

let sites: DemoSites;
let host: Host;
let config: ReturnType<typeof testConfig> & { playwright_mcp?: unknown };
const questions: string[] = [];
type Place = { name: string; rating: string; address: string; link: string };

beforeAll(async () => {
  sites = await startDemoSites();
  const chromium = await findChromium();
  if (!chromium) throw new Error('no Chromium found');
  const base = testConfig({
    browser: { domains_allowlist: ['*.thefork.com', '*.demo.test'], ignore_https_errors: true, respect_robots: true, provider: 'playwright-mcp' },
    network: { resolve: sites.resolve },
  });
  config = {
    ...base,
    playwright_mcp: {
      command: [process.execPath, join(projectRoot(), 'node_modules/@playwright/mcp/cli.js'), '--headless', '--isolated', '--executable-path', chromium.path,
        ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), '--allowed-origins', 'https://www.thefork.com'],
    },
  };
  host = testHost(config as ReturnType<typeof testConfig>, { ask: async (q) => { questions.push(q.question ?? q.reason); return { approved: true }; } });
});
afterAll(async () => {
  await host?.close();
  await sites?.close();
});

describe('the playwright-mcp provider', () => {
  it('runs the reference booking plan verbatim: consent through the profile, search, extract the first page of restaurants', async () => {
    const source = readFileSync(join('examples', 'seed-8.2-thefork.rtfs'), 'utf8');
    const value = await host.runPlan(source) as { items: Place[] };
    const expected = placesFor('Paris', 8);
    expect(value.items.map((p) => p.name)).toEqual(expected.map((p) => p.name));
    expect(value.items[3]).toEqual({ name: expected[3].name, rating: expected[3].rating, address: expected[3].address, link: `https://www.thefork.com/restaurant/${expected[3].id}` });
    expect(questions).toContain('Use TheFork to search restaurants in Paris?');
    // The host still did its part: robots.txt was asked before the page was opened.
    expect(sites.hits).toContain('www.thefork.com/robots.txt');
    const entries = readEntries(config.chain.path);
    const browserCalls = entries.filter((e) => e.kind === 'call' && e.capability?.startsWith('web.'));
    expect(browserCalls.map((e) => e.capability)).toEqual(['web.open', 'web.consent.handle', 'web.wait', 'web.fill', 'web.click', 'web.wait', 'web.extract', 'web.close']);
    for (const e of browserCalls) expect(e.via).toEqual({ provider: 'playwright-mcp' });
    // The server ran in the workspace with the config webcap wrote for it (resolve rules, viewport, HTTPS errors).
    const written = JSON.parse(readFileSync(join(config.workspace.path, 'playwright-mcp', 'config.json'), 'utf8'));
    expect(written.browser.launchOptions.args[0]).toContain('MAP www.thefork.com 127.0.0.1:');
    const consent = browserCalls[1];
    expect(consent.result).toMatchObject({ accepted: false, details: { cmp: 'profile:thefork', button: expect.stringContaining('didomi') } });
  });

  it('keeps the host policies in front: a host off the allowlist never reaches the provider', async () => {
    const e = await failure(host.call('web.open', { url: 'https://www.example.com/' }));
    expect(e.code).toBe('not_allowlisted');
  });

  it('refuses what it cannot serve with capability_disabled naming the provider', async () => {
    await host.call('web.open', { url: 'https://www.thefork.com/' });
    const e = await failure(host.call('web.query_elements', { query: 'search' }));
    expect(e.code).toBe('capability_disabled');
    expect(e.message).toContain('playwright-mcp');
    // It finds elements by CSS in the page: a named selector leading a Playwright chain is refused, saying so.
    const chained = await failure(host.call('web.wait', { selector: '@search_box >> nth=0', timeout: 2000 }));
    expect(chained.code).toBe('invalid_params');
    expect(chained.message).toContain('not a chain');
    const shot = await host.call('web.screenshot', {}) as { path: string; width: number; format: string };
    expect(shot.format).toBe('png');
    expect(shot.width).toBe(1280);
    expect(readFileSync(shot.path).subarray(1, 4).toString()).toBe('PNG');
    await host.call('web.close', {});
  });
});
