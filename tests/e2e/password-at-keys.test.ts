// Password typing is detected when the keys land, not from the selector the
// call named: a password typed one web.keypress key at a time, a field that
// turns into type=password on focus, focus moved by Tab into a password
// field. Each field reports every key that reaches it to the server
// (GET /key), so "nothing typed" is counted server-side.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { failure } from '../helpers/failure.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';

let site: FixtureServer;
const keysFor = (page: string) => site.hits.filter((h) => h.includes(`/key?page=${page}`));
const logger = (page: string) => `oninput="fetch('/key?page=${page}&n=' + this.value.length)"`;

beforeAll(async () => {
  site = await serve({
    '/key': (_req, res) => send(res, 'ok', 200, 'text/plain'),
    '/pw': (_req, res) => send(res, html(`<h1>Pw</h1><input id="pw" type="password" aria-label="pw" ${logger('pw')}>`)),
    '/switch': (_req, res) => send(res, html(`<h1>Switch</h1><input id="f" aria-label="f" onfocus="this.type='password'" ${logger('switch')}>`)),
    // A page that lies about focus and about arrays to its own scripts.
    '/hostile': (_req, res) => send(res, html(`<h1>Hostile</h1><script>
      Object.defineProperty(Document.prototype, 'activeElement', { get() { return document.body; } });
      Array.prototype.map = function () { return ['plain']; };
    </script><input id="pw" type="password" aria-label="pw" ${logger('hostile')}>`)),
    // After the first key lands in #user, its keyup moves focus into a password field inside a same-origin
    // iframe the page built itself (no src: an about:blank document no init script of the browser ran in).
    '/frame-move': (_req, res) => send(res, html(`<h1>Frame</h1><input id="user" aria-label="user" onkeyup="frames[0].document.getElementById('pw').focus()"><iframe title="pay"></iframe>
      <script>frames[0].document.body.innerHTML = '<input id="pw" type="password" aria-label="pw">';
      frames[0].document.getElementById('pw').oninput = function () { fetch('/key?page=frame-move&n=' + this.value.length); };</script>`)),
    // The same, into another origin's frame (which the top document cannot read): its keyup asks the frame to take focus.
    '/origin-move': (_req, res) => send(res, html(`<h1>Origin</h1><input id="user" aria-label="user" onkeyup="frames[0].postMessage('focus', '*')"><iframe title="pay" src="${site.url('pay.test', '/origin-child')}"></iframe>`)),
    '/origin-child': (_req, res) => send(res, html(`<h1>Child</h1><input id="pw" type="password" aria-label="pw" ${logger('origin-move')}>
      <script>onmessage = () => document.getElementById('pw').focus();</script>`)),
    '/tab': (_req, res) => send(res, html(`<h1>Tab</h1><input id="user" aria-label="user"><input id="pw" type="password" aria-label="pw" ${logger('tab')}>`)),
  });
});
afterAll(async () => { await site?.close(); });

const config = (mode: 'deny' | 'approve') => testConfig({
  network: { resolve: { 'shop.test': '127.0.0.1', 'pay.test': '127.0.0.1' }, allow_private: ['127.0.0.1'] },
  consent: { non_interactive: mode, approval_ttl_s: 0 },   // every question reaches the asker (none remembered)
});

/** Each path: the page, and the calls after web.open (the last one types). */
const paths: Array<[string, string, (h: Host) => Promise<unknown>]> = [
  ['per-character web.keypress into a password field', 'pw', async (h) => { await h.call('web.click', { selector: '#pw' }); return h.call('web.keypress', { keys: ['h', 'u', 'n'] }); }],
  ['web.keypress at a named password field', 'pw', (h) => h.call('web.keypress', { selector: '#pw', keys: ['h', 'u', 'n'] })],
  ['web.fill into a field that becomes type=password on focus', 'switch', (h) => h.call('web.fill', { selector: '#f', text: 'hunter2' })],
  ['web.type into a field that becomes type=password on focus', 'switch', (h) => h.call('web.type', { selector: '#f', text: 'hunter2' })],
  ['web.fill_form into a field that becomes type=password on focus', 'switch', (h) => h.call('web.fill_form', { fields: { f: 'hunter2' }, selector_strategy: 'id' })],
  ['keys into a password field on a page that redefines activeElement and Array methods', 'hostile', async (h) => { await h.call('web.click', { selector: '#pw' }); return h.call('web.keypress', { keys: ['h', 'u', 'n'] }); }],
  ['web.type whose first key moves focus into a password field in a same-origin iframe', 'frame-move', (h) => h.call('web.type', { selector: '#user', text: 'ahun' })],
  ['web.type whose first key moves focus into a password field in another origin\'s iframe', 'origin-move', (h) => h.call('web.type', { selector: '#user', text: 'ahun', delay_ms: 300 })],
  ['Tab into a password field, then keys', 'tab', async (h) => { await h.call('web.click', { selector: '#user' }); return h.call('web.keypress', { keys: ['Tab', 'h', 'u', 'n'] }); }],
];

describe('deny mode: asks before the first key lands, and a "no" types nothing', () => {
  let host: Host;
  beforeAll(() => { host = testHost(config('deny')); });
  afterAll(async () => { await host?.close(); });

  for (const [what, page, act] of paths) {
    it(what, async () => {
      const before = keysFor(page).length;
      await host.call('web.open', { url: site.url('shop.test', `/${page}`) });
      const e = await failure(act(host));
      expect(e.code).toBe('consent_denied');
      await sleep(200);
      expect(keysFor(page).length).toBe(before);
      await host.call('web.close', {});
    });
  }
});

describe('approve mode: the same keys arrive', () => {
  it('types after the user approves, and asks about the focused field', async () => {
    const reasons: string[] = [];
    const host = testHost(config('deny'), { ask: async (q) => { reasons.push(q.reason); return true; } });
    try {
      for (const [, page, act] of paths) {
        const before = keysFor(page).length;
        await host.call('web.open', { url: site.url('shop.test', `/${page}`) });
        await act(host);
        await expect.poll(() => keysFor(page).length, { timeout: 30_000 }).toBeGreaterThan(before);
        await host.call('web.close', {});
      }
      expect(reasons.filter((r) => r === 'password_field').length).toBeGreaterThanOrEqual(paths.length);
    } finally {
      await host.close();
    }
  }, 120_000);
});
