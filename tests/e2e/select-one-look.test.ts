// web.select chooses in the look that finds the element when Playwright would
// act at once (sidecar/tools/select-in-page.ts), else takes Playwright's path.
// Either way the page sees one choice with one input and one change event, a
// disabled control or option is not chosen while it is disabled, and a page
// that redefines the DOM's select and option properties cannot change what is
// chosen or what the answer says was chosen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';
import { failure } from '../helpers/failure.js';

const SIZES = '<option value="s">Small</option><option value="m">Medium</option><option value="l">Large</option>';

// Every input and change the page sees, in order, with the select's state when it saw it.
const LOG = `<p id="log"></p><script>
  const log = (t) => { document.getElementById('log').textContent += t + ';'; };
  document.addEventListener('input', (e) => log('input:' + e.target.id + ':' + e.composed + ':' + e.target.disabled), true);
  document.body.addEventListener('change', (e) => log('change:' + e.target.id + ':' + e.target.disabled));
</script>`;

const PAGES: Record<string, string> = {
  '/plain': html(`<h1>Plain</h1><select id="size">${SIZES}</select>
    <select id="multi" multiple><option value="a">A</option><option value="b">B</option><option value="c">C</option></select>${LOG}`),
  // Enabled after 400 ms: the choice must wait for it, as Playwright's does.
  '/disabled': html(`<h1>Disabled</h1><fieldset id="fs" disabled><select id="size">${SIZES}</select></fieldset>${LOG}
    <script>setTimeout(() => document.getElementById('fs').disabled = false, 400);</script>`),
  '/disabled-option': html(`<h1>Option</h1><select id="size"><option value="s">Small</option><option value="m" disabled>Medium</option></select>${LOG}`),
  '/spaced': html(`<h1>Spaced</h1><select id="size"><option value="s" label="  Small   one ">S1</option><option value="m">Medium</option></select>${LOG}`),
  // The page lies: reading a select's value says "l", setting it selects "l"; an option's `selected` setter does
  // nothing and its value getter says "l"; dispatchEvent drops input and change.
  '/lying': html(`<h1>Lying</h1><select id="size">${SIZES}</select>${LOG}<script>
    const sv = Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value');
    Object.defineProperty(HTMLSelectElement.prototype, 'value', { configurable: true, get() { return 'l'; }, set() { sv.set.call(this, 'l'); } });
    Object.defineProperty(HTMLOptionElement.prototype, 'selected', { configurable: true, get() { return false; }, set() {} });
    Object.defineProperty(HTMLOptionElement.prototype, 'value', { configurable: true, get() { return 'l'; } });
    const dispatch = EventTarget.prototype.dispatchEvent;
    EventTarget.prototype.dispatchEvent = function (e) { return (e.type === 'input' || e.type === 'change') ? true : dispatch.call(this, e); };
    window.Event = function () { throw new Error('no events'); };
  </script>`),
};

let site: FixtureServer;
let host: Host;
const at = (path: string) => site.url('site.test', path);
const logOf = async () => ((await host.call('web.extract', { selector: '#log' })).items as Array<{ text: string }>)[0].text;
const checked = async (selector: string) => ((await host.call('web.extract', { selector: `${selector} option:checked` })).items as Array<{ text: string }>).map((i) => i.text);

beforeAll(async () => {
  site = await serve(Object.fromEntries(Object.entries(PAGES).map(([path, body]) => [path, (_q, res) => send(res, body)])));
  host = testHost(testConfig({ browser: { domains_allowlist: ['site.test'], max_concurrent_sessions: 10 }, network: { resolve: { 'site.test': '127.0.0.1' } } }));
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

describe('web.select in one look', () => {
  it('fires one input (composed) and one change, and answers what it chose, one option or several', async () => {
    await host.call('web.open', { url: at('/plain') });
    const r = await host.call('web.select', { selector: '#size', value: 'm' });
    expect(r.selected).toEqual([{ value: 'm', label: 'Medium' }]);
    expect(r.fingerprint).toMatchObject({ tag: 'select' });
    expect(await logOf()).toBe('input:size:true:false;change:size:false;');
    expect(await checked('#size')).toEqual(['Medium']);
    const multi = await host.call('web.select', { selector: '#multi', label: ['C', 'A'] });
    expect(multi.selected).toEqual([{ value: 'a', label: 'A' }, { value: 'c', label: 'C' }]);
    expect(await checked('#multi')).toEqual(['A', 'C']);
    expect(await logOf()).toBe('input:size:true:false;change:size:false;input:multi:true:false;change:multi:false;');
  });

  it('a disabled select is chosen only once it is enabled (the fieldset around it), as Playwright waits', async () => {
    await host.call('web.open', { url: at('/disabled') });
    const r = await host.call('web.select', { selector: '#size', value: 'l' });
    expect(r.selected).toEqual([{ value: 'l', label: 'Large' }]);
    expect(await logOf()).toBe('input:size:true:false;change:size:false;');
  });

  it('a disabled option is not chosen: the call times out and the page saw nothing', async () => {
    await host.call('web.open', { url: at('/disabled-option') });
    const e = await failure(host.call('web.select', { selector: '#size', value: 'm', timeout: 600 }));
    expect(e.code).toBe('timeout');
    expect(await logOf()).toBe('');
    expect(await checked('#size')).toEqual(['Small']);
  });

  it('a label with irregular whitespace is matched as before (trimmed, then Playwright normalises it)', async () => {
    await host.call('web.open', { url: at('/spaced') });
    const r = await host.call('web.select', { selector: '#size', label: 'Small   one' });
    expect(r.selected).toEqual([{ value: 's', label: 'Small   one' }]);
    const missing = await failure(host.call('web.select', { selector: '#size', label: 'Large' }));
    expect(missing.code).toBe('invalid_params');
    expect(missing.message).toMatch(/no option with label "Large"/);
  });

  it('a page that redefines select and option properties, dispatchEvent and Event cannot change what is chosen or answered', async () => {
    await host.call('web.open', { url: at('/lying') });
    const r = await host.call('web.select', { selector: '#size', value: 'm' });
    expect(r.selected).toEqual([{ value: 'm', label: 'Medium' }]);
    expect(await checked('#size')).toEqual(['Medium']);
    // The events were dispatched with the browser's own functions: the page's listeners saw them.
    expect(await logOf()).toBe('input:size:true:false;change:size:false;');
  });
});
