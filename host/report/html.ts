// The run report as ONE self-contained HTML file: inline CSS, screenshots as
// data: URIs, no script and no network. Everything shown comes from the causal
// chain, which is already redacted, and is HTML-escaped here.
import { pathToFileURL } from 'node:url';
import { existsSync, readFileSync } from 'node:fs';
import type { ReportData, ReportStep } from './collect.js';

const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const CSS = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1100px;color:#1d232b;padding:0 1rem}
h1{font-size:1.4rem}table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #dde2e8;vertical-align:top}
th{background:#f3f5f8}.ok{color:#17803d;font-weight:700}.bad{color:#c02b2b;font-weight:700}tr.failed{background:#fff4f4}
code{font:12px ui-monospace,monospace;background:#f3f5f8;padding:0 .25rem;border-radius:3px;word-break:break-all}
.note{font-size:12px;color:#4a5563}.note b{color:#1d232b}img.shot{max-width:100%;border:1px solid #ccd3db;margin:.4rem 0}
.summary{display:flex;gap:2rem;margin:1rem 0}.summary div{background:#f3f5f8;padding:.5rem 1rem;border-radius:6px}`;

export function renderReport(data: ReportData): string {
  const failed = data.steps.filter((s) => !s.ok).length;
  const heals = data.steps.reduce((n, s) => n + s.heals.length, 0);
  const rows = data.steps.map(row).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>webcap run report — ${esc(data.title)}</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
<style>${CSS}</style></head><body>
<h1>webcap run report: ${esc(data.title)}</h1>
<p class="note">Causal chain <code>${esc(data.chainPath)}</code>${data.started ? `, started ${esc(data.started)}` : ''}. Values are shown as the chain recorded them (redacted).</p>
<div class="summary"><div><b>${data.steps.length}</b> steps</div><div class="ok">✓ ${data.steps.length - failed}</div><div class="${failed ? 'bad' : 'note'}">✗ ${failed}</div><div><b>${heals}</b> healed selectors</div></div>
<table><thead><tr><th>#</th><th></th><th>capability</th><th>target</th><th>ms</th><th>decided by</th><th>details</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</body></html>
`;
}

function row(s: ReportStep): string {
  const details = [
    s.error ? `<div class="bad">${esc(s.error)}</div>` : '',
    ...s.consent.map((c) => `<div class="note"><b>asked:</b> ${esc(c.question)} — <b>answer:</b> ${esc(c.answer)}</div>`),
    ...s.heals.map((h) => `<div class="note"><b>healed:</b> <code>${esc(h.from)}</code> → <code>${esc(h.to)}</code> (${esc(h.feature)})</div>`),
    s.blocked.length ? `<div class="note"><b>blocked requests:</b> ${s.blocked.map((b) => `<code>${esc(b)}</code>`).join(' ')}</div>` : '',
    s.trace ? `<div class="note"><b>trace:</b> <a href="${esc(pathToFileURL(s.trace).href)}"><code>${esc(s.trace)}</code></a> — open it with <code>npx playwright show-trace ${esc(s.trace)}</code></div>` : '',
    s.traceNote ? `<div class="note"><b>trace:</b> ${esc(s.traceNote)}</div>` : '',
    image(s),
  ].join('');
  return `<tr class="step${s.ok ? '' : ' failed'}" data-step="${s.n}"><td>${s.n}</td><td class="${s.ok ? 'ok' : 'bad'}">${s.ok ? '✓' : '✗'}</td><td><code>${esc(s.capability)}</code></td><td><code>${esc(s.target ?? '')}</code></td><td>${s.ms ?? ''}</td><td>${esc(s.decision ?? '')}</td><td>${details}</td></tr>`;
}

function image(s: ReportStep): string {
  if (!s.screenshot || !existsSync(s.screenshot)) return '';
  const type = /\.png$/i.test(s.screenshot) ? 'image/png' : 'image/jpeg';
  return `<img class="shot" alt="step ${s.n} screenshot" src="data:${type};base64,${readFileSync(s.screenshot).toString('base64')}">`;
}
