// web.fill types into a plain text field the look focused at once
// (sidecar/tools/fill-at-focus.ts) instead of through Playwright's fill. What
// Playwright's fill does must hold on this path too: the new text replaces the
// old, arrives as trusted input, and lands in the field the call named even
// when the page moved focus away and lies about activeElement and select();
// a read-only field is not typed into.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';
import { failure } from '../helpers/failure.js';

let site: FixtureServer;
let host: Host;
const at = (path: string) => site.url('fill.test', path);
const log = async () => String(((await host.call('web.extract', { selector: '#log' })).items as Array<{ text?: string }>)[0]?.text ?? '');

// Every input event the page sees: which field, its value then, and whether the browser made it.
const LOGGER = `<p id="log"></p><script>
  document.addEventListener('input', (e) => { log.textContent += e.target.id + '=' + e.target.value + (e.isTrusted ? '' : ' (synthetic)') + ';'; }, true);
</script>`;

beforeAll(async () => {
  site = await serve({
    '/form': (_q, res) => send(res, html(`<h1>Form</h1><input id="name" value="old name"> <textarea id="note">old note</textarea>${LOGGER}`)),
    // The first focus of #name sends focus to #other; activeElement always says #name; select() does nothing.
    '/liar': (_q, res) => send(res, html(`<h1>Liar</h1><input id="name" value="old name"> <input id="other">${LOGGER}
      <script>
        name.addEventListener('focus', () => setTimeout(() => other.focus(), 0), { once: true });
        Object.defineProperty(Document.prototype, 'activeElement', { get() { return document.getElementById('name'); } });
        HTMLInputElement.prototype.select = function () {};
      </script>`)),
    // Only select() lies.
    '/noselect': (_q, res) => send(res, html(`<h1>No select</h1><input id="name" value="old name">${LOGGER}
      <script>HTMLInputElement.prototype.select = function () {};</script>`)),
    '/readonly': (_q, res) => send(res, html(`<h1>Read only</h1><input id="name" readonly value="fixed">${LOGGER}`)),
  });
  host = testHost(testConfig({ browser: { max_concurrent_sessions: 20 }, network: { resolve: { 'fill.test': '127.0.0.1' } } }));
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

it('replaces the old text with trusted input, in an input and a textarea', async () => {
  await host.call('web.open', { url: at('/form') });
  expect((await host.call('web.fill', { selector: '#name', text: 'Ada Lovelace' })).value).toBe('Ada Lovelace');
  expect((await host.call('web.fill', { selector: '#note', text: 'new note' })).value).toBe('new note');
  expect(await log()).toBe('name=Ada Lovelace;note=new note;');
});

it('a page that moved focus away and lies about activeElement and select(): the text replaces the named field\'s', async () => {
  await host.call('web.open', { url: at('/liar') });
  expect((await host.call('web.fill', { selector: '#name', text: 'mine' })).value).toBe('mine');
  expect(await log()).toBe('name=mine;');
});

it('a page whose select() does nothing: the new text still replaces the old', async () => {
  await host.call('web.open', { url: at('/noselect') });
  expect((await host.call('web.fill', { selector: '#name', text: 'mine' })).value).toBe('mine');
  expect(await log()).toBe('name=mine;');
});

it('a read-only field is not typed into', async () => {
  await host.call('web.open', { url: at('/readonly') });
  const err = await failure(host.call('web.fill', { selector: '#name', text: 'changed', timeout: 1500 }));
  expect(err.code).toBe('timeout');
  expect(await log()).toBe('');
});
