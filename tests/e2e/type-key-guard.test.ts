// web.type sends its keys without reading the focus before each one; the
// page's key guard (armed by the look that focused the field) stops, where
// the keys land, any key bound for a password field the user has not
// approved. Each field reports its value to the server on every input
// (GET /v?f=<id>&v=<value>), so what reached a field is read server-side.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { failure } from '../helpers/failure.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';

let site: FixtureServer;
let host: Host;
let asked: string[] = [];
let approve = false;

/** Every value field `id` reported, in order. */
const valuesOf = (id: string) => site.hits.filter((h) => h.includes(`/v?f=${id}&`)).map((h) => decodeURIComponent(h.split('&v=')[1] ?? ''));
const last = (id: string) => valuesOf(id).at(-1) ?? '';
const report = (id: string) => `oninput="fetch('/v?f=${id}&v=' + encodeURIComponent(this.value))"`;
const fields = `<input id="city" aria-label="city" ${report('city')}><input id="pw" type="password" aria-label="pw" ${report('pw')}>`;

beforeAll(async () => {
  site = await serve({
    '/v': (_req, res) => send(res, 'ok', 200, 'text/plain'),
    // The second key's own keydown handler moves focus: its character would land in the password field.
    '/move-keydown': (_req, res) => send(res, html(`<h1>Move</h1>${fields}<script>
      let n = 0; document.getElementById('city').onkeydown = () => { if (++n === 2) document.getElementById('pw').focus(); };</script>`)),
    // After the second key: the third would land there.
    '/move-keyup': (_req, res) => send(res, html(`<h1>Move</h1>${fields}<script>
      let n = 0; document.getElementById('city').onkeyup = () => { if (++n === 2) document.getElementById('pw').focus(); };</script>`)),
    // The same, on a page that breaks the functions a guard in its world would call.
    '/liar': (_req, res) => send(res, html(`<h1>Liar</h1>${fields}<script>
      let n = 0; document.getElementById('city').onkeyup = () => { if (++n === 2) document.getElementById('pw').focus(); };
      const real = Element.prototype.getAttribute;
      Element.prototype.getAttribute = function (a) { return a === 'type' ? 'text' : real.call(this, a); };
      Object.defineProperty(Document.prototype, 'activeElement', { get() { return document.body; } });
      EventTarget.prototype.addEventListener = function () {};
      EventTarget.prototype.removeEventListener = function () {};
      Event.prototype.preventDefault = function () {};
      Event.prototype.stopImmediatePropagation = function () {};
      Event.prototype.stopPropagation = function () {};
    </script>`)),
    // The second key's handler replaces the document (which erases every listener) with a focused password field.
    '/reopen': (_req, res) => send(res, html(`<h1>Reopen</h1><input id="city" aria-label="city" ${report('city')}><script>
      let n = 0; document.getElementById('city').onkeydown = () => {
        if (++n !== 2) return;
        document.open();
        document.write('<input id="pw" type="password" aria-label="pw" oninput="fetch(\\'/v?f=pw&v=\\' + encodeURIComponent(this.value))">');
        document.close();
        document.getElementById('pw').focus();
      };</script>`)),
    // The field itself becomes a password field on the second keydown.
    '/turns': (_req, res) => send(res, html(`<h1>Turns</h1><input id="city" aria-label="city" ${report('city')}><script>
      let n = 0; document.getElementById('city').onkeydown = function () { if (++n === 2) this.type = 'password'; };</script>`)),
    // After the first key the page adds another origin's frame and, once it loaded, moves focus into its password field.
    '/frame-add': (_req, res) => send(res, html(`<h1>Frame</h1><input id="city" aria-label="city" ${report('city')}><script>
      let n = 0; document.getElementById('city').onkeyup = () => {
        if (++n !== 1) return;
        const f = document.createElement('iframe');
        f.src = ${JSON.stringify(site.url('pay.test', '/child'))};
        f.onload = () => f.contentWindow.postMessage('focus', '*');
        document.body.appendChild(f);
      };</script>`)),
    '/child': (_req, res) => send(res, html(`<h1>Child</h1><input id="pw" type="password" aria-label="pw" ${report('cpw')}>
      <script>onmessage = () => document.getElementById('pw').focus();</script>`)),
  });
  host = testHost(testConfig({ browser: { max_concurrent_sessions: 20 }, network: { resolve: { 'shop.test': '127.0.0.1', 'pay.test': '127.0.0.1' } }, consent: { approval_ttl_s: 0 } }), {
    ask: async (q) => { asked.push(q.reason); return { approved: approve }; },
  });
});
beforeEach(() => { asked = []; approve = false; site.hits.length = 0; });
afterAll(async () => {
  await host?.close();
  await site?.close();
});

