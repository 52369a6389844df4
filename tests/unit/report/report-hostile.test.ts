// chain → report: a chain written by a stranger (markup in every string,
// fields of the wrong type, screenshot paths pointing out of the workspace)
// renders as text. The HTML is parsed back and checked: no element or
// attribute came from data, wrong-typed entries are listed as invalid, only
// files inside the workspace are embedded. Also: "decided by" only where a
// policy decided, and what the plan returned.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHTML } from 'linkedom';
import { beforeAll, describe, expect, it } from 'vitest';
import { collectReport } from '../../../host/report/collect.js';
import { renderReport } from '../../../host/report/html.js';
import { el } from '../../../host/report/html-printer.js';
import { tempDir } from '../../helpers/host.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const OUTSIDE_BYTES = Buffer.concat([PNG, Buffer.from('OUTSIDE-SECRET-PIXELS')]);
const allowed = (policy: string) => ({ decision: 'allowed', policy, reason: null });

let ws: string;
let chain: string;
let html: string;
let doc: Document;

beforeAll(() => {
  const dir = tempDir('webcap-report-hostile-');
  ws = join(dir, 'ws');
  const far = tempDir('webcap-report-outside-');
  mkdirSync(join(ws, 'report'), { recursive: true });
  writeFileSync(join(ws, 'report', 'good.png'), PNG);
  writeFileSync(join(far, 'shot.png'), OUTSIDE_BYTES);
  symlinkSync(join(far, 'shot.png'), join(ws, 'report', 'leak.png'));
  symlinkSync(far, join(ws, 'report-link'));
  let seq = 0;
  const entry = (e: Record<string, unknown>) => JSON.stringify({
    seq: ++seq, ts: '2026-11-25T10:00:00.000Z', plan_id: 'plan-1', session: 's1', capability: null, params: null, decision: null, decisions: [],
    result: null, error: null, duration_ms: 3, prev_hash: '0', hash: '0', ...e,
  });
  const lines = [
    entry({ kind: 'call', capability: 'web.open', params: { url: 'http://shop.test/<script>alert(1)</script>' }, decision: allowed('budget'), decisions: [allowed('allowlist'), allowed('budget')], result: { session: 's1', title: '<img src=x onerror=alert(1)>' } }),
    entry({ kind: 'event', result: { event: 'step_screenshot', path: join(ws, 'report', 'good.png') } }),
    entry({ kind: 'consent', capability: 'web.click', params: { origin: '"><script>alert(2)</script>', reason: 'form_submit' }, decision: { decision: 'approved', policy: 'consent', reason: '<b onmouseover=alert(2)>' } }),
    entry({ kind: 'call', capability: 'web.click', params: { selector: '<svg onload=alert(3)>' }, decision: allowed('consent'), decisions: [allowed('allowlist'), allowed('budget'), { decision: 'allowed', policy: 'consent', reason: 'approved by the user' }], result: {} }),
    entry({ kind: 'event', result: { event: 'step_screenshot', path: '/etc/passwd' } }),
    entry({ kind: 'call', capability: 'web.scroll', params: { by: 100 }, decisions: [allowed('budget')], result: {} }),
    entry({ kind: 'event', result: { event: 'step_screenshot', path: join(ws, 'report', 'leak.png') } }),
    entry({ kind: 'call', capability: 'web.wait', params: { time: 1 }, decisions: [allowed('budget')], result: {} }),
    entry({ kind: 'event', result: { event: 'step_screenshot', path: join(ws, 'report-link', 'shot.png') } }),
    entry({ kind: 'call', capability: 'web.fill', params: { selector: '#q' }, decision: { decision: 'denied', policy: 'allowlist', reason: '<a href=javascript:alert(5)>x</a>' }, error: { code: 'not_allowlisted', message: '<iframe src=javascript:alert(4)>' } }),
    // Wrong types: each is left out and listed.
    entry({ kind: 'call', capability: { toString: '<script>alert(6)</script>' }, result: {} }),
    entry({ kind: 'call', capability: 'web.url', error: '<script>alert(7)</script>' }),
    entry({ kind: 'call', capability: 'web.url', duration_ms: '<script>alert(8)</script>', result: {} }),
    entry({ kind: 'call', capability: 'web.url', decisions: [{ decision: 1, policy: '<script>' }], result: {} }),
    entry({ kind: 'plan', result: { event: 'plan_finished', returned: { title: '<script>alert(9)</script>', n: 2 } } }),
  ];
  chain = join(dir, 'chain.jsonl');
  writeFileSync(chain, `${lines.join('\n')}\n`);
  html = renderReport(collectReport(chain, { planId: 'plan-1' }, ws));
  doc = parseHTML(html).document as unknown as Document;
});

