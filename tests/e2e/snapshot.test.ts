// web.snapshot through the real stack, and acting on its refs: modes, iframes,
// the size budget, diffs, and stale refs that say to take a new snapshot.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';
import { agentRoutes } from '../fixtures/agent-pages.js';
import { refsInView } from '../../sidecar/snapshot/link-runs.js';

let site: FixtureServer;
let host: Host;
const at = (path: string) => site.url('agent.test', path);

beforeAll(async () => {
  site = await serve(agentRoutes);
  host = testHost(testConfig({ browser: { max_concurrent_sessions: 20 }, network: { resolve: { 'agent.test': '127.0.0.1' } } }));
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

/** The ref of `"name"` anywhere in a compact view: `"name" [ref=e3]` on its own line, `e3 "name"` in a `- links:` line. */
function compactRef(snapshot: string, name: string): string {
  const quoted = JSON.stringify(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const ref = new RegExp(`${quoted}(?: \\[[^\\]]*\\])* \\[ref=([^\\]]+)\\]`).exec(snapshot)?.[1]
    ?? new RegExp(`(?<=^|[\\s:])((?:f\\d+)?e\\d+)(?:,(?:f\\d+)?e\\d+)*(?: \\[[^\\]]*\\])* ${quoted}`, 'm').exec(snapshot)?.[1];
  if (!ref) throw new Error(`no ref for ${name} in:\n${snapshot}`);
  return ref;
}

/** The ref printed on the line that starts with `key` (e.g. `button "Subscribe"`). */
function refOf(snapshot: string, key: string): string {
  const line = snapshot.split('\n').find((l) => l.trimStart().startsWith(`- ${key} `));
  const ref = line && /\[ref=([^\]]+)\]/.exec(line)?.[1];
  if (!ref) throw new Error(`no ref for ${key} in:\n${snapshot}`);
  return ref;
}

async function openApp() {
  const { session } = await host.call('web.open', { url: at('/app') });
  await host.call('web.wait', { session, network: 'idle' });
  return session as string;
}

async function snap(session: string, params: Record<string, unknown> = {}) {
  return host.call('web.snapshot', { session, ...params }) as Promise<{ snapshot: string } & Record<string, unknown>>;
}

describe('web.snapshot', () => {
  it('compact by default: a line and a ref per actionable element, headings and sections, text cut to a first line, no URLs', async () => {
    const s = await openApp();
    const r = await snap(s);
    const full = await snap(s, { mode: 'full' });
    expect(r).toMatchObject({ title: 'Newsletter', mode: 'compact', truncated: false });
    expect(r.snapshot).toContain('- h1 "Newsletter"');
    expect(r.snapshot).not.toContain('/url:');
    expect(r.snapshot).not.toContain('paragraph');
    for (const [role, name] of [['link', 'Home'], ['link', 'Next page'], ['textbox', 'Email'], ['button', 'Subscribe'], ['button', 'Vanish'], ['button', 'Inner action'], ['link', 'Inner link']]) {
      expect(compactRef(r.snapshot, name)).toBe(refOf(full.snapshot, `${role} "${name}"`));
    }
    expect(r.snapshot.length).toBeLessThan(full.snapshot.length);
    // Acting on a compact ref works like any other.
    await host.call('web.fill', { session: s, ref: compactRef(r.snapshot, 'Email'), text: 'compact@x.test' });
    await host.call('web.click', { session: s, ref: compactRef(r.snapshot, 'Subscribe') });
    expect((await host.call('web.extract', { session: s, selector: '#done' })).items).toEqual([{ text: 'Subscribed: compact@x.test' }]);
  });

  it('compact lists what the tree cannot show as actionable (a handler on a plain div) by wa- id, and those ids act', async () => {
    const { session: s } = await host.call('web.open', { url: at('/handlers') });
    const r = await snap(s as string);
    expect(r.snapshot).toContain('- not in the accessibility tree');
    const tile = compactRef(r.snapshot, 'Open the tile');
    expect(tile).toMatch(/^wa-\d+$/);
    // In the tree (aria-hidden content included): their own aria refs, not listed twice.
    for (const name of ['Hidden from the tree', 'Docs']) {
      expect(compactRef(r.snapshot, name)).toMatch(/^e\d+$/);
      expect(r.snapshot.split(JSON.stringify(name))).toHaveLength(2);
    }
    await host.call('web.click', { session: s, ref: tile });
    expect((await host.call('web.extract', { session: s, selector: '#out' })).items).toEqual([{ text: 'tile clicked' }]);
  });

  it('full mode: the role tree with a ref on every element one can act on, iframe content included', async () => {
    const s = await openApp();
    const r = await snap(s, { mode: 'full' });
    expect(r).toMatchObject({ title: 'Newsletter', mode: 'full', truncated: false });
    expect(r.snapshot).toContain('heading "Newsletter" [level=1]');
    expect(r.snapshot).toContain('paragraph');
    for (const key of ['link "Home"', 'link "Next page"', 'textbox "Email"', 'button "Subscribe"', 'button "Vanish"']) {
      expect(refOf(r.snapshot, key)).toMatch(/^e\d+$/);
    }
    expect(refOf(r.snapshot, 'button "Inner action"')).toMatch(/^f\d+e\d+$/);
    expect(refOf(r.snapshot, 'link "Inner link"')).toMatch(/^f\d+e\d+$/);
    expect(r.refs).toBeGreaterThanOrEqual(7);
  });

  it('interactive mode keeps only what one can act on, iframes included, and is smaller', async () => {
    const s = await openApp();
    const full = await snap(s, { mode: 'full' });
    const only = await snap(s, { mode: 'interactive' });
    expect(only.snapshot).not.toContain('heading');
    expect(only.snapshot).not.toContain('paragraph');
    for (const key of ['link "Home"', 'textbox "Email"', 'button "Subscribe"', 'button "Inner action"']) {
      expect(refOf(only.snapshot, key)).toBe(refOf(full.snapshot, key));
    }
    expect(only.snapshot).toContain('/url: /next');
    expect(only.snapshot.length).toBeLessThan(full.snapshot.length);
  });

  it('scoped to a selector shows that part only, and refs outside it keep working', async () => {
    const s = await openApp();
    const full = await snap(s);
    const nav = await snap(s, { selector: 'nav' });
    expect(compactRef(nav.snapshot, 'Home')).toBe(compactRef(full.snapshot, 'Home'));
    expect(nav.snapshot).not.toContain('Subscribe');
    await host.call('web.fill', { session: s, ref: refOf(full.snapshot, 'textbox "Email"'), text: 'scoped@x.test' });
    await host.call('web.click', { session: s, ref: refOf(full.snapshot, 'button "Subscribe"') });
    expect((await host.call('web.extract', { session: s, selector: '#done' })).items).toEqual([{ text: 'Subscribed: scoped@x.test' }]);
  });

  it('a selector that matches nothing is selector_not_found', async () => {
    const s = await openApp();
    await expect(host.call('web.snapshot', { session: s, selector: '#nope', timeout: 300 })).rejects.toMatchObject({ code: 'selector_not_found' });
  });

  it('clicks by ref in the page and inside the iframe; the same element keeps its ref', async () => {
    const s = await openApp();
    const before = await snap(s);
    const subscribe = refOf(before.snapshot, 'button "Subscribe"');
    await host.call('web.click', { session: s, ref: subscribe });
    await host.call('web.click', { session: s, ref: refOf(before.snapshot, 'button "Inner action"') });
    const after = await snap(s);
    expect(after.snapshot).toContain('inner clicked');
    expect(refOf(after.snapshot, 'button "Unsubscribe"')).toMatch(/^e\d+$/);
    expect(refOf(after.snapshot, 'button "Subscribe"')).toBe(subscribe);
  });

  it('after a navigation main-frame refs stay bare (e…) and act; only iframe refs carry an f prefix', async () => {
    const s = await openApp();
    await host.call('web.navigate', { session: s, url: at('/next') });
    await host.call('web.navigate', { session: s, url: at('/app') });
    await host.call('web.wait', { session: s, network: 'idle' });
    const full = await snap(s, { mode: 'full' });
    const subscribe = refOf(full.snapshot, 'button "Subscribe"');
    const inner = refOf(full.snapshot, 'button "Inner action"');
    expect(subscribe).toMatch(/^e\d+$/);
    expect(inner).toMatch(/^f\d+e\d+$/);
    // Every prefixed ref is the iframe's: none of the main frame's carries one.
    expect(new Set(full.snapshot.match(/\[ref=f\d+e/g))).toEqual(new Set([`[ref=${inner.replace(/e\d+$/, '')}e`]));
    await host.call('web.click', { session: s, ref: subscribe });
    await host.call('web.click', { session: s, ref: inner });
    const after = await snap(s);
    expect(after.snapshot).toContain('button "Unsubscribe"');
    expect(after.snapshot).toContain('inner clicked');
  });

  it('acts by role + name too, and refuses two ways of naming one element', async () => {
    const s = await openApp();
    await host.call('web.fill', { session: s, role: 'textbox', name: 'Email', text: 'role@x.test' });
    await host.call('web.click', { session: s, role: 'button', name: 'Subscribe' });
    expect((await host.call('web.extract', { session: s, selector: '#done' })).items).toEqual([{ text: 'Subscribed: role@x.test' }]);
    await expect(host.call('web.click', { session: s, ref: 'e1', selector: '#subscribe' })).rejects.toMatchObject({ code: 'invalid_params' });
    await expect(host.call('web.click', { session: s, name: 'Subscribe' })).rejects.toMatchObject({ code: 'invalid_params' });
    await expect(host.call('web.click', { session: s })).rejects.toMatchObject({ code: 'invalid_params' });
    await expect(host.call('web.click', { session: s, ref: 'button-1' })).rejects.toMatchObject({ code: 'invalid_params' });
    const notAField = await host.call('web.fill', { session: s, role: 'button', name: 'Vanish', text: 'x' }).catch((e) => e);
    expect(notAField).toMatchObject({ code: 'invalid_params', message: 'role=button[name="Vanish"] is a <button>, not a field web.fill can type into' });
  });

  it('diff: only what changed since the previous snapshot of the page; none; a navigation gives the full tree', async () => {
    const s = await openApp();
    await snap(s, { mode: 'interactive' });
    await host.call('web.click', { session: s, selector: '#subscribe' });
    const d = await snap(s, { mode: 'interactive', diff: true });
    // The click focused Subscribe ([active]) and added Unsubscribe: exactly that, nothing else.
    expect(d.diff).toEqual({ added: 2, removed: 1 });
    const changed = d.snapshot.split('\n').filter((l) => /^[+-] /.test(l));
    expect(changed).toEqual([
      expect.stringMatching(/^- - button "Subscribe" \[ref=e\d+\]$/),
      expect.stringMatching(/^\+ - button "Subscribe" \[active\] \[ref=e\d+\]$/),
      expect.stringMatching(/^\+ - button "Unsubscribe" \[ref=e\d+\]$/),
    ]);
    expect(d.snapshot).not.toContain('link "Home"'); // far from the change: elided
    expect(d.snapshot).toMatch(/… \d+ unchanged lines/);

    const same = await snap(s, { mode: 'interactive', diff: true });
    expect(same.snapshot).toBe('no changes since the previous snapshot');
    expect(same.diff).toEqual({ added: 0, removed: 0 });

    await host.call('web.click', { session: s, selector: 'text=Next page', wait_until: 'load' });
    const moved = await snap(s, { mode: 'interactive', diff: true });
    expect(moved.diff).toBeNull();
    expect(moved.note).toMatch(/navigated/);
    expect(moved.snapshot).toContain('button "Somewhere else"');
  });

  it('a view past max_chars comes in parts that name the next one, and together they hold every ref', async () => {
    const { session: s } = await host.call('web.open', { url: at('/long') });
    const whole = await snap(s as string, { max_chars: 1_000_000 });
    const first = await snap(s as string, { max_chars: 1000 });
    expect(first).toMatchObject({ truncated: true, page: 1 });
    const pages = first.pages as number;
    expect(pages).toBeGreaterThan(2);
    const refs = new Set<string>();
    for (let page = 1; page <= pages; page++) {
      const part = await snap(s as string, { max_chars: 1000, page });
      expect(part.snapshot.length).toBeLessThanOrEqual(1000);
      expect(part.snapshot.split('\n').at(-1)).toContain(page < pages ? `{"page":${page + 1}}` : 'the last part');
      // On element lines (`[ref=e12]`) and in link and ref lists (`- links: e12 "Post 1" · e13 "Post 2"`, tight: `e12 "Post…" e13 "…2"`).
      for (const ref of refsInView(part.snapshot)) refs.add(ref);
    }
    const all = new Set(refsInView(whole.snapshot));
    expect(all.size).toBeGreaterThanOrEqual(400);
    expect(refs).toEqual(all);
  });

  it('keeps to a small default budget and says where it cut; max_chars moves the cut', async () => {
    const { session: s } = await host.call('web.open', { url: at('/long') });
    const r = await snap(s as string, { mode: 'full' });
    expect(r.truncated).toBe(true);
    expect(r.snapshot.length).toBeLessThanOrEqual(12_000);
    expect(r.total_chars as number).toBeGreaterThan(12_000);
    expect(r.snapshot.split('\n').at(-1)).toMatch(/^\[truncated: showing \d+ of \d+ lines; the full text is \d+ chars\. .*max_chars.*\]$/);
    const small = await snap(s as string, { mode: 'full', max_chars: 1000 });
    expect(small.snapshot.length).toBeLessThanOrEqual(1000);
    expect(small.snapshot).toContain('[truncated:');
    const whole = await snap(s as string, { mode: 'full', max_chars: 1_000_000 });
    expect(whole.truncated).toBe(false);
    expect(whole.snapshot).toContain('link "Post number 400 in the archive"');
    expect(whole.snapshot).not.toContain('[truncated:');
  });

  it('never shows what is typed into password or payment fields', async () => {
    const { session: s } = await host.call('web.open', { url: at('/login') });
    await host.call('web.fill', { session: s, selector: '#pw', text: 'hunter2' });
    await host.call('web.fill', { session: s, selector: '#card', text: '4111111111111111' });
    const r = await snap(s as string);
    expect(r.snapshot).toMatch(/textbox "User" \[ref=e\d+\]: ada/);
    expect(r.snapshot).toMatch(/textbox "Password" \[ref=e\d+\]: \[REDACTED\]/);
    expect(r.snapshot).toMatch(/textbox "Card number" (\[active\] )?\[ref=e\d+\]: \[REDACTED\]/);
    for (const secret of ['hunter2', '4111111111111111', 'prefilled-secret']) expect(r.snapshot).not.toContain(secret);
  });

  it('a ref whose element is gone is stale_ref at once, saying to take a new snapshot', async () => {
    const s = await openApp();
    const vanish = refOf((await snap(s)).snapshot, 'button "Vanish"');
    await host.call('web.click', { session: s, ref: vanish });
    // The call's timeout (120 s) is longer than the test's: waiting it out fails the test.
    const err = await host.call('web.click', { session: s, ref: vanish, timeout: 120_000 }).catch((e) => e);
    expect(err).toMatchObject({ code: 'stale_ref' });
    expect(err.message).toMatch(/no longer on the page.*web\.snapshot/);
  });

  it('a ref from before a navigation is stale_ref naming the navigation', async () => {
    const s = await openApp();
    const email = refOf((await snap(s)).snapshot, 'textbox "Email"');
    await host.call('web.navigate', { session: s, url: at('/next') });
    const err = await host.call('web.fill', { session: s, ref: email, text: 'x' }).catch((e) => e);
    expect(err).toMatchObject({ code: 'stale_ref' });
    expect(err.message).toMatch(/navigated since the last web\.snapshot/);
    expect(err.message).toContain(at('/app'));
  });
});
