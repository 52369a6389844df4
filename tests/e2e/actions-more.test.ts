// web.select, web.hover, web.type, web.upload, web.evaluate, web.pdf,
// web.download_page, web.url and web.status through the real stack: host →
// JSON-RPC → sidecar → headless Chromium → loopback fixture site.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import type { ConsentQuestion } from '../../host/consent/asker.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir, testConfig, testHost } from '../helpers/host.js';
import { toolsRoutes } from '../fixtures/tools-site.js';
import { failure } from '../helpers/failure.js';

let site: FixtureServer;
let host: Host;            // evaluate off (the default)
let scripted: Host;        // evaluate on; consent answered by `approve`
let workspace: string;
let approve = true;
const asked: ConsentQuestion[] = [];
const at = (path: string) => site.url('site.test', path);

beforeAll(async () => {
  site = await serve(toolsRoutes(() => site.url('evil.test', '')));
  const network = { resolve: { 'site.test': '127.0.0.1' } };
  const config = testConfig({ browser: { domains_allowlist: ['site.test'], max_concurrent_sessions: 30 }, network });
  workspace = config.workspace.path;
  host = testHost(config, { ask: async (q) => { asked.push(q); return approve; } });
  scripted = testHost(testConfig({ browser: { domains_allowlist: ['site.test'], max_concurrent_sessions: 30, evaluate_enabled: true }, network }), {
    ask: async (q) => { asked.push(q); return approve; },
  });
});
afterAll(async () => {
  await host?.close();
  await scripted?.close();
  await site?.close();
});

describe('web.select', () => {
  it('selects by label and by value, several in a multi-select, and reads back what is selected', async () => {
    await host.call('web.open', { url: at('/controls') });
    expect((await host.call('web.select', { selector: '#color', label: 'Green' })).selected).toEqual([{ value: 'g', label: 'Green' }]);
    expect((await host.call('web.select', { role: 'combobox', name: 'Colour', value: 'b' })).selected).toEqual([{ value: 'b', label: 'Blue' }]);
    const multi = await host.call('web.select', { selector: '#toppings', label: ['Cheese', 'Basil'] });
    expect(multi.selected).toEqual([{ value: 'ch', label: 'Cheese' }, { value: 'ba', label: 'Basil' }]);
    expect((await host.call('web.extract', { selector: '#color', schema: { v: 'option:checked' } })).items).toEqual([{ v: 'Blue' }]);
  });

  it('an unknown option, a non-select and a missing value are invalid_params with the options listed', async () => {
    await host.call('web.open', { url: at('/controls') });
    const unknown = await failure(host.call('web.select', { selector: '#color', label: 'Purple' }));
    expect(unknown.code).toBe('invalid_params');
    expect(unknown.message).toContain('"Red" ("r"), "Green" ("g"), "Blue" ("b")'); // page text quoted, so it reads as a value
    expect((await failure(host.call('web.select', { selector: '#plain', value: 'x' }))).message).toMatch(/<div>, not a <select>/);
    expect((await failure(host.call('web.select', { selector: '#color' }))).code).toBe('invalid_params');
    expect((await failure(host.call('web.select', { selector: '#color', label: ['Red', 'Blue'] }))).message).toMatch(/takes one option/);
  });
});

