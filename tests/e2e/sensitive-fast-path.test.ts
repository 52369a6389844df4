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

const shadowPage = html(`<h1>Shadow</h1><div id="host"></div>
<script>
  const root = document.getElementById('host').attachShadow({ mode: 'open' });
  root.innerHTML = '<form method="post" action="/done"><input class="card" name="cc-number"><button type="submit">Pay</button></form>';
</script>`);
const lightPage = html(`<h1>Light</h1><form method="post" action="/done"><input id="card" name="cc-number"><button type="submit">Pay</button></form>`);

beforeAll(async () => {
  site = await serve({
    '/shadow': (_req, res) => send(res, shadowPage),
    '/light': (_req, res) => send(res, lightPage),
    '/done': (_req, res) => send(res, html('<h1>Done</h1>')),
  });
  host = testHost(testConfig({ network: { resolve: { 'pay.test': '127.0.0.1' } } }), {
    ask: async (q) => { asked.push(q.reason); return { approved: false }; },
  });
});
beforeEach(() => { asked = []; });
afterAll(async () => {
  await host?.close();
  await site?.close();
});

it('asks before a click on a POST submit button found inside a shadow root', async () => {
  await host.call('web.open', { url: site.url('pay.test', '/shadow') });
  await expect(host.call('web.click', { selector: 'button' })).rejects.toMatchObject({ code: 'consent_denied' });
  expect(asked).toEqual(['form_submit']);
});

it('asks before typing into a payment field inside a shadow root', async () => {
  await host.call('web.open', { url: site.url('pay.test', '/shadow') });
  await expect(host.call('web.fill', { selector: 'input', text: '4111 1111 1111 1111' })).rejects.toMatchObject({ code: 'consent_denied' });
  expect(asked).toEqual(['payment_field']);
});

it('asks on the light-DOM page too (the one-round-trip path)', async () => {
  await host.call('web.open', { url: site.url('pay.test', '/light') });
  await expect(host.call('web.fill', { selector: '#card', text: '4111 1111 1111 1111' })).rejects.toMatchObject({ code: 'consent_denied' });
  await expect(host.call('web.click', { selector: 'button[type=submit]' })).rejects.toMatchObject({ code: 'consent_denied' });
  expect(asked).toEqual(['payment_field', 'form_submit']);
});
