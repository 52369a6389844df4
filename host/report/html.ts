// The run report as ONE self-contained HTML file: inline CSS, screenshots as
// data: URIs, no script and no network. Everything shown comes from the
// checked report model (collect.ts) and is printed through the HTML printer,
// which escapes every string it did not write itself.
import { pathToFileURL } from 'node:url';
import { el, fragment, htmlDocument, type Child } from './html-printer.js';
import type { PlanOutcome, ReportData, ReportStep } from './collect.js';

const CSS = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;color:#1d232b;padding:0 1rem}
h1{font-size:1.4rem}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #dde2e8;vertical-align:top}
th{background:#f3f5f8}.ok{color:#17803d;font-weight:700}.bad{color:#c02b2b;font-weight:700}tr.failed{background:#fff4f4}
code{font:12px ui-monospace,monospace;background:#f3f5f8;padding:0 .25rem;border-radius:3px;word-break:break-all}
.note{font-size:12px;color:#4a5563}.note b{color:#1d232b}img.shot{max-width:100%;border:1px solid #ccd3db;margin:.4rem 0}
.summary{display:flex;gap:2rem;margin:1rem 0}.summary div{background:#f3f5f8;padding:.5rem 1rem;border-radius:6px}`;

const CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'";

export function renderReport(data: ReportData): string {
  const failed = data.steps.filter((s) => !s.ok).length;
  const heals = data.steps.reduce((n, s) => n + s.heals.length, 0);
  return htmlDocument(el('html', { lang: 'en' },
    el('head', {},
      el('meta', { charset: 'utf-8' }),
      el('meta', { 'http-equiv': 'Content-Security-Policy', content: CSP }),
      el('title', {}, `webcap run report — ${data.title}`),
      el('style', {}, CSS)),
    el('body', {},
      el('h1', {}, `webcap run report: ${data.title}`),
      el('p', { class: 'note' }, 'Causal chain ', el('code', {}, data.chainPath), data.started ? `, started ${data.started}` : '', '. Values are shown as the chain recorded them (redacted).'),
      el('div', { class: 'summary' },
        el('div', {}, el('b', {}, data.steps.length), ' steps'), el('div', { class: 'ok' }, `✓ ${data.steps.length - failed}`),
        el('div', { class: failed ? 'bad' : 'note' }, `✗ ${failed}`), el('div', {}, el('b', {}, heals), ' healed selectors')),
      el('table', {},
        el('thead', {}, el('tr', {}, ...['#', '', 'capability', 'target', 'ms', 'decided by', 'details'].map((h) => el('th', {}, h)))),
        el('tbody', {}, data.steps.map(row))),
      data.plans.length ? plans(data.plans) : null,
      data.invalid.length ? invalid(data) : null)));
}

function row(s: ReportStep) {
  const details: Child[] = [
    s.error ? el('div', { class: 'bad' }, s.error) : null,
    s.consent.map((c) => el('div', { class: 'note' }, el('b', {}, 'asked:'), ` ${c.question} — `, el('b', {}, 'answer:'), ` ${c.answer}`)),
    s.heals.map((h) => el('div', { class: 'note' }, el('b', {}, 'healed:'), ' ', el('code', {}, h.from), ' → ', el('code', {}, h.to), ` (${h.feature})`)),
    s.blocked.length ? el('div', { class: 'note' }, el('b', {}, 'blocked requests:'), s.blocked.map((b) => fragment(' ', el('code', {}, b)))) : null,
    s.trace ? el('div', { class: 'note' }, el('b', {}, 'trace:'), ' ', el('a', { href: pathToFileURL(s.trace).href }, el('code', {}, s.trace)), ' — open it with ', el('code', {}, `npx playwright show-trace ${s.trace}`)) : null,
    s.traceNote ? el('div', { class: 'note' }, el('b', {}, 'trace:'), ` ${s.traceNote}`) : null,
    image(s),
  ];
  return el('tr', { class: s.ok ? 'step' : 'step failed', 'data-step': s.n },
    el('td', {}, s.n), el('td', { class: s.ok ? 'ok' : 'bad' }, s.ok ? '✓' : '✗'), el('td', {}, el('code', {}, s.capability)),
    el('td', {}, el('code', {}, s.target ?? '')), el('td', {}, s.ms ?? ''), el('td', { class: 'decided' }, s.decided_by ?? ''), el('td', {}, details));
}

function image(s: ReportStep) {
  const shot = s.screenshot;
  if (!shot) return null;
  if (!shot.base64) return el('div', { class: 'note' }, el('b', {}, 'screenshot not embedded:'), ' ', el('code', {}, shot.path), ` (${shot.not_embedded})`);
  return el('img', { class: 'shot', alt: `step ${s.n} screenshot`, src: `data:${shot.type};base64,${shot.base64}` });
}

function plans(list: PlanOutcome[]) {
  return fragment(el('h2', {}, 'What each plan returned'), el('ul', { class: 'plans' }, list.map((p) => el('li', { class: p.ok ? 'plan ok' : 'plan bad', 'data-plan': p.plan_id },
    el('code', {}, p.plan_id), p.ok ? fragment(' returned ', el('code', { class: 'returned' }, p.returned ?? 'null')) : fragment(' failed: ', el('span', { class: 'bad' }, p.error ?? ''))))));
}

function invalid(data: ReportData) {
  return fragment(el('h2', {}, 'Chain entries not shown'), el('p', { class: 'note' }, 'These entries have fields of the wrong type, so the report does not use them (run webcap chain verify).'),
    el('ul', { class: 'invalid' }, data.invalid.map((i) => el('li', {}, `entry #${i.seq ?? '?'} (the ${i.position}th entry read): ${i.problem}`))));
}
