// Visible elements one can act on that the accessibility tree hides — inside
// aria-hidden content, or a plain element role=none takes out of the tree —
// keep a ref in the default snapshot, say that they are hidden, carry the
// name they would have outside it, and act by that ref. An invisible one gets none.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';

let site: FixtureServer;
let host: Host;
let hits: string[] = [];
const at = (path: string) => site.url('hidden.test', path);

const PAGE = html(`<h1>Menu</h1>
  <div aria-hidden="true" class="drawer">
    <a href="/closed" aria-label="Close the menu"><svg width="16" height="16"><rect width="16" height="16"/></svg></a>
    <a href="/about">About us</a>
    <button onclick="document.getElementById('out').textContent='hidden button pressed'">Press</button>
  </div>
  <div aria-hidden="true" style="display:none"><a href="/never">Never shown link</a></div>
  <div aria-hidden="true"><a href="/gone" style="visibility:hidden">Invisible by style</a></div>
  <span role="none" style="cursor:pointer" onclick="document.getElementById('out').textContent='span pressed'">Presentational action</span>
  <a href="/about">Visible about</a>
  <p id="out">idle</p>`);

beforeAll(async () => {
  site = await serve({
    '/menu': (_q, res) => send(res, PAGE),
    '/closed': (q, res) => { hits.push(q.url ?? ''); send(res, html('<h1>Closed</h1>')); },
  });
  host = testHost(testConfig({ network: { resolve: { 'hidden.test': '127.0.0.1' } } }));
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

/** The ref printed beside `"name"`: on its own line (`"name" [aria-hidden] [ref=e3]`) or first in a list (`e3 [aria-hidden] "name"`). */
function refBeside(snapshot: string, name: string): string | undefined {
  const quoted = JSON.stringify(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`${quoted}((?: \\[[^\\]]*\\])*) \\[ref=([^\\]]+)\\]`).exec(snapshot)?.[2]
    ?? new RegExp(`(?<=^|[\\s:])((?:f\\d+)?e\\d+)(?:,\\S+?)?((?: \\[[^\\]]*\\])*) ${quoted}`, 'm').exec(snapshot)?.[1];
}

describe('web.snapshot: elements the accessibility tree hides', () => {
  it('a visible link under aria-hidden gets a ref, says [aria-hidden], carries its own label as name, and is clicked by that ref', async () => {
    const { session } = await host.call('web.open', { url: at('/menu') });
    const r = (await host.call('web.snapshot', { session })) as { snapshot: string; refs: number };
    const close = refBeside(r.snapshot, 'Close the menu'); // the tree alone names it "": the label comes from the page
    expect(close).toMatch(/^e\d+$/);
    for (const name of ['Close the menu', 'About us', 'Press']) {
      const line = r.snapshot.split('\n').find((l) => l.includes(JSON.stringify(name)))!;
      expect(line).toMatch(new RegExp(`\\[aria-hidden\\][^"]*${JSON.stringify(name)}|${JSON.stringify(name)} \\[aria-hidden\\]`));
    }
    // The link outside aria-hidden content is not marked.
    expect(r.snapshot).toMatch(/(e\d+ "Visible about"|"Visible about" \[ref=e\d+\])/);
    await host.call('web.click', { session, ref: close });
    expect((await host.call('web.url', { session })).url).toBe(at('/closed'));
    expect(hits).toEqual(['/closed']);
  });

  it('a hidden button acts by its ref; an element role=none takes out of the tree acts by its wa- id', async () => {
    const { session } = await host.call('web.open', { url: at('/menu') });
    const r = (await host.call('web.snapshot', { session })) as { snapshot: string };
    await host.call('web.click', { session, ref: refBeside(r.snapshot, 'Press') });
    expect((await host.call('web.extract', { session, selector: '#out' })).items).toEqual([{ text: 'hidden button pressed' }]);
    const span = refBeside(r.snapshot, 'Presentational action');
    expect(span).toMatch(/^wa-\d+$/);
    await host.call('web.click', { session, ref: span });
    expect((await host.call('web.extract', { session, selector: '#out' })).items).toEqual([{ text: 'span pressed' }]);
  });

  it('an invisible link under aria-hidden gets no ref and no line', async () => {
    const { session } = await host.call('web.open', { url: at('/menu') });
    const r = (await host.call('web.snapshot', { session })) as { snapshot: string };
    expect(r.snapshot).not.toContain('Never shown link');
    expect(r.snapshot).not.toContain('Invisible by style');
  });
});
