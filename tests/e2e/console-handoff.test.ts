// Taking over and handing back, as a person does it: a real browser opens the
// console, clicks into the handed-off session's live view, types into the
// fixture page's field and submits it, then presses Done. The fixture server
// receives what was typed; the chain records the hand-off (start, end, origins,
// keys typed) and never the text.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type Browser, type Locator, type Page } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEntries } from '../../host/chain/verify.js';
import type { Host } from '../../host/host.js';
import { failure } from '../helpers/failure.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';
import { findChromium } from '../../sidecar/browser/find-chromium.js';

const TYPED = 'Ada Lovelace 1815';
let site: FixtureServer;
let person: Browser;
const received: Array<{ path: string; body: string }> = [];

// The field sits at a known place in the 1280x800 viewport, so the person can click it in the live view.
const FIELD = { x: 300, y: 120 };
const fieldPage = (action: string, extra = '') => html(`<form method="post" action="${action}"><input id="name" name="name" aria-label="name" ${extra} style="position:absolute;left:100px;top:100px;width:400px;height:40px;font-size:20px"><button type="submit" style="position:absolute;left:100px;top:200px">Send</button></form>`);

beforeAll(async () => {
  site = await serve({
    '/field': (_q, res) => send(res, fieldPage('/sink/field')),
    '/captcha': (_q, res) => send(res, html('<h1>Check</h1><div class="g-recaptcha" style="width:300px;height:80px;border:1px solid #999">I am not a robot</div>')),
    '/two-factor': (_q, res) => send(res, fieldPage('/sink/code', 'autocomplete="one-time-code"')),
    '*': (req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => { body += c; });
      req.on('end', () => { received.push({ path: (req.url ?? '').split('?')[0], body }); send(res, html('<h1>Thanks</h1>', '<title>thanks</title>')); });
    },
  });
  person = await chromium.launch({ executablePath: (await findChromium())!.path, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
});
afterAll(async () => {
  await person?.close();
  await site?.close();
});

const config = (onCaptcha: 'fail' | 'ask' = 'fail') => ({
  ...testConfig({ network: { resolve: { 'shop.test': '127.0.0.1' }, allow_private: ['127.0.0.1'] }, consent: { non_interactive: 'deny', timeout_s: 600 } }),
  handoff: { on_captcha: onCaptcha },
});

async function consolePage(url: string): Promise<Page> {
  const page = await person.newPage({ viewport: { width: 1280, height: 1000 } });
  await page.goto(url);
  return page;
}

/** The session's live view once a whole frame shows. */
async function liveViewOf(page: Page, session: string): Promise<Locator> {
  const live = page.getByRole('listitem', { name: `Session ${session}` }).getByRole('application', { name: /^Live view of / });
  await expect.poll(() => live.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 30_000 }).toBeGreaterThan(100);
  return live;
}

/** Clicks the live view where page pixel (x, y) is shown. */
async function clickAt(live: Locator, x: number, y: number): Promise<void> {
  const box = (await live.locator('img').boundingBox())!;
  await live.locator('img').click({ position: { x: (x / 1280) * box.width, y: (y / 800) * box.height } });
}

const chainText = (path: string) => readFileSync(path, 'utf8');
const events = (path: string, name: string) => readEntries(path).filter((e) => e.kind === 'event' && (e.result as { event?: string })?.event === name);

