// The console as a person uses it: a real browser (Playwright) opens the URL
// the host printed, reads the pending question and presses Approve or Deny.
// The fixture server counts what arrived: approve → the POST once, deny → 0.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type Browser, type Page } from 'playwright';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readEntries, verifyChain } from '../../host/chain/verify.js';
import type { Host } from '../../host/host.js';
import { projectRoot } from '../../manifests/load.js';
import { effectRoutes, type Arrival } from '../fixtures/effect-pages.js';
import { failure } from '../helpers/failure.js';
import { serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';

let site: FixtureServer;
let person: Browser;
const arrivals: Arrival[] = [];
const posted = (name: string) => arrivals.filter((a) => a.path === `/sink/${name}`);

beforeAll(async () => {
  site = await serve(effectRoutes(arrivals));
  person = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
});
afterAll(async () => {
  await person?.close();
  await site?.close();
});

// Nobody can be asked on a terminal or a form ([consent] non_interactive = "deny", no TTY): only the console can reach a person.
const config = () => testConfig({ network: { resolve: { 'shop.test': '127.0.0.1' }, allow_private: ['127.0.0.1'] }, consent: { non_interactive: 'deny' }, browser: { default_timeout_ms: 20000 } });

async function denyAll(url: string): Promise<void> {
  const state = await (await fetch(url.replace('/?', '/state?'))).json() as { questions: Array<{ id: string }> };
  for (const q of state.questions) {
    await fetch(url.replace('/?', '/answer?'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: q.id, decision: 'deny' }) });
  }
}

async function consolePage(url: string): Promise<Page> {
  const page = await person.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(url);
  return page;
}

describe('approving and denying from the console', () => {
  let host: Host;
  let cfg: ReturnType<typeof config>;
  let url: string;
  beforeAll(async () => { cfg = config(); host = testHost(cfg); url = (await host.console()).url; });
  afterAll(async () => { await host?.close(); });
  // A failed test must not leave its question blocking the next one's.
  afterEach(async () => { await denyAll(url); });

  it('Approve: the question shows the page and what would leave; the server receives the POST once', async () => {
    await host.call('web.open', { url: site.url('shop.test', '/p/space-on-submit') });
    const page = await consolePage(url);
    const click = host.call('web.click', { selector: '#go' });
    const question = page.getByRole('region', { name: /Allow web\.click to submit a form/ });
    await question.waitFor();
    const picture = question.getByRole('img');
    await picture.waitFor();
    expect(await picture.getAttribute('alt')).toMatch(/^Page "fixture" .*at the moment of asking, button go "Send" outlined/);
    const text = await question.textContent();
    expect(text).toContain('/sink/space-on-submit');
    expect(text).toMatch(/MethodPOST/);
    expect(text).toMatch(/Fieldsx/);
    expect(text).toMatch(/Asked by\s*library/);
    mkdirSync(join(projectRoot(), 'docs'), { recursive: true });
    await page.screenshot({ path: join(projectRoot(), 'docs', 'console.png') });
    await question.getByRole('button', { name: 'Approve', exact: true }).click();
    await click;
    await sleep(200);
    expect(posted('space-on-submit')).toHaveLength(1);
    await question.waitFor({ state: 'detached' });
    const consent = readEntries(cfg.chain.path).filter((e) => e.kind === 'consent').at(-1)!;
    expect(consent.decision).toMatchObject({ decision: 'approved', details: { channel: 'console' } });
    await page.close();
  });

  it('Deny: consent_denied and the server receives nothing', async () => {
    await host.call('web.open', { url: site.url('shop.test', '/p/xhr-delete') });
    const page = await consolePage(url);
    const click = failure(host.call('web.click', { selector: '#go' }));
    const question = page.getByRole('region', { name: /Allow web\.click/ });
    await question.getByRole('button', { name: 'Deny', exact: true }).click();
    expect((await click).code).toBe('consent_denied');
    await sleep(200);
    expect(posted('xhr-delete')).toEqual([]);
    expect(verifyChain(cfg.chain.path).ok).toBe(true);
    await page.close();
  });
});