describe('web.hover and web.type', () => {
  it('hovering fires the page\'s mouseenter', async () => {
    await host.call('web.open', { url: at('/controls') });
    await host.call('web.hover', { selector: '#menu' });
    expect((await host.call('web.extract', { selector: '#hovered' })).items).toEqual([{ text: 'yes' }]);
    expect((await failure(host.call('web.hover', { selector: '#nowhere', timeout: 300 }))).code).toBe('selector_not_found');
  });

  it('types key by key (one keydown per character), with a delay, and the page reacts as to typing', async () => {
    await host.call('web.open', { url: at('/controls') });
    const started = Date.now();
    const r = await host.call('web.type', { role: 'textbox', name: 'Search', text: 'berlin', delay_ms: 40 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(r.value).toBe('berlin');
    expect((await host.call('web.extract', { selector: '#keys' })).items).toEqual([{ text: '6' }]);
    expect((await host.call('web.extract', { selector: '#suggest' })).items).toEqual([{ text: 'suggest:berlin' }]);
    expect((await host.call('web.type', { selector: '#search', text: 'x', clear: true })).value).toBe('x');
  });

  it('typing into a password field asks first and never returns the value', async () => {
    await host.call('web.open', { url: at('/controls') });
    asked.length = 0;
    approve = false;
    expect((await failure(host.call('web.type', { selector: '#pw', text: 'hunter22' }))).code).toBe('consent_denied');
    approve = true;
    const r = await host.call('web.type', { selector: '#pw', text: 'hunter22' });
    expect(r.value).toBe('[REDACTED]');
    expect(asked.map((q) => q.reason)).toEqual(['password_field', 'password_field']);
  });
});

describe('web.upload', () => {
  it('uploads a workspace file after asking, and the page reads its content', async () => {
    mkdirSync(join(workspace, 'docs'), { recursive: true });
    writeFileSync(join(workspace, 'docs', 'cv.txt'), 'curriculum vitae of Ada');
    await host.call('web.open', { url: at('/upload') });
    asked.length = 0;
    const r = await host.call('web.upload', { selector: '#file', files: ['docs/cv.txt'] });
    expect(r.files).toEqual([{ name: 'cv.txt', bytes: 23 }]);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ capability: 'web.upload', reason: 'upload' });
    await host.call('web.wait', { text: 'curriculum vitae of Ada' });
    // Several files into a hidden multiple input, named by absolute path inside the workspace.
    writeFileSync(join(workspace, 'docs', 'b.txt'), 'b');
    await host.call('web.upload', { selector: '#files', files: [join(workspace, 'docs', 'cv.txt'), 'docs/b.txt'] });
    expect((await host.call('web.extract', { selector: '#names' })).items).toEqual([{ text: 'cv.txt,b.txt' }]);
  });

  it('refuses files outside the workspace (absolute, ../, or via a symlink) before asking anyone', async () => {
    const elsewhere = tempDir('webcap-outside-');
    writeFileSync(join(elsewhere, 'secret.txt'), 'do not send');
    symlinkSync(join(elsewhere, 'secret.txt'), join(workspace, 'link.txt'));
    await host.call('web.open', { url: at('/upload') });
    asked.length = 0;
    for (const path of [join(elsewhere, 'secret.txt'), '../../etc/passwd', 'link.txt', '/etc/hostname']) {
      const e = await failure(host.call('web.upload', { selector: '#file', files: [path] }));
      expect(e.code, path).toBe('invalid_params');
      expect(e.message, path).toMatch(/outside the workspace/);
    }
    expect((await failure(host.call('web.upload', { selector: '#file', files: ['docs/none.txt'] }))).message).toMatch(/no file/);
    expect(asked).toHaveLength(0);
    expect((await host.call('web.extract', { selector: '#content' })).items).toEqual([{ text: '' }]);
  });

  it('a denied upload leaves the input empty', async () => {
    await host.call('web.open', { url: at('/upload') });
    approve = false;
    try {
      expect((await failure(host.call('web.upload', { selector: '#file', files: ['docs/cv.txt'] }))).code).toBe('consent_denied');
    } finally {
      approve = true;
    }
    expect((await host.call('web.extract', { selector: '#content' })).items).toEqual([{ text: '' }]);
  });
});

describe('web.evaluate', () => {
  it('is capability_disabled by default, naming the config key, and asks nobody', async () => {
    await host.call('web.open', { url: at('/controls') });
    asked.length = 0;
    const e = await failure(host.call('web.evaluate', { expression: '1 + 1' }));
    expect(e.code).toBe('capability_disabled');
    expect(e.message).toContain('evaluate_enabled');
    expect(asked).toHaveLength(0);
  });

  it('when enabled, asks every time (the script shown), runs it, and a denial runs nothing', async () => {
    await scripted.call('web.open', { url: at('/controls') });
    asked.length = 0;
    expect((await scripted.call('web.evaluate', { expression: 'document.title' })).result).toBe('Controls');
    expect((await scripted.call('web.evaluate', { expression: '(n) => n * 2', arg: 21 })).result).toBe(42);
    expect((await scripted.call('web.evaluate', { selector: '#color', expression: 'el => el.options.length' })).result).toBe(3);
    expect(asked).toHaveLength(3);
    expect(JSON.stringify(asked[1].details)).toContain('(n) => n * 2');
    approve = false;
    try {
      const e = await failure(scripted.call('web.evaluate', { expression: "document.title = 'changed'" }));
      expect(e.code).toBe('consent_denied');
    } finally {
      approve = true;
    }
    expect((await scripted.call('web.url', {})).title).toBe('Controls');
  });

  it('a script that throws or never ends is a clear error, not a hang', async () => {
    await scripted.call('web.open', { url: at('/controls') });
    const thrown = await failure(scripted.call('web.evaluate', { expression: 'nope.nothing' }));
    expect(thrown.code).toBe('invalid_params');
    expect(thrown.message).toMatch(/the script threw: ReferenceError/);
    const slow = await failure(scripted.call('web.evaluate', { expression: 'new Promise(() => {})', timeout: 500 }));
    expect(slow.code).toBe('timeout');
  });
});

