// After the person approves a submit, the page may change while they read
// the question: a cover slides over the button, the button moves, the page
// lies to its own scripts about where things are, or answers the click by
// clicking something else. Whatever speeds up the click after a yes must keep
// this: the click never lands on the cover, waits until the button can be
// clicked, and the form reaches the server exactly once.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';

let site: FixtureServer;
let host: Host;
let signal: () => void = () => undefined;
let release: () => void = () => undefined;
const count = (path: string) => site.hits.filter((h) => h.endsWith(path)).length;

// The change happens when the test signals it (during the question) and tells the server; the cover goes away
// only when the test releases that request.
const changing = (change: string, lies = '') => html(`<h1>Pay</h1>
<form method="post" action="/done"><button id="go" type="submit" style="position:absolute;left:100px;top:100px;width:120px;height:40px">Pay</button></form>
<div id="cover" style="display:none;position:absolute;left:80px;top:80px;width:200px;height:100px;background:#0008" onclick="fetch('/cover-hit')"></div>
<script>
  fetch('/signal').then(async () => { ${change}; await fetch('/covered'); cover.remove(); });
  ${lies}
</script>`);
const cover = "cover.style.display = 'block'";
// The button moves away and the cover takes its place.
const move = "go.style.left = '500px'; cover.style.display = 'block'";
// Every answer a page-world check could get says the button is there and nothing covers it.
const lies = `
  const go = document.getElementById('go');
  Document.prototype.elementFromPoint = function () { return go; };
  Node.prototype.contains = function () { return true; };
  window.getComputedStyle = function () { return { getPropertyValue: () => 'visible' }; };
  const box = go.getBoundingClientRect();
  Element.prototype.getBoundingClientRect = function () { return box; };`;

beforeAll(async () => {
  site = await serve({
    '/cover': (_q, res) => send(res, changing(cover)),
    '/move': (_q, res) => send(res, changing(move)),
    '/liar': (_q, res) => send(res, changing(cover, lies)),
    '/chain': (_q, res) => send(res, html(`<h1>Chain</h1><form method="post" action="/done">
      <button id="go" type="submit" onclick="document.getElementById('other').click()">Pay</button></form>
      <button id="other" type="button" onclick="fetch('/other')">Other</button>`)),
    // Answered once at most: a timer of an earlier test may fire after a later page asked again.
    '/signal': (_q, res) => { signal = () => { if (!res.headersSent) send(res, 'go', 200, 'text/plain'); }; },
    '/covered': (_q, res) => { release = () => { if (!res.headersSent) send(res, 'ok', 200, 'text/plain'); }; },
    '/cover-hit': (_q, res) => send(res, 'hit', 200, 'text/plain'),
    '/other': (_q, res) => send(res, 'other', 200, 'text/plain'),
    '/done': (_q, res) => send(res, html('<h1>Done</h1>')),
  });
  host = testHost(testConfig({ browser: { max_concurrent_sessions: 20 }, network: { resolve: { 'pay.test': '127.0.0.1' } } }), {
    // The page changes while the person looks at the question; the approval comes once it has.
    ask: async () => {
      if (changes) {
        signal();
        await expect.poll(() => count('/covered'), { timeout: 30_000 }).toBe(1);
        setTimeout(() => release(), 1500);
      }
      return { approved: true, remember: false };   // each test's page asks afresh
    },
  });
});
let changes = true;
beforeEach(() => { site.hits.length = 0; changes = true; });
afterAll(async () => {
  await host?.close();
  await site?.close();
});

it.each([
  ['a cover slides over the button', '/cover'],
  ['the button moves and a cover takes its place', '/move'],
  ['the page lies about boxes, hit tests and styles', '/liar'],
])('%s during the question: the click never lands on the cover and waits until the button can be clicked', async (_name, path) => {
  await host.call('web.open', { url: site.url('pay.test', path) });
  await host.call('web.click', { selector: '#go' });
  await expect.poll(() => count('/done')).toBe(1);
  expect(count('/cover-hit')).toBe(0);
  expect(count('/covered')).toBe(1);
});

it('a page script that clicks another element in answer to the click: the form is sent once, the script runs once', async () => {
  changes = false;
  await host.call('web.open', { url: site.url('pay.test', '/chain') });
  await host.call('web.click', { selector: '#go' });
  await expect.poll(() => count('/done')).toBe(1);
  await expect.poll(() => count('/other')).toBe(1);
  await new Promise((r) => setTimeout(r, 300));
  expect(count('/done')).toBe(1);
});
