// Every core web.* capability through the real stack: host → JSON-RPC over
// stdio → sidecar → headless Chromium → loopback fixture site.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';
import { shopRoutes } from '../fixtures/shop-site.js';

let site: FixtureServer;
let host: Host;
let config: ReturnType<typeof testConfig>;
const at = (path: string) => site.url('shop.test', path);

beforeAll(async () => {
  site = await serve(shopRoutes);
  config = testConfig({ browser: { max_concurrent_sessions: 20 }, network: { resolve: { 'shop.test': '127.0.0.1' } } });
  host = testHost(config);
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

describe('core actions', () => {
  it('opens a page in a new session and reports url, title and status', async () => {
    const r = await host.call('web.open', { url: at('/') });
    expect(r).toMatchObject({ url: at('/'), title: 'Shop', status: 200 });
    expect(typeof r.session).toBe('string');
  });

  it('clicks, fills and presses keys', async () => {
    await host.call('web.open', { url: at('/') });
    await host.call('web.click', { selector: '#buy' });
    expect((await host.call('web.extract', { selector: '#status' })).items).toEqual([{ text: 'bought' }]);
    await host.call('web.fill', { selector: '#q', text: 'bikes' });
    await host.call('web.keypress', { keys: ['Enter'] });
    expect((await host.call('web.extract', { selector: '#echo' })).items).toEqual([{ text: 'searched:bikes' }]);
  });

  it('fills a form with text, select, checkbox and radio and reads each back', async () => {
    await host.call('web.open', { url: at('/form') });
    expect(await host.call('web.fill', { selector: '#name', text: 'Ada' })).toMatchObject({ value: 'Ada' });
    expect(await host.call('web.fill', { selector: '#bio', text: 'line1\nline2' })).toMatchObject({ value: 'line1\nline2' });
    expect(await host.call('web.fill', { selector: '#color', text: 'Green' })).toMatchObject({ value: 'g' });
    expect(await host.call('web.fill', { selector: '#color', text: 'b' })).toMatchObject({ value: 'b' });
    expect(await host.call('web.fill', { selector: '#agree', text: 'true' })).toMatchObject({ value: true });
    expect(await host.call('web.fill', { selector: '#size-m', text: 'true' })).toMatchObject({ value: true });
    await host.call('web.click', { selector: '#send', wait_until: 'load' });
    await host.call('web.wait', { selector: '#query' });
    const q = (await host.call('web.extract', { selector: '#query' })).items as Array<{ text: string }>;
    expect(q[0].text).toBe('?name=Ada&bio=line1%0D%0Aline2&color=b&agree=on&size=m');
  });

  it('extracts 1,000 items with a schema: text, absolute links, missing → null, limit', async () => {
    await host.call('web.open', { url: at('/list') });
    const schema = { name: '.name', price: '.price', link: 'a[href]' };
    const all = await host.call('web.extract', { selector: '.item', schema });
    const items = all.items as Array<Record<string, string | null>>;
    expect(items).toHaveLength(1000);
    expect(items[0]).toEqual({ name: 'Item 1', price: '2 EUR', link: at('/p/1') });
    expect(items[6].price).toBeNull();
    expect(items[999]).toEqual({ name: 'Item 1000', price: '2000 EUR', link: at('/p/1000') });
    const some = await host.call('web.extract', { selector: '.item', schema, limit: 5 });
    expect(some.items).toHaveLength(5);
  });

  it('waits for content a script adds 500 ms after load, for text and for network idle', async () => {
    await host.call('web.open', { url: at('/late') });
    const r = await host.call('web.wait', { selector: '#late' });
    expect(r.waited_ms).toBeGreaterThan(100);
    await host.call('web.navigate', { url: at('/late') });
    await host.call('web.wait', { text: 'arrived late' });
    await host.call('web.wait', { network: 'idle' });
    const t = await host.call('web.wait', { time: 50 });
    expect(t.waited_ms).toBeGreaterThanOrEqual(50);
  });

  it('scrolls by pixels, to the bottom, to the top and to an element', async () => {
    await host.call('web.open', { url: at('/tall') });
    expect((await host.call('web.scroll', { by: 700 })).scroll_y).toBe(700);
    const bottom = await host.call('web.scroll', { bottom: true });
    expect(bottom.scroll_y as number).toBeGreaterThan(4000);
    expect((await host.call('web.scroll', { top: true })).scroll_y).toBe(0);
    expect((await host.call('web.scroll', { selector: '#bottom' })).scroll_y as number).toBeGreaterThan(4000);
  });

  it('takes viewport, full-page, element and jpeg screenshots inside the workspace', async () => {
    await host.call('web.open', { url: at('/tall') });
    const view = await host.call('web.screenshot', {});
    expect(view).toMatchObject({ width: 1280, height: 800, format: 'png' });
    expect(existsSync(view.path as string)).toBe(true);
    expect(String(view.path).startsWith(config.workspace.path)).toBe(true);
    const full = await host.call('web.screenshot', { full_page: true, path: 'full.png' });
    expect(full.height as number).toBeGreaterThan(5000);
    const el = await host.call('web.screenshot', { selector: 'h1', format: 'jpeg', quality: 60, inline: true });
    expect(el.format).toBe('jpeg');
    expect(el.height as number).toBeLessThan(100);
    expect(Buffer.from(el.base64 as string, 'base64').length).toBe(el.bytes);
    expect(readFileSync(el.path as string).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
  });

  it('uses a per-session viewport', async () => {
    await host.call('web.open', { url: at('/'), viewport: { width: 800, height: 600 } });
    expect(await host.call('web.screenshot', {})).toMatchObject({ width: 800, height: 600 });
  });

  it('gets and sets cookies', async () => {
    await host.call('web.open', { url: at('/cookie') });
    const got = (await host.call('web.cookies.get', {})).cookies as Array<{ name: string; value: string }>;
    expect(got.map((c) => `${c.name}=${c.value}`)).toContain('visit=1');
    await host.call('web.cookies.set', { cookies: [{ name: 'lang', value: 'fr', url: at('/') }] });
    const again = (await host.call('web.cookies.get', { urls: [at('/')] })).cookies as Array<{ name: string }>;
    expect(again.map((c) => c.name).sort()).toEqual(['lang', 'visit']);
  });

  it('keeps sessions apart, targets one by name, and closes it', async () => {
    const a = await host.call('web.open', { url: at('/'), session: 'alpha' });
    const b = await host.call('web.open', { url: at('/list'), session: 'beta' });
    expect([a.session, b.session]).toEqual(['alpha', 'beta']);
    await host.call('web.navigate', { url: at('/form'), session: 'alpha' });
    expect((await host.call('web.extract', { selector: 'h1', session: 'alpha' })).items).toEqual([{ text: 'Form' }]);
    expect((await host.call('web.extract', { selector: 'h1' })).items).toEqual([{ text: 'Listing' }]);
    expect(await host.call('web.close', { session: 'alpha' })).toMatchObject({ closed: 'alpha' });
    await host.call('web.close', {});
  });
});
