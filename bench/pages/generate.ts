// Writes the three large pages the snapshot bench measures: shaped like real
// sites (a news front page, a shop's search results, a documentation page),
// with what makes real HTML heavy — utility-class soup, inline SVG icons,
// tracking data-attributes, JSON-LD and inline scripts, hidden mega-menus —
// so the HTML-vs-snapshot ratio is measured on realistic weight, offline.
// Deterministic (seeded), so the saved files only change when this does.
// Run: npx tsc -p . && node dist/bench/pages/generate.js
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../manifests/load.js';

let seed = 42;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
const WORDS = 'market city council climate energy report season league policy health school water budget transit museum festival startup research court election harbor bridge storm vaccine'.split(' ');
const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
const title = (n = 6) => { const w = words(n); return w[0].toUpperCase() + w.slice(1); };
const tw = () => Array.from({ length: 14 }, () => pick(['flex', 'items-center', 'justify-between', 'px-4', 'py-2', 'md:px-6', 'lg:py-3', 'text-sm', 'font-medium', 'text-gray-700', 'hover:text-gray-900', 'dark:text-gray-200', 'rounded-lg', 'border', 'border-gray-200', 'shadow-sm', 'transition-colors', 'duration-150', 'focus:outline-none', 'focus-visible:ring-2', 'ring-offset-2', 'w-full', 'sm:w-auto', 'gap-2', 'truncate'])).join(' ');
const track = (i: number) => `data-track-id="c${i}-${Math.floor(rand() * 1e9)}" data-analytics='{"module":"${pick(WORDS)}","position":${i},"experiment":"exp-${Math.floor(rand() * 999)}"}'`;
const icon = (label: string) => `<svg class="${tw()}" aria-hidden="true" viewBox="0 0 24 24" width="16" height="16"><path d="M${Array.from({ length: 24 }, () => (rand() * 24).toFixed(2)).join(' ')}Z" fill="currentColor"/></svg><span class="sr-only">${label}</span>`;
const script = (kb: number) => `<script>window.__STATE__=${JSON.stringify(Array.from({ length: kb * 8 }, (_, i) => ({ id: i, k: words(3), v: rand() })))};</script>`;
const styleBlock = (n: number) => `<style>${Array.from({ length: n }, (_, i) => `.c${i}{margin:${i % 7}px;padding:${i % 5}px;color:#${(i * 2654435761 % 0xffffff).toString(16).padStart(6, '0')}}`).join('')}</style>`;
const doc = (t: string, head: string, body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${t}</title><meta name="viewport" content="width=device-width,initial-scale=1">${head}</head><body class="${tw()}">${body}</body></html>\n`;

function megaMenu(sections: number, links: number, hidden: boolean): string {
  return `<nav aria-label="Sections" class="${tw()}"><ul>${Array.from({ length: sections }, (_, s) => `<li class="${tw()}">
  <button aria-expanded="false" class="${tw()}" ${track(s)}>${title(1)}${icon('open')}</button>
  <div class="${tw()}"${hidden ? ' style="display:none"' : ''}><ul>${Array.from({ length: links }, (_, l) => `<li><a href="/section/${s}/${l}" class="${tw()}" ${track(l)}>${title(2)}</a></li>`).join('')}</ul></div></li>`).join('')}</ul></nav>`;
}

function news(): string {
  const cards = Array.from({ length: 48 }, (_, i) => `<article class="${tw()}" ${track(i)}>
  <a href="/2024/11/${i}/${words(4).replace(/ /g, '-')}" class="${tw()}"><picture><source srcset="${[320, 640, 960, 1280].map((w) => `/img/${i}-${w}.webp ${w}w`).join(', ')}" type="image/webp"><img src="/img/${i}.jpg" alt="${words(5)}" loading="lazy" class="${tw()}"></picture>
  <h3 class="${tw()}">${title(8)}</h3></a><p class="${tw()}">${words(25)}.</p>
  <div class="${tw()}"><span>${Math.floor(rand() * 59)} min ago</span><button class="${tw()}" aria-label="Save article">${icon('save')}</button><button class="${tw()}" aria-label="Share">${icon('share')}</button></div></article>`).join('');
  const body = `<header class="${tw()}"><a href="/" aria-label="Daily Ledger home">${icon('logo')}</a>${megaMenu(12, 18, true)}
  <form role="search" action="/search"><input type="search" name="q" placeholder="Search news" class="${tw()}"><button class="${tw()}">Search</button></form>
  <a href="/subscribe" class="${tw()}">Subscribe</a><a href="/login" class="${tw()}">Sign in</a></header>
  <main><section aria-label="Top stories" class="${tw()}"><h2>Top stories</h2>${cards}</section>
  <section aria-label="Most read"><h2>Most read</h2><ol>${Array.from({ length: 10 }, (_, i) => `<li><a href="/most-read/${i}">${title(7)}</a></li>`).join('')}</ol></section></main>
  <div role="dialog" aria-label="Cookie consent" class="${tw()}"><p>${words(30)}</p><button>Accept all</button><button>Reject all</button><a href="/privacy">Manage options</a></div>
  <footer class="${tw()}">${Array.from({ length: 6 }, (_, c) => `<div><h4>${title(1)}</h4><ul>${Array.from({ length: 14 }, (_, l) => `<li><a href="/f/${c}/${l}" class="${tw()}">${title(2)}</a></li>`).join('')}</ul></div>`).join('')}</footer>
  ${script(40)}${script(20)}<script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'NewsMediaOrganization', name: 'Daily Ledger', sameAs: Array.from({ length: 20 }, (_, i) => `https://social.example/${i}`) })}</script>`;
  return doc('Daily Ledger — news', styleBlock(1500), body);
}

function shop(): string {
  const filters = Array.from({ length: 8 }, (_, g) => `<fieldset class="${tw()}"><legend>${title(1)}</legend>${Array.from({ length: 10 }, (_, o) => `<label class="${tw()}"><input type="checkbox" name="f${g}" value="${o}" class="${tw()}" ${track(o)}> ${title(2)} <span class="${tw()}">(${Math.floor(rand() * 500)})</span></label>`).join('')}<button type="button" class="${tw()}">Show more</button></fieldset>`).join('');
  const cards = Array.from({ length: 60 }, (_, i) => `<div class="${tw()}" data-sku="SKU${100000 + i}" ${track(i)}>
  <a href="/p/${100000 + i}/${words(3).replace(/ /g, '-')}" class="${tw()}"><img src="/img/p${i}.jpg" srcset="${[200, 400, 800].map((w) => `/img/p${i}-${w}.jpg ${w}w`).join(', ')}" alt="${title(4)}" class="${tw()}"></a>
  <div class="${tw()}"><a href="/p/${100000 + i}" class="${tw()}">${title(7)}</a>
  <div class="${tw()}" aria-label="Rated ${(rand() * 5).toFixed(1)} out of 5">${Array.from({ length: 5 }, () => icon('star')).join('')}<span>${Math.floor(rand() * 4000)}</span></div>
  <span class="${tw()}">€${(rand() * 300).toFixed(2)}</span><span class="${tw()}" style="text-decoration:line-through">€${(rand() * 400).toFixed(2)}</span>
  <button class="${tw()}" ${track(i)}>Add to cart</button><button class="${tw()}" aria-label="Add to wish list">${icon('heart')}</button></div></div>`).join('');
  const body = `<header class="${tw()}"><a href="/">${icon('Shop home')}</a>${megaMenu(10, 24, true)}
  <form role="search" action="/s"><select name="cat" class="${tw()}">${Array.from({ length: 30 }, (_, i) => `<option value="${i}">${title(2)}</option>`).join('')}</select><input type="search" name="k" placeholder="Search products" class="${tw()}"><button>Go</button></form>
  <a href="/account">Account</a><a href="/cart" aria-label="Cart, 0 items">${icon('cart')}</a></header>
  <div class="${tw()}"><aside aria-label="Filters" class="${tw()}">${filters}</aside>
  <main class="${tw()}"><h1>Results for “${words(2)}”</h1><label>Sort by <select name="sort"><option>Featured</option><option>Price: low to high</option><option>Price: high to low</option><option>Newest</option></select></label>
  <div class="${tw()}">${cards}</div>
  <nav aria-label="Pagination" class="${tw()}">${Array.from({ length: 7 }, (_, i) => `<a href="/s?page=${i + 1}" class="${tw()}">${i + 1}</a>`).join('')}<a href="/s?page=2" rel="next">Next</a></nav></main></div>
  <footer class="${tw()}">${Array.from({ length: 60 }, (_, l) => `<a href="/help/${l}" class="${tw()}">${title(2)}</a>`).join('')}</footer>${script(60)}`;
  return doc('Search results — Shop', styleBlock(2500), body);
}

function docs(): string {
  const tree = `<nav aria-label="Documentation" class="${tw()}"><ul>${Array.from({ length: 16 }, (_, s) => `<li><details${s < 3 ? ' open' : ''}><summary class="${tw()}">${title(2)}</summary><ul>${Array.from({ length: 16 }, (_, l) => `<li><a href="/docs/${s}/${l}" class="${tw()}">${title(3)}</a></li>`).join('')}</ul></details></li>`).join('')}</ul></nav>`;
  const sections = Array.from({ length: 24 }, (_, i) => `<section id="s${i}"><h2 class="${tw()}">${title(4)} <a href="#s${i}" class="${tw()}" aria-label="Link to this section">#</a></h2>
  ${Array.from({ length: 3 }, () => `<p class="${tw()}">${words(60)}.</p>`).join('')}
  <pre class="${tw()}"><code>${Array.from({ length: 12 }, (_, l) => `<span class="tok-kw">const</span> <span class="tok-var">${pick(WORDS)}${l}</span> = <span class="tok-fn">${pick(WORDS)}</span>(<span class="tok-str">"${words(2)}"</span>);`).join('\n')}</code></pre>
  <button class="${tw()}" aria-label="Copy code">${icon('copy')}</button>
  <table class="${tw()}"><thead><tr><th>Option</th><th>Type</th><th>Default</th><th>Description</th></tr></thead><tbody>${Array.from({ length: 6 }, () => `<tr><td><code>${pick(WORDS)}</code></td><td>string</td><td>—</td><td>${words(12)}</td></tr>`).join('')}</tbody></table>
  <a href="https://git.example/edit/docs/${i}.md" class="${tw()}">Edit this section</a></section>`).join('');
  const body = `<header class="${tw()}"><a href="/">Docs</a><input type="search" placeholder="Search docs" aria-label="Search docs" class="${tw()}"><button aria-label="Toggle dark mode">${icon('theme')}</button><a href="https://git.example">${icon('GitHub')}</a></header>
  <div class="${tw()}">${tree}<main class="${tw()}"><h1>${title(5)}</h1>${sections}
  <nav aria-label="Pager"><a href="/docs/prev" rel="prev">Previous: ${title(3)}</a><a href="/docs/next" rel="next">Next: ${title(3)}</a></nav></main>
  <aside aria-label="On this page"><ul>${Array.from({ length: 24 }, (_, i) => `<li><a href="#s${i}">${title(3)}</a></li>`).join('')}</ul></aside></div>${script(30)}`;
  return doc('Configuration reference — Docs', styleBlock(1200), body);
}

const dir = join(projectRoot(), 'bench', 'pages');
for (const [name, make] of [['news', news], ['shop', shop], ['docs', docs]] as const) {
  seed = 42;
  const html = make();
  writeFileSync(join(dir, `${name}.html`), html);
  process.stdout.write(`${name}.html: ${html.length} chars\n`);
}
