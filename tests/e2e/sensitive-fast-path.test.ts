// The sensitivity check before a click or fill reads the page in one round
// trip for plain CSS. It must judge the very element Playwright then acts on:
// with a shadow root in the page (where Playwright's CSS pierces and
// document.querySelector does not) it falls back to the locator, so a POST
// submit inside a shadow root still asks the user.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';

let site: FixtureServer;
let host: Host;
let asked: string[] = [];
let approve = false;
/** Requests that reached the form's action: a denied submit must send none. */
const submitted = () => site.hits.filter((h) => h.endsWith('/done')).length;

const shadowPage = html(`<h1>Shadow</h1><div id="host"></div>
<script>
  const root = document.getElementById('host').attachShadow({ mode: 'open' });
  root.innerHTML = '<form method="post" action="/done"><input class="card" name="cc-number"><button type="submit">Pay</button></form>';
</script>`);
const lightPage = html(`<h1>Light</h1><form method="post" action="/done"><input id="card" name="cc-number"><button type="submit">Pay</button></form>`);
// A page that lies to scripts in its own world about its fields and forms.
const liarPage = html(`<h1>Liar</h1>
<form method="post" action="/done"><input id="pw" type="password"><input id="q" name="q"><button id="go" type="submit"><span id="inner">Pay</span></button></form>
<form method="get" action="/done"><button id="fm" type="submit" formmethod="post">Send</button></form>
<script>
  const real = Element.prototype.getAttribute;
  Element.prototype.getAttribute = function (n) { return n === 'type' || n === 'method' ? 'text' : real.call(this, n); };
  Document.prototype.querySelector = function () { return null; };
  Element.prototype.closest = function () { return null; };
  String.prototype.toLowerCase = function () { return 'plain'; };
  RegExp.prototype.exec = function () { return null; };
</script>`);
const framePage = html(`<h1>Frame</h1><iframe srcdoc="<form method='post' action='/done'><input id='user'></form>"></iframe>
<script>onload = () => { const f = document.querySelector('iframe'); f.contentWindow.focus(); f.contentDocument.querySelector('#user').focus(); };</script>`);

beforeAll(async () => {
  site = await serve({
    '/shadow': (_req, res) => send(res, shadowPage),
    '/light': (_req, res) => send(res, lightPage),
    '/liar': (_req, res) => send(res, liarPage),
    '/frame': (_req, res) => send(res, framePage),
    '/done': (_req, res) => send(res, html('<h1>Done</h1>')),
  });
  host = testHost(testConfig({ browser: { max_concurrent_sessions: 20 }, network: { resolve: { 'pay.test': '127.0.0.1' } } }), {
    ask: async (q) => { asked.push(q.reason); return { approved: approve }; },
  });
});
beforeEach(() => { asked = []; approve = false; site.hits.length = 0; });
afterAll(async () => {
  await host?.close();
  await site?.close();
});

it('asks before a click on a POST submit button found inside a shadow root', async () => {
  await host.call('web.open', { url: site.url('pay.test', '/shadow') });
  await expect(host.call('web.click', { selector: 'button' })).rejects.toMatchObject({ code: 'consent_denied' });
  expect(asked).toEqual(['form_submit']);
  expect(submitted()).toBe(0);
});

it('asks before typing into a payment field inside a shadow root', async () => {
  await host.call('web.open', { url: site.url('pay.test', '/shadow') });
  await expect(host.call('web.fill', { selector: 'input', text: '4111 1111 1111 1111' })).rejects.toMatchObject({ code: 'consent_denied' });
  expect(asked).toEqual(['payment_field']);
  expect(submitted()).toBe(0);
});

it('asks on the light-DOM page too (the one-round-trip path)', async () => {
  await host.call('web.open', { url: site.url('pay.test', '/light') });
  await expect(host.call('web.fill', { selector: '#card', text: '4111 1111 1111 1111' })).rejects.toMatchObject({ code: 'consent_denied' });
  await expect(host.call('web.click', { selector: 'button[type=submit]' })).rejects.toMatchObject({ code: 'consent_denied' });
  expect(asked).toEqual(['payment_field', 'form_submit']);
  expect(submitted()).toBe(0);
});

it('positive control: the same submit, approved, reaches the server once', async () => {
  approve = true;
  await host.call('web.open', { url: site.url('pay.test', '/light') });
  await host.call('web.click', { selector: 'button[type=submit]' });
  await expect.poll(submitted, { timeout: 30_000 }).toBe(1);
  expect(asked).toEqual(['form_submit']);
});

it('cannot be fooled by a page that redefines getAttribute, querySelector, closest, toLowerCase or RegExp', async () => {
  await host.call('web.open', { url: site.url('pay.test', '/liar') });
  await expect(host.call('web.fill', { selector: '#pw', text: 'hunter2-SECRET' })).rejects.toMatchObject({ code: 'consent_denied' });
  await expect(host.call('web.click', { selector: '#inner' })).rejects.toMatchObject({ code: 'consent_denied' });
  await expect(host.call('web.click', { selector: '#fm' })).rejects.toMatchObject({ code: 'consent_denied' });
  expect(asked).toEqual(['password_field', 'form_submit', 'form_submit']);
  expect(submitted()).toBe(0);
});

it('treats NumpadEnter, a bare CR or LF, and typed line breaks as a submit', async () => {
  await host.call('web.open', { url: site.url('pay.test', '/liar') });
  for (const key of ['NumpadEnter', '\n', '\r', 'Control+Enter']) {
    await expect(host.call('web.keypress', { selector: '#q', keys: [key] })).rejects.toMatchObject({ code: 'consent_denied' });
  }
  await expect(host.call('web.type', { selector: '#q', text: 'x\r' })).rejects.toMatchObject({ code: 'consent_denied' });
  expect(asked).toEqual(['form_submit', 'form_submit', 'form_submit', 'form_submit', 'form_submit']);
  expect(submitted()).toBe(0);
});

it('asks before Enter when the focus is in a POST form inside an iframe', async () => {
  await host.call('web.open', { url: site.url('pay.test', '/frame') });
  await expect(host.call('web.keypress', { keys: ['Enter'] })).rejects.toMatchObject({ code: 'consent_denied' });
  expect(asked).toEqual(['form_submit']);
  expect(submitted()).toBe(0);
});
