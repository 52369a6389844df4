// web.select and web.fill act in the look that finds the element, with
// nothing between the look and what follows (the effect gate's round trip,
// the insertion). A hostile page attacks that gap: it replaces the timer the
// round trip waits for, or moves focus (or turns the field into a password
// field) right after the look answered and before the text lands. What a
// user would check: the server received nothing, the call said so, and no
// text reached a field other than the one named.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';
import { failure } from '../helpers/failure.js';

const arrivals: string[] = [];
const posted = (name: string) => arrivals.filter((a) => a === name).length;
const post = (name: string) => `fetch('/sink/${name}', { method: 'POST', body: 'x' })`;
const select = (handler: string) => `<select id="go" aria-label="size" onchange="${handler}"><option value="a">A</option><option value="b">B</option></select>`;
// The page keeps its own copy of the browser's timer, then replaces the global one.
const OWN_TIMER = '<script>window.own = setTimeout.bind(window);</script>';
// Every input event the page sees, in any field, with the field's value then.
const LOG = `<p id="log"></p><script>document.addEventListener('input', (e) => { log.textContent += e.target.id + '=' + e.target.value + ';'; }, true);</script>`;
// A timer armed by a timer the focus handler arms: it runs after the look's own zero-delay timer, before the text arrives.
const rightAfter = (code: string) => `setTimeout(() => setTimeout(() => { ${code} }, 0), 0)`;

const PAGES: Record<string, string> = {
  // setTimeout calls back at once: a flush on the page's own timer answered before the handler's POST.
  'sync-timer': `${OWN_TIMER}<script>window.setTimeout = (f) => { f(); return 0; };</script>${select(`own(() => ${post('sync-timer')}, 0)`)}`,
  'no-timer': `<h1>No timer</h1><script>window.setTimeout = () => 0;</script>`,
  'no-promise': `<h1>No promise</h1><script>window.Promise = function (run) { run(() => {}, () => {}); return { then() {} }; };</script>`,
  'title-throws': `<h1>Title</h1><script>Object.defineProperty(document, 'title', { get() { throw new Error('no title'); } });</script>`,
  'to-password': `<input id="go" aria-label="q" onfocus="${rightAfter("document.getElementById('pw').focus()")}"><input id="pw" type="password" aria-label="pw">${LOG}`,
  'turns-password': `<input id="go" aria-label="q" onfocus="${rightAfter("this.type = 'password'")}">${LOG}`,
  // The page's own beforeinput listener moves focus while the insertion is dispatched: the text would follow it.
  'in-beforeinput': `<input id="go" aria-label="q" onbeforeinput="document.getElementById('pw').focus()"><input id="pw" type="password" aria-label="pw">${LOG}`,
  'to-other': `<input id="go" aria-label="q" onfocus="${rightAfter("document.getElementById('other').focus()")}"><input id="other" aria-label="other">${LOG}`,
};

let site: FixtureServer;
beforeAll(async () => {
  site = await serve({
    '*': (req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path.startsWith('/sink/')) {
        arrivals.push(path.slice('/sink/'.length));
        req.resume();
        return send(res, html('<h1>Received</h1>'));
      }
      send(res, html(PAGES[path.replace(/^\/p\//, '')] ?? '<h1>Not found</h1>'));
    },
  });
});
afterAll(async () => { await site?.close(); });

// booking.demo.test has a site profile with a polite delay (site-profiles/demo-booking.json).
const config = (mode: string) => testConfig({
  browser: { max_concurrent_sessions: 20 },
  network: { resolve: { 'shop.test': '127.0.0.1', 'booking.demo.test': '127.0.0.1' }, allow_private: ['127.0.0.1'] },
  consent: { non_interactive: mode },
});
const open = (host: Host, name: string, on = 'shop.test') => host.call('web.open', { url: site.url(on, `/p/${name}`) });
const log = async (host: Host) => String(((await host.call('web.extract', { selector: '#log' })).items as Array<{ text?: string }>)[0]?.text ?? '');

describe('deny mode', () => {
  let host: Host;
  beforeAll(() => { host = testHost(config('deny')); });
  afterEach(async () => { await host.call('web.close', {}).catch(() => undefined); });
  afterAll(async () => { await host?.close(); });

  it('web.select on a page whose setTimeout calls back at once: the change handler\'s POST fails the call, nothing arrives', async () => {
    await open(host, 'sync-timer');
    const e = await failure(host.call('web.select', { selector: '#go', value: 'b' }));
    expect(e.code).toBe('consent_denied');
    await sleep(200);
    expect(posted('sync-timer')).toBe(0);
  });

  // The title is read in the effect gate's round trip after the load: a page must not be able to hold it.
  for (const page of ['no-timer', 'no-promise', 'title-throws']) {
    it(`web.open answers on a page with ${page}`, async () => {
      const opened = await open(host, page);
      expect(opened.url).toContain(`/p/${page}`);
      await host.call('web.close', {});
    });
  }

  for (const on of ['shop.test', 'booking.demo.test']) {
    it(`web.fill whose field loses focus to a password field right after the look: consent_denied, nothing typed (${on})`, async () => {
      await open(host, 'to-password', on);
      const e = await failure(host.call('web.fill', { selector: '#go', text: 'hello' }));
      expect(e.code).toBe('consent_denied');
      expect(await log(host)).toBe('');
      await host.call('web.close', {});
    });
  }

  it('web.fill whose field moves focus to a password field in its own beforeinput listener: consent_denied, nothing typed', async () => {
    await open(host, 'in-beforeinput');
    const e = await failure(host.call('web.fill', { selector: '#go', text: 'hello' }));
    expect(e.code).toBe('consent_denied');
    expect(await log(host)).toBe('');
  });

  it('web.fill whose field turns into type=password right after the look: consent_denied, nothing typed', async () => {
    await open(host, 'turns-password');
    const e = await failure(host.call('web.fill', { selector: '#go', text: 'hello' }));
    expect(e.code).toBe('consent_denied');
    expect(await log(host)).toBe('');
  });

  it('web.fill whose field loses focus to another field right after the look: the text lands in the named field or nowhere', async () => {
    await open(host, 'to-other');
    // Stopped where it landed, then Playwright's fill once more (the page moves focus again): it lands in #go,
    // or is stopped again and the call says nothing was typed.
    const outcome = await host.call('web.fill', { selector: '#go', text: 'hello' }).then((r) => r.value, (e: { code?: string }) => e.code);
    expect(await log(host)).toBe(outcome === 'blocked' ? '' : 'go=hello;');
    expect(['hello', 'blocked']).toContain(outcome);
  });
});

describe('approve mode', () => {
  let host: Host;
  beforeAll(() => { host = testHost(config('approve')); });
  afterEach(async () => { await host.call('web.close', {}).catch(() => undefined); });
  afterAll(async () => { await host?.close(); });

  it('web.select on a page whose setTimeout calls back at once: the approved POST arrives once and the call answers', async () => {
    const before = posted('sync-timer');
    await open(host, 'sync-timer');
    const r = await host.call('web.select', { selector: '#go', value: 'b' });
    expect(r.selected).toEqual([{ value: 'b', label: 'B' }]);
    await expect.poll(() => posted('sync-timer'), { timeout: 30_000 }).toBe(before + 1);
  });

  it('web.fill whose field turns into type=password right after the look: asked, typed once into the named field, reported redacted', async () => {
    await open(host, 'turns-password');
    const r = await host.call('web.fill', { selector: '#go', text: 'hello' });
    expect(r.value).toBe('[REDACTED]');
    expect(r.secret_input).toBe(true);
    expect(await log(host)).toBe('go=hello;');
  });
});