describe('web.handoff: the person drives, then hands back', () => {
  let host: Host;
  let cfg: ReturnType<typeof config>;
  let url: string;
  beforeAll(async () => { cfg = config(); host = testHost(cfg); url = (await host.console()).url; });
  afterAll(async () => { await host?.close(); });

  it('the person types into the page through the console and submits; Done returns; the chain holds no typed text', async () => {
    const opened = await host.call('web.open', { url: site.url('shop.test', '/field') });
    const handoff = host.call('web.handoff', { reason: 'Please enter your name and send the form' });
    const page = await consolePage(url);
    const region = page.getByRole('region', { name: 'Hand-off: Please enter your name and send the form' });
    await region.waitFor();
    // Meanwhile the agent's other calls on the session wait, and say why when they give up.
    const waited = await failure(host.call('web.url', { timeout: 1000 }));
    expect(waited.code).toBe('timeout');
    expect(waited.message).toMatch(/the person is driving session s1 in the console/);

    const live = await liveViewOf(page, String(opened.session));
    await clickAt(live, FIELD.x, FIELD.y);
    await page.keyboard.type(TYPED);
    await page.keyboard.press('Enter');
    await expect.poll(() => received.filter((r) => r.path === '/sink/field').length, { timeout: 30_000 }).toBe(1);
    await region.getByRole('button', { name: 'Done', exact: true }).click();
    const result = await handoff;
    expect(result).toMatchObject({ handed_back: true, url: site.url('shop.test', '/sink/field'), title: 'Thanks' });
    expect(received.find((r) => r.path === '/sink/field')!.body).toBe(`name=${encodeURIComponent(TYPED).replace(/%20/g, '+')}`);

    // The chain: start, end with origins and the number of keys, the person's submit as theirs; the text nowhere.
    const text = chainText(cfg.chain.path);
    for (const piece of ['Ada', 'Lovelace', '1815']) expect(text).not.toContain(piece);
    expect(events(cfg.chain.path, 'handoff_start')).toHaveLength(1);
    const end = events(cfg.chain.path, 'handoff_end')[0].result as Record<string, unknown>;
    expect(end).toMatchObject({ outcome: 'handed_back', keys_typed: TYPED.length + 1, origins_visited: [new URL(site.url('shop.test')).origin] });
    expect(events(cfg.chain.path, 'person_submit').map((e) => e.result)).toEqual([{ event: 'person_submit', method: 'POST', origin: new URL(site.url('shop.test')).origin, path: '/sink/field' }]);
    expect(readEntries(cfg.chain.path).filter((e) => e.kind === 'consent')).toEqual([]);
    // Nobody drives it now: the agent's calls go through again.
    expect((await host.call('web.url', {})).url).toBe(site.url('shop.test', '/sink/field'));
    await page.close();
  });

  it('input reaches only an open hand-off: a forged or finished one changes nothing', async () => {
    await host.call('web.open', { url: site.url('shop.test', '/field') });
    const before = received.length;
    const token = new URL(url).searchParams.get('token')!;
    const origin = new URL(url).origin;
    const post = (path: string, body: unknown, withToken = true) => fetch(`${origin}${path}${withToken ? `?token=${token}` : ''}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const typing = [{ type: 'down', x: FIELD.x, y: FIELD.y }, { type: 'up', x: FIELD.x, y: FIELD.y }, { type: 'text', text: 'forged' }, { type: 'key', key: 'Enter' }];
    expect((await post('/input', { handoff: 'f'.repeat(32), events: typing })).status).toBe(409);
    const handoff = host.call('web.handoff', { reason: 'look' });
    let id = '';
    while (!id) { await sleep(100); id = ((await (await fetch(`${origin}/state?token=${token}`)).json()) as { sessions: Array<{ handoff?: { id: string } }> }).sessions.find((s) => s.handoff)?.handoff?.id ?? ''; }
    expect((await post('/input', { handoff: id, events: typing }, false)).status).toBe(401);
    expect((await post('/done', { handoff: id })).status).toBe(200);
    expect((await post('/done', { handoff: id })).status).toBe(409);
    expect((await post('/input', { handoff: id, events: typing })).status).toBe(409);
    await handoff;
    await sleep(300);
    expect(received.length).toBe(before);
  });

  it('nobody hands back in time: timeout, recorded as such', async () => {
    await host.call('web.open', { url: site.url('shop.test', '/field') });
    const e = await failure(host.call('web.handoff', { reason: 'nobody comes', timeout_s: 2 }));
    expect(e.code).toBe('timeout');
    expect(e.message).toMatch(/nobody handed session s\d+ back within 2 s/);
    expect(events(cfg.chain.path, 'handoff_end').at(-1)!.result).toMatchObject({ outcome: 'timeout', keys_typed: 0 });
  });
});

describe('[handoff] on_captcha', () => {
  it('"ask": a plan step that lands on a 2FA prompt hands off by itself; the person types the code, presses Done, the plan goes on', async () => {
    const cfg = config('ask');
    const host = testHost(cfg);
    try {
      const { url } = await host.console();
      const run = host.runPlan(`(do
  (call :web.open {:url "${site.url('shop.test', '/two-factor')}"})
  (call :web.url {}))`);
      const page = await consolePage(url);
      const region = page.getByRole('region', { name: /^Hand-off: The page .*two-factor shows a 2FA code prompt/ });
      await region.waitFor({ timeout: 30_000 });
      const live = await liveViewOf(page, 's1');
      await clickAt(live, FIELD.x, FIELD.y);
      await page.keyboard.type('424242');
      await page.keyboard.press('Enter');
      await expect.poll(() => received.filter((r) => r.path === '/sink/code').length, { timeout: 30_000 }).toBe(1);
      await region.getByRole('button', { name: 'Done', exact: true }).click();
      expect(await run).toMatchObject({ url: site.url('shop.test', '/sink/code') });
      expect(received.find((r) => r.path === '/sink/code')!.body).toBe('name=424242');
      expect(chainText(cfg.chain.path)).not.toContain('424242');
      const step = readEntries(cfg.chain.path).find((e) => e.kind === 'call' && e.capability === 'web.handoff')!;
      expect(step.result).toMatchObject({ handed_back: true, keys_typed: 7 });
      await page.close();
    } finally {
      await host.close();
    }
  });

  it('"fail" (the default): a CAPTCHA fails the step with captcha_detected naming the console', async () => {
    const cfg = config('fail');
    const host = testHost(cfg);
    try {
      const { url } = await host.console();
      const e = await failure(host.runPlan(`(call :web.open {:url "${site.url('shop.test', '/captcha')}"})`));
      expect(e.code).toBe('captcha_detected');
      expect(e.message).toContain(`the console (${new URL(url).origin}/)`);
      expect(e.message).toMatch(/on_captcha = "ask"/);
      expect(e.message).not.toContain(new URL(url).searchParams.get('token')!);
    } finally {
      await host.close();
    }
  });
});
