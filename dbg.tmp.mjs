import { loadCorpus } from './dist/bench/quality.js';
import { scrapePage } from './dist/host/scrape/pipeline.js';
const name = process.argv[2];
const p = loadCorpus().find((x) => x.name === name);
const r = scrapePage({ url: p.url, status: 200, headers: {}, html: p.html, rendered: false }, { format: 'text', mainContent: true });
console.log('HOW', r.metadata.extraction);
const toks = (t) => t.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
const mode = process.argv[3] ?? 'extra';
const [a, b] = mode === 'extra' ? [r.content_text, p.truth] : [p.truth, r.content_text];
const bag = new Map(); for (const w of toks(b)) bag.set(w, (bag.get(w) ?? 0) + 1);
for (const line of a.split('\n')) { const t = toks(line); if (!t.length) continue; let miss = 0; for (const w of t) { const n = bag.get(w) ?? 0; if (n > 0) bag.set(w, n - 1); else miss++; } if (miss / t.length > 0.5) console.log(`[${miss}/${t.length}]`, line.slice(0, 160)); }