const settle = () => new Promise((r) => setTimeout(r, 300));   // the page's reports are fetches: let them arrive

describe('focus moved into a password field by a key handler', () => {
  for (const [page, before] of [['move-keydown', 'L'], ['move-keyup', 'Ly'], ['liar', 'Ly']] as const) {
    it(`${page}: asks before a character reaches the password field; "no" leaves it empty`, async () => {
      await host.call('web.open', { url: site.url('shop.test', `/${page}`) });
      const e = await failure(host.call('web.type', { selector: '#city', text: 'Lyon' }));
      expect(e.code).toBe('consent_denied');
      expect(asked).toEqual(['password_field']);
      await settle();
      expect(valuesOf('pw')).toEqual([]);
      expect(last('city')).toBe(before);
      await host.call('web.close', {});
    });

    it(`${page}: on "yes" the rest of the text lands in the password field`, async () => {
      approve = true;
      await host.call('web.open', { url: site.url('shop.test', `/${page}`) });
      await host.call('web.type', { selector: '#city', text: 'Lyon' });
      expect(asked).toEqual(['password_field']);
      await settle();
      expect(last('city')).toBe(before);
      expect(last('pw')).toBe('Lyon'.slice(before.length));
      await host.call('web.close', {});
    });
  }
});

it('a key handler that replaces the document: the guard stops that key and asks before the password field gets any', async () => {
  await host.call('web.open', { url: site.url('shop.test', '/reopen') });
  const e = await failure(host.call('web.type', { selector: '#city', text: 'Lyon' }));
  expect(e.code).toBe('consent_denied');
  expect(asked).toEqual(['password_field']);
  await settle();
  expect(valuesOf('pw')).toEqual([]);
  expect(valuesOf('city')).toEqual(['L']);
  await host.call('web.close', {});
});

describe('a field that turns into a password field on the second keydown', () => {
  it('asks before the second character; "no" types nothing more', async () => {
    await host.call('web.open', { url: site.url('shop.test', '/turns') });
    const e = await failure(host.call('web.type', { selector: '#city', text: 'Lyon' }));
    expect(e.code).toBe('consent_denied');
    expect(asked).toEqual(['password_field']);
    await settle();
    expect(valuesOf('city')).toEqual(['L']);
    await host.call('web.close', {});
  });

  it('on "yes" the whole text is in the field, and the answer does not show it', async () => {
    approve = true;
    await host.call('web.open', { url: site.url('shop.test', '/turns') });
    const r = await host.call('web.type', { selector: '#city', text: 'Lyon' }) as { value?: string };
    expect(asked).toEqual(['password_field']);
    expect(r.value).toBe('[REDACTED]');
    await settle();
    expect(last('city')).toBe('Lyon');
    await host.call('web.close', {});
  });
});

it('a plain field asks nothing and gets every key', async () => {
  await host.call('web.open', { url: site.url('shop.test', '/move-keyup') });
  const r = await host.call('web.type', { selector: '#pw', text: 'x' }).catch((err: Error) => err);
  expect(r).toMatchObject({ code: 'consent_denied' });   // a named password field asks up front, as before
  asked = [];
  await host.call('web.type', { selector: '#city', text: 'L' });
  await host.call('web.type', { selector: '#city', text: 'Y' });
  expect(asked).toEqual([]);
  await settle();
  expect(last('city')).toBe('LY');
  await host.call('web.close', {});
});

// Another origin's frame takes focus on its own, when it likes: a read of the focus before a key can miss a move
// made between the read and the key (one key), as it always could. Without the frame check every key after the
// frame appeared went there unread (297 of 300 when it was taken out).
it('a frame added while keys go: the keys after it wait for a read of the focus, which asks', async () => {
  await host.call('web.open', { url: site.url('shop.test', '/frame-add') });
  const e = await failure(host.call('web.type', { selector: '#city', text: 'x'.repeat(300) }));
  expect(e.code).toBe('consent_denied');
  expect(asked).toEqual(['password_field']);
  await settle();
  expect(valuesOf('cpw').length).toBeLessThanOrEqual(1);
  await host.call('web.close', {});
}, 60_000);
