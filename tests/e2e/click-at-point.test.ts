// web.click presses at the element's centre at once when it is shown, enabled,
// in the viewport and on top there (sidecar/tools/click-at-point.ts), instead
// of waiting for Playwright's locator click. What that click guarantees must
// hold on this path too: a press that would land on something else (a cover
// that appears as the pointer arrives) is stopped before the page sees it and
// the click waits as before; a click lands once, also when it navigates; an
// element out of view or disabled is still clicked, once, when it can be. A
// page that lies about boxes and hit tests: tests/e2e/approve-then-click.test.ts.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';

let site: FixtureServer;
let host: Host;
const count = (path: string) => site.hits.filter((h) => h.endsWith(path)).length;
const at = (path: string) => site.url('click.test', path);
const BUTTON = 'position:absolute;left:100px;top:100px;width:120px;height:40px';

beforeAll(async () => {
  site = await serve({
    '/plain': (_q, res) => send(res, html(`<h1>Plain</h1><button id="go" style="${BUTTON}"
      onclick="fetch('/pressed?trusted=' + event.isTrusted)">Go</button>`)),
    // The pointer's arrival puts a cover over the button: the press that follows would land on the cover.
    '/cover-on-arrival': (_q, res) => send(res, html(`<h1>Cover</h1><button id="go" style="${BUTTON}" onclick="fetch('/pressed')">Go</button>
      <div id="cover" style="display:none;position:absolute;left:80px;top:80px;width:200px;height:100px;background:#0008"
        onpointerdown="fetch('/cover-hit')" onmousedown="fetch('/cover-hit')" onclick="fetch('/cover-hit')"></div>
      <script>
        go.addEventListener('pointermove', () => {
          if (cover.style.display === 'block') return;
          cover.style.display = 'block';
          setTimeout(() => cover.remove(), 700);
        });
      </script>`)),
    '/below': (_q, res) => send(res, html(`<h1>Below</h1><div style="height:3000px"></div><button id="go" onclick="fetch('/pressed')">Go</button>`)),
    '/disabled': (_q, res) => send(res, html(`<h1>Disabled</h1><button id="go" disabled style="${BUTTON}" onclick="fetch('/pressed')">Go</button>
      <script>setTimeout(() => { go.disabled = false; }, 500);</script>`)),
    '/link': (_q, res) => send(res, html(`<h1>Link</h1><a id="go" href="/next" style="${BUTTON};display:block">Next</a>`)),
    '/next': (_q, res) => send(res, html('<h1>Next</h1>')),
    '/pressed': (_q, res) => send(res, 'ok', 200, 'text/plain'),
    '/cover-hit': (_q, res) => send(res, 'hit', 200, 'text/plain'),
  });
  host = testHost(testConfig({ browser: { max_concurrent_sessions: 20 }, network: { resolve: { 'click.test': '127.0.0.1' } } }));
});
beforeEach(() => { site.hits.length = 0; });
afterAll(async () => {
  await host?.close();
  await site?.close();
});

/** The ref a fresh snapshot gives the element named `name` (a button or link), as an agent reads it. */
async function refOf(name: string): Promise<string> {
  const view = await host.call('web.snapshot', {});
  const ref = new RegExp(`"${name}"[^\\n]*?\\[ref=(e\\d+)\\]`).exec(String(view.snapshot))?.[1];
  if (!ref) throw new Error(`no ref for ${name} in ${String(view.snapshot)}`);
  return ref;
}

/** Waits a little past the last expected request, so a second (wrong) one would have arrived. */
const settle = () => new Promise((r) => setTimeout(r, 400));

it('a plain button: one trusted click', async () => {
  await host.call('web.open', { url: at('/plain') });
  await host.call('web.click', { selector: '#go' });
  await expect.poll(() => count('/pressed?trusted=true')).toBe(1);
  await settle();
  expect(site.hits.filter((h) => h.includes('/pressed'))).toEqual([expect.stringMatching(/\/pressed\?trusted=true$/)]);
});

it('a cover that appears as the pointer arrives never gets the press; the button is clicked once the cover is gone', async () => {
  await host.call('web.open', { url: at('/cover-on-arrival') });
  await host.call('web.click', { selector: '#go' });
  await expect.poll(() => count('/pressed')).toBe(1);
  await settle();
  expect(count('/cover-hit')).toBe(0);
  expect(count('/pressed')).toBe(1);
});

it('a button below the fold is scrolled to and clicked once', async () => {
  await host.call('web.open', { url: at('/below') });
  await host.call('web.click', { selector: '#go' });
  await expect.poll(() => count('/pressed')).toBe(1);
  await settle();
  expect(count('/pressed')).toBe(1);
});

it('a disabled button is clicked once, when it is enabled', async () => {
  await host.call('web.open', { url: at('/disabled') });
  await host.call('web.click', { selector: '#go' });
  await expect.poll(() => count('/pressed')).toBe(1);
  await settle();
  expect(count('/pressed')).toBe(1);
});

it('a link that navigates is followed once', async () => {
  await host.call('web.open', { url: at('/link') });
  const clicked = await host.call('web.click', { selector: '#go' });
  expect(clicked.url).toBe(at('/next'));
  await settle();
  expect(count('/next')).toBe(1);
});

it('by a snapshot ref: one trusted click; a cover that appears as the pointer arrives never gets the press', async () => {
  await host.call('web.open', { url: at('/plain') });
  await host.call('web.click', { ref: await refOf('Go') });
  await expect.poll(() => count('/pressed?trusted=true')).toBe(1);
  site.hits.length = 0;
  await host.call('web.open', { url: at('/cover-on-arrival') });
  await host.call('web.click', { ref: await refOf('Go') });
  await expect.poll(() => count('/pressed')).toBe(1);
  await settle();
  expect(count('/cover-hit')).toBe(0);
  expect(count('/pressed')).toBe(1);
});

it('by role and name: a link is followed once', async () => {
  await host.call('web.open', { url: at('/link') });
  const clicked = await host.call('web.click', { role: 'link', name: 'Next' });
  expect(clicked.url).toBe(at('/next'));
  await settle();
  expect(count('/next')).toBe(1);
});