describe('chain → report', () => {
  it('has no executable or injected markup: every element and attribute is the report\'s own', () => {
    expect(doc.querySelectorAll('script, iframe, svg, object, embed, a, form, base, link').length).toBe(0);
    // <b> is the report's own label element: each holds one of its fixed labels or a count.
    expect([...doc.querySelectorAll('b')].every((b) => /^(asked:|answer:|healed:|blocked requests:|screenshot not embedded:|\d+)$/.test(b.textContent!))).toBe(true);
    const attributes = new Set<string>();
    for (const node of doc.querySelectorAll('*')) for (const a of [...node.attributes]) attributes.add(a.name);
    expect([...attributes].filter((a) => a.startsWith('on'))).toEqual([]);
    expect([...attributes].sort()).toEqual(['alt', 'charset', 'class', 'content', 'data-plan', 'data-step', 'http-equiv', 'lang', 'src'].sort());
    expect([...doc.querySelectorAll('[src]')].map((i) => i.getAttribute('src')!.slice(0, 22))).toEqual(['data:image/png;base64,']);
  });

  it('shows the hostile strings as text', () => {
    const text = doc.body.textContent!;
    expect(text).toContain('http://shop.test/<script>alert(1)</script>');
    expect(text).toContain('<svg onload=alert(3)>');
    expect(text).toContain('<iframe src=javascript:alert(4)>');
    expect(text).toContain('"><script>alert(2)</script>');
  });

  it('lists wrong-typed entries as invalid, naming the field and not the value', () => {
    const items = [...doc.querySelectorAll('ul.invalid li')].map((li) => li.textContent!);
    expect(items).toHaveLength(4);
    expect(items.join('\n')).toMatch(/#11 .*field "capability"/);
    expect(items.join('\n')).toMatch(/#12 .*field "error"/);
    expect(items.join('\n')).toMatch(/#13 .*field "duration_ms"/);
    expect(items.join('\n')).toMatch(/#14 .*field "decisions"/);
    expect(items.join('\n')).not.toContain('alert');
    expect(doc.querySelectorAll('tr.step').length).toBe(5);
  });

  it('embeds only screenshots inside the workspace: /etc/passwd, a link out and a folder link out are named, not embedded', () => {
    const shots = [...doc.querySelectorAll('tr.step')].map((tr) => (tr.querySelector('img') ? 'embedded' : /not embedded: (.*)/.exec(tr.textContent!)?.[1] ?? '-'));
    expect(shots[0]).toBe('embedded');
    expect(shots[1]).toMatch(/\/etc\/passwd \(not a \.png/);
    expect(shots[2]).toMatch(/leak\.png \(not a plain file/);
    expect(shots[3]).toMatch(/report-link\/shot\.png \(outside the workspace\)/);
    expect(html).not.toContain(OUTSIDE_BYTES.toString('base64').slice(8));
  });

  it('says which policy decided only where one did, and what the plan returned', () => {
    const decided = [...doc.querySelectorAll('tr.step td.decided')].map((td) => td.textContent);
    expect(decided).toEqual(['', 'approved by consent: approved by the user', '', '', 'denied by allowlist: <a href=javascript:alert(5)>x</a>']);
    expect(doc.querySelector('li.plan[data-plan="plan-1"] code.returned')!.textContent).toBe('{"title":"<script>alert(9)</script>","n":2}');
  });
});

describe('the HTML printer', () => {
  it('refuses script elements and event-handler attributes, and escapes attribute values', () => {
    expect(() => el('script', {}, 'x')).toThrow(/not allowed/);
    expect(() => el('img', { onerror: 'x' })).toThrow(/not allowed/);
    expect(() => el('div', { 'x"><script': 'y' })).toThrow(/not allowed/);
    expect(el('div', { title: '"><script>' }, '<b>').html).toBe('<div title="&quot;&gt;&lt;script&gt;">&lt;b&gt;</div>');
  });
});
