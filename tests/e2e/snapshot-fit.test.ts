// A compact view longer than its budget, through the real stack: the answer
// keeps what the agent acts on (the main content's form, its headings) and a
// ref for every element, links as ref lists; past that it folds the page's
// menus, asides and footer into one line each that says what they hold and
// how to open them; opening one gives refs that act. A page far past the
// budget still answers within it, in parts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';

const links = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `<li><a href="/${prefix}/${i}">${prefix} topic number ${i}</a></li>`).join('');
const BIG = html(`<header><nav aria-label="Sections"><ul>${links('section', 700)}</ul></nav></header>
  <main><h1>Contact us</h1><p>Write to us and we answer within a day.</p>
    <form onsubmit="return false"><label>Email <input id="email"></label><label>Message <textarea id="msg"></textarea></label><button type="submit">Send</button></form>
    <h2>Recent answers</h2><ul>${links('answer', 10)}</ul></main>
  <aside><h2>Popular</h2><ul>${links('popular', 150)}</ul></aside>
  <footer><ul>${links('footer', 200)}</ul></footer>`);
const HUGE = html(`<main><h1>Archive</h1><ul>${links('archive', 7000)}</ul></main>`);

let site: FixtureServer;
let host: Host;
let requests: string[] = [];
const at = (path: string) => site.url('fit.test', path);

beforeAll(async () => {
  site = await serve({
    '/big': (_q, res) => send(res, BIG),
    '/huge': (_q, res) => send(res, HUGE),
    '/section/7': (req, res) => { requests.push(req.url!); send(res, html('<h1>Section seven</h1>')); },
  });
  host = testHost(testConfig({ network: { resolve: { 'fit.test': '127.0.0.1' } } }));
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

const refAfter = (text: string, name: string) => new RegExp(`"${name}" \\[ref=(e\\d+)\\]`).exec(text)?.[1] ?? new RegExp(`(?<=^|[\\s:,])(e\\d+) "${name}"`, 'm').exec(text)?.[1];

/** Every ref an answer prints: on element lines (`[ref=e12]`) and in ref lists (`e12 Home · e13,e14 World`). */
const refsIn = (text: string) => new Set([...text.matchAll(/\[ref=(e\d+)\]|(?<=^ *- (?:links|elements): (?:.* )?|,)(e\d+)(?=[ ,])/gm)].map((m) => m[1] ?? m[2]));

describe('web.snapshot past its budget', () => {
  it('keeps every element\'s ref: the form as it is, links as ref lists that act', async () => {
    const { session } = await host.call('web.open', { url: at('/big') });
    const whole = await host.call('web.snapshot', { session, max_chars: 1_000_000 });
    expect(whole.truncated).toBe(false);
    const all = refsIn(whole.snapshot as string);
    expect(all.size).toBeGreaterThan(1060);
    expect((whole.snapshot as string).length).toBeGreaterThan(32_000);
    const r = await host.call('web.snapshot', { session });
    const text = r.snapshot as string;
    expect(r.truncated).toBe(true);
    expect(text.length).toBeLessThanOrEqual(32_000);
    // Links were ref first before the cut; it shortens their names, then lists the rest as `ref name` if need be.
    expect(text.split('\n')[0]).toMatch(/^# cut to fit max_chars: running text left out, (link names shortened|.*elements listed as "ref name")/);
    expect(text).not.toContain('folded');
    expect(refsIn(text)).toEqual(all);
    for (const line of ['- h1 "Contact us"', '- h2 "Recent answers"']) expect(text).toContain(line);
    expect(text).toMatch(/- textbox "Email" \[ref=e\d+\]/);
    expect(text).toMatch(/- button "Send" \[ref=e\d+\]/);
    // A ref from a list acts on its element.
    const seven = refAfter(whole.snapshot as string, 'section topic number 7')!;
    expect(text).toMatch(new RegExp(`(^|[ ,])${seven} "section`, 'm'));
    requests = [];
    await host.call('web.click', { session, ref: seven, wait_until: 'load' });
    expect(requests).toEqual(['/section/7']);
  });

  it('past the ref lists, folds footer and aside into a line each and cuts the menu after the refs that fit, each fold naming the ref that opens it; the form stays', async () => {
    const { session } = await host.call('web.open', { url: at('/big') });
    const whole = await host.call('web.snapshot', { session, max_chars: 1_000_000 });
    const r = await host.call('web.snapshot', { session, max_chars: 6_000 });
    const text = r.snapshot as string;
    expect(r.truncated).toBe(true);
    expect(text.length).toBeLessThanOrEqual(6_000);
    expect(text.split('\n')[0]).toMatch(/^# cut to fit max_chars: .*2 regions folded to a count, 1 region cut after its first lines, \d+ refs left out/);
    expect(text).toMatch(/- textbox "Email" \[ref=e\d+\]/);
    expect(text).toMatch(/- textbox "Message" \[ref=e\d+\]/);
    expect(text).toMatch(/- button "Send" \[ref=e\d+\]/);
    // The main content's links keep their refs.
    for (let i = 0; i < 10; i++) expect(refsIn(text)).toContain(refAfter(whole.snapshot as string, `answer topic number ${i}`));
    // The menu keeps its first links; one line says how many more there are, their ref span, and the ref that opens the menu.
    const nav = /^ *- … the rest: (\d+) links, (e\d+)–(e\d+) \(folded: \{"ref":"(e\d+)"\} opens the region\)$/m.exec(text);
    expect(nav).not.toBeNull();
    expect(refsIn(text)).toContain(refAfter(whole.snapshot as string, 'section topic number 0'));
    expect(refsIn(text)).not.toContain(refAfter(whole.snapshot as string, 'section topic number 699'));
    expect(nav![3]).toBe(refAfter(whole.snapshot as string, 'section topic number 699'));
    expect(text).toMatch(/- contentinfo \(200 links; folded: \{"ref":"e\d+"\} opens it\)/);
    expect(text).toMatch(/- complementary \(150 links, 1 heading; folded: \{"ref":"e\d+"\} opens it\)/);
    // The form's refs act.
    const email = /- textbox "Email" \[ref=(e\d+)\]/.exec(text)![1];
    await host.call('web.fill', { session, ref: email, text: 'ada@example.test' });
    const opened = await host.call('web.snapshot', { session, ref: nav![4], max_chars: 100_000 });
    expect(opened.truncated).toBe(false);
    expect(opened.snapshot).not.toContain('Contact us');
    expect(refsIn(opened.snapshot as string).size).toBe(700);
    const seven = refAfter(opened.snapshot as string, 'section topic number 7');
    expect(seven).toBe(refAfter(whole.snapshot as string, 'section topic number 7'));
    requests = [];
    await host.call('web.click', { session, ref: seven, wait_until: 'load' });
    expect(requests).toEqual(['/section/7']);
  });

  it('a page ten times past the budget still answers within it, in parts that name the next', async () => {
    const { session } = await host.call('web.open', { url: at('/huge') });
    const r = await host.call('web.snapshot', { session });
    expect(r.total_chars as number).toBeGreaterThan(240_000);
    expect((r.snapshot as string).length).toBeLessThanOrEqual(32_000);
    expect(r).toMatchObject({ truncated: true, page: 1 });
    expect(r.snapshot).toContain('- h1 "Archive"');
    expect((r.snapshot as string).split('\n').at(-1)).toContain('{"page":2}');
  });
});
