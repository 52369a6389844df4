// The indexed view through the real stack: which elements get wa-N ids,
// the sanitised HTML, the deterministic query, and acting on the ids.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';
import { agentRoutes } from '../fixtures/agent-pages.js';

let site: FixtureServer;
let host: Host;
const at = (path: string) => site.url('agent.test', path);

interface Element { web_agent_id: string; index: number; tag: string; text: string; attributes: Record<string, unknown>; url?: string; frame?: string }
type Matches = { matches: Element[]; count: number; total: number; interpretation?: string; note?: string };

beforeAll(async () => {
  site = await serve(agentRoutes);
  host = testHost(testConfig({ browser: { max_concurrent_sessions: 20 }, network: { resolve: { 'agent.test': '127.0.0.1' } } }));
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

async function open(path: string): Promise<string> {
  const { session } = await host.call('web.open', { url: at(path) });
  await host.call('web.wait', { session, network: 'idle' });
  return session as string;
}
const query = (session: string, params: Record<string, unknown>) => host.call('web.query_elements', { session, ...params }) as Promise<Matches>;
const texts = (m: Matches) => m.matches.map((e) => e.text);

describe('web.page_content', () => {
  it('numbers only interactable, visible elements, in page order, and marks them in the DOM', async () => {
    const s = await open('/mixed');
    const r = await host.call('web.page_content', { session: s });
    const lines = (r.content as string).split('\n');
    expect(lines.map((l) => /^\[(wa-\d+)\] <(\w+)/.exec(l)?.slice(1).join(' '))).toEqual([
      'wa-0 a', 'wa-1 button', 'wa-2 input', 'wa-3 input', 'wa-4 textarea', 'wa-5 select', 'wa-6 div', 'wa-7 span', 'wa-8 div',
      'wa-9 a', 'wa-10 a', 'wa-11 a', 'wa-12 a', 'wa-13 a', 'wa-14 a',
    ]);
    expect(lines[0]).toBe('[wa-0] <a href="/docs">Docs</a>');
    for (const absent of ['JS link', 'Hash link', 'Mail', 'No href', 'Not focusable', 'Display none', 'Visibility hidden',
      'Hidden attribute', 'Screen reader only', 'Zero size', 'Inside hidden', 'csrf']) {
      expect(r.content).not.toContain(absent);
    }
    expect(r).toMatchObject({ format: 'indexed', element_count: 15, element_types: { a: 7, button: 1, input: 2, textarea: 1, select: 1, div: 2, span: 1 } });
    expect((await host.call('web.extract', { session: s, selector: '[data-web-agent-id="wa-0"]' })).items).toEqual([{ text: 'Docs' }]);
  });

  it('full_html is sanitised: no scripts, styles, comments, event or style attributes, hidden parts or hidden inputs', async () => {
    const s = await open('/mixed');
    const html = (await host.call('web.page_content', { session: s, format: 'full_html', max_chars: 100_000 })).content as string;
    expect(html).toContain('<a id="real" href="/docs" data-web-agent-id="wa-0">Docs</a>');
    expect(html).toContain('Styled paragraph');
    for (const gone of ['<script', 'secretValue', '<style', 'color: red', 'a comment a sanitiser', 'onclick', 'onmouseover',
      'style=', 'javascript:', 't0k3n', 'Display none', 'Visibility hidden', 'Hidden attribute', 'Inside hidden', '<path']) {
      expect(html).not.toContain(gone);
    }
  });

  it('elements_json gives objects with ids, text and attributes, and stays valid JSON when cut', async () => {
    const s = await open('/mixed');
    const r = await host.call('web.page_content', { session: s, format: 'elements_json' });
    const all = JSON.parse(r.content as string) as Element[];
    expect(all).toHaveLength(15);
    expect(all[0]).toMatchObject({ web_agent_id: 'wa-0', index: 0, tag: 'a', text: 'Docs', attributes: { href: '/docs', id: 'real' }, url: at('/docs') });
    expect(all.find((e) => e.tag === 'select')).toMatchObject({ text: 'S', attributes: { name: 'size' } });
    const cut = await host.call('web.page_content', { session: s, format: 'elements_json', max_chars: 600 });
    const some = JSON.parse(cut.content as string) as Element[];
    expect(some.length).toBeGreaterThan(0);
    expect(some.length).toBeLessThan(15);
    expect((cut.content as string).length).toBeLessThanOrEqual(600);
    expect(cut).toMatchObject({ truncated: true, notice: expect.stringMatching(new RegExp(`^\\[truncated: ${some.length} of 15 elements shown`)) });
  });

  it('cuts the indexed list at max_chars with a notice pointing at query_elements', async () => {
    const s = await open('/long');
    const r = await host.call('web.page_content', { session: s });
    expect(r.truncated).toBe(true);
    expect((r.content as string).length).toBeLessThanOrEqual(8000);
    expect(r.element_count).toBe(400);
    expect((r.content as string).split('\n').at(-1)).toMatch(/^\[truncated: .*web\.query_elements.*\]$/);
  });

  it('keeps ids stable across calls and gives new elements new ids; iframe elements get ids too', async () => {
    const s = await open('/app');
    const first = JSON.parse((await host.call('web.page_content', { session: s, format: 'elements_json' })).content as string) as Element[];
    const inner = first.find((e) => e.text === 'Inner action')!;
    expect(inner.frame).toBe(at('/frame'));
    await host.call('web.click', { session: s, selector: '#subscribe' });
    const second = JSON.parse((await host.call('web.page_content', { session: s, format: 'elements_json' })).content as string) as Element[];
    for (const el of first) expect(second.find((e) => e.web_agent_id === el.web_agent_id)?.text).toBe(el.text);
    const added = second.filter((e) => !first.some((f) => f.web_agent_id === e.web_agent_id));
    expect(added.map((e) => e.text)).toEqual(['Unsubscribe']);
    expect(added[0].index).toBeGreaterThan(Math.max(...first.map((e) => e.index)));
    await host.call('web.click', { session: s, ref: inner.web_agent_id });
    expect((await host.call('web.snapshot', { session: s })).snapshot).toContain('inner clicked');
  });

  it('keeps password and payment values out of every format', async () => {
    const s = await open('/login');
    await host.call('web.fill', { session: s, selector: '#pw', text: 'hunter2' });
    await host.call('web.fill', { session: s, selector: '#card', text: '4111111111111111' });
    const outputs = await Promise.all((['indexed', 'elements_json', 'full_html'] as const).map((format) =>
      host.call('web.page_content', { session: s, format, max_chars: 100_000 }).then((r) => r.content as string)));
    expect(outputs[0]).toContain('<input name="user" value="ada">');
    for (const out of outputs) {
      for (const secret of ['hunter2', '4111111111111111', 'prefilled-secret']) expect(out).not.toContain(secret);
    }
  });
});

describe('acting by wa-N id', () => {
  it('fills by wa-N and clicks by wa-N', async () => {
    const s = await open('/app');
    const email = await query(s, { query: 'email field' });
    expect(email.matches.map((e) => e.attributes.name)).toEqual(['email']);
    expect(await host.call('web.fill', { session: s, ref: email.matches[0].web_agent_id, text: 'wa@x.test' })).toMatchObject({ value: 'wa@x.test' });
    const button = await host.call('web.find_by_text', { session: s, text: 'Subscribe', exact: true }) as Matches;
    await host.call('web.click', { session: s, ref: button.matches[0].web_agent_id });
    expect((await host.call('web.extract', { session: s, selector: '#done' })).items).toEqual([{ text: 'Subscribed: wa@x.test' }]);
  });

  it('an id whose element is gone is stale_ref, saying to call web.page_content again', async () => {
    const s = await open('/app');
    const vanish = (await host.call('web.find_by_text', { session: s, text: 'vanish' }) as Matches).matches[0].web_agent_id;
    await host.call('web.click', { session: s, ref: vanish });
    const err = await host.call('web.click', { session: s, ref: vanish }).catch((e) => e);
    expect(err).toMatchObject({ code: 'stale_ref' });
    expect(err.message).toMatch(/no longer on the page.*web\.page_content/);
  });

  it('an id from before a navigation is stale_ref, even when the new page is numbered too', async () => {
    const s = await open('/app');
    const home = (await query(s, { query: 'the first link' })).matches[0];
    expect(home.text).toBe('Home');
    await host.call('web.navigate', { session: s, url: at('/next') });
    const err = await host.call('web.click', { session: s, ref: home.web_agent_id }).catch((e) => e);
    expect(err).toMatchObject({ code: 'stale_ref' });
    expect(err.message).toMatch(/navigated since the last web\.page_content/);
    const fresh = await query(s, {});
    expect(fresh.matches.map((e) => e.web_agent_id)).not.toContain(home.web_agent_id);
    const err2 = await host.call('web.click', { session: s, ref: home.web_agent_id }).catch((e) => e);
    expect(err2).toMatchObject({ code: 'stale_ref' });
  });
});

describe('web.query_elements and web.find_by_text', () => {
  it('reads ordinals, pagination, next/last and quoted text deterministically', async () => {
    const s = await open('/mixed');
    const cases: Array<[string, string[]]> = [
      ['Find the 3rd page button', ['3']],
      ['page 4', ['4']],
      ['Find the next page button', ['Next ›']],
      ['last page', ['Last']],
      ['the second link', ['1']],
      ['the 3rd link', ['2']],
      ['Find the last button', ['Role button']],
      ['first button', ['Plain button']],
      ["Find link with text 'Docs'", ['Docs']],
      ['the search field', ['']],
      ['dropdown', ['S']],
    ];
    for (const [q, want] of cases) expect([q, texts(await query(s, { query: q }))]).toEqual([q, want]);
    const r = await query(s, { query: 'Find the 3rd page button' });
    expect(r.interpretation).toMatch(/pagination control labelled 3/);
    expect(r.matches[0]).toMatchObject({ tag: 'a', attributes: { href: '/list?page=3' } });
    const unknown = await query(s, { query: 'all zebra links' });
    expect(unknown.note).toMatch(/"zebra".*ignored/);
    expect(unknown.total).toBe(7);
  });

  it('filters by tag, href pattern, text, regex and id range, with a limit', async () => {
    const s = await open('/mixed');
    expect(texts(await query(s, { filters: { tag: 'a', href_pattern: '*page=*' } }))).toEqual(['1', '2', '3', '4', 'Next ›', 'Last']);
    expect(texts(await query(s, { filters: { href_pattern: 'list?page=?' } }))).toEqual(['1', '2', '3', '4', 'Next ›', 'Last']);
    expect(texts(await query(s, { filters: { href_pattern: '/docs' } }))).toEqual(['Docs']);
    expect(texts(await query(s, { filters: { text_contains: 'BUTTON' } }))).toEqual(['Plain button', 'Role button']);
    expect(texts(await query(s, { filters: { text_matches: '^\\d$' } }))).toEqual(['1', '2', '3', '4']);
    expect(texts(await query(s, { filters: { id_range: [9, 11] } }))).toEqual(['1', '2', '3']);
    const limited = await query(s, { filters: { tag: 'a' }, limit: 2 });
    expect([limited.count, limited.total, texts(limited)]).toEqual([2, 7, ['Docs', '1']]);
    expect(texts(await query(s, { query: 'the last link', filters: { id_range: [0, 10] } }))).toEqual(['2']);
    await expect(query(s, { filters: { text_matches: '(' } })).rejects.toMatchObject({ code: 'invalid_params' });
  });

  it('find_by_text matches partially by default and whole text with exact', async () => {
    const s = await open('/mixed');
    const partial = await host.call('web.find_by_text', { session: s, text: 'button' }) as Matches;
    expect(texts(partial)).toEqual(['Plain button', 'Role button']);
    const exact = await host.call('web.find_by_text', { session: s, text: 'Role button', exact: true }) as Matches;
    expect(texts(exact)).toEqual(['Role button']);
    expect((await host.call('web.find_by_text', { session: s, text: 'role', exact: true }) as Matches).count).toBe(0);
    expect(texts(await host.call('web.find_by_text', { session: s, text: 'search docs' }) as Matches)).toEqual(['']);
  });
});