describe('files: web.pdf and web.download_page', () => {
  it('web.pdf saves a real PDF under the workspace, and refuses a path outside it', async () => {
    await host.call('web.open', { url: at('/article') });
    const r = await host.call('web.pdf', { path: 'article.pdf' });
    expect(r.path).toBe(join(workspace, 'pdf', 'article.pdf'));
    const bytes = readFileSync(r.path as string);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(r.bytes).toBe(bytes.length);
    expect(bytes.length).toBeGreaterThan(1000);
    const generated = await host.call('web.pdf', {});
    expect(String(generated.path).startsWith(join(workspace, 'pdf'))).toBe(true);
    expect((await failure(host.call('web.pdf', { path: '../../escape.pdf' }))).code).toBe('invalid_params');
    expect((await failure(host.call('web.pdf', { path: 'x.png' }))).message).toMatch(/\.pdf/);
  });

  it('web.download_page saves the HTML and a metadata JSON and returns both paths', async () => {
    await host.call('web.open', { url: at('/article') });
    const r = await host.call('web.download_page', {});
    const html = readFileSync(r.html_path as string, 'utf8');
    const meta = JSON.parse(readFileSync(r.metadata_path as string, 'utf8'));
    expect(String(r.html_path).startsWith(join(workspace, 'pages'))).toBe(true);
    expect(html).toContain('<h1>OAI 面试挂经</h1>');
    expect(html).toContain('Post body with');
    expect(meta).toMatchObject({ url: at('/article'), title: 'OAI 面试挂经', lang: 'zh', description: 'A post about an interview', canonical: '/article', status: 200, html_file: r.html_path });
    expect(meta.bytes).toBe(Buffer.byteLength(html));
    const named = await host.call('web.download_page', { path: 'post.html' });
    expect(named).toMatchObject({ html_path: join(workspace, 'pages', 'post.html'), metadata_path: join(workspace, 'pages', 'post.json') });
    expect(existsSync(join(workspace, 'pages', 'post.json'))).toBe(true);
    expect((await failure(host.call('web.download_page', { path: '/tmp/out.html' }))).code).toBe('invalid_params');
  });
});

describe('web.url and web.status', () => {
  it('web.url names the active tab; web.status lists sessions with ages and tabs', async () => {
    const a = await host.call('web.open', { url: at('/article'), session: 'reader' });
    await host.call('web.open', { url: at('/controls'), session: 'writer' });
    expect(await host.call('web.url', { session: 'reader' })).toMatchObject({ url: at('/article'), title: 'OAI 面试挂经', tab: 't1' });
    const s = await host.call('web.status', {});
    expect(s.current).toBe('writer');
    const sessions = s.sessions as Array<Record<string, unknown>>;
    const reader = sessions.find((x) => x.session === a.session)!;
    expect(reader).toMatchObject({ current: false, active_tab: 't1', tabs: [{ tab: 't1', index: 0, url: at('/article'), title: 'OAI 面试挂经', active: true }] });
    expect(typeof reader.age_s).toBe('number');
    expect(Date.parse(reader.created_at as string)).toBeLessThanOrEqual(Date.now());
    await host.call('web.close', { session: 'reader' });
    await host.call('web.close', { session: 'writer' });
    const after = await host.call('web.status', {});
    expect((after.sessions as unknown[]).some((x) => (x as { session: string }).session === 'reader')).toBe(false);
  });
});

describe('a field whose input submits its form', () => {
  it('web.fill and web.select answer once the field is gone with its page (value null) instead of waiting out the call for it', async () => {
    const form = (field: string) => html(`<h1>Search</h1><form action="/done" method="get">${field}</form>`);
    const own = await serve({
      '/typed': (_q, res) => send(res, form('<input id="q" aria-label="q" name="q" oninput="const f = this.form; this.remove(); f.submit()">')),
      '/picked': (_q, res) => send(res, form('<select id="s" aria-label="s" name="s" onchange="this.form.submit()"><option>a</option><option>b</option></select>')),
      '/done': (_q, res) => send(res, html('<h1>Results</h1>')),
    });
    const quick = testHost(testConfig({ browser: { domains_allowlist: ['site.test'], default_timeout_ms: 60_000 }, network: { resolve: { 'site.test': '127.0.0.1' } } }));
    try {
      await quick.call('web.open', { url: own.url('site.test', '/typed') });
      expect(await quick.call('web.fill', { selector: '#q', text: 'x' })).toMatchObject({ ok: true, value: null });
      await quick.call('web.navigate', { url: own.url('site.test', '/picked') });
      expect(await quick.call('web.select', { selector: '#s', value: 'b' })).toMatchObject({ ok: true });
      await expect.poll(() => own.hits.filter((h) => h.includes('/done')).length, { timeout: 30_000 }).toBe(2);
    } finally {
      await quick.close();
      await own.close();
    }
  }, 50_000);
});
