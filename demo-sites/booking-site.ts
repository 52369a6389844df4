// A booking-like site shaped like the reference booking plan's TheFork: a consent banner
// (in an iframe on the demo host, a Didomi-style one on www.thefork.com), a
// search form, and results paginated over five pages with a[rel=next].
import type { IncomingMessage } from 'node:http';
import { escapeHtml, placesFor } from './data.js';
import { hasCookie, page, send, type Route } from './page.js';

export const PER_PAGE = 8;
export const PAGES = 5;

const STYLE = `<style>
  body { font-family: sans-serif; margin: 0 24px 160px; }
  #consent-frame { position: fixed; left: 0; right: 0; bottom: 0; width: 100%; height: 140px; border: 0; border-top: 2px solid #333; background: #fff; }
  #didomi-notice { position: fixed; left: 0; right: 0; bottom: 0; padding: 16px; background: #fff; border-top: 2px solid #333; }
  .restaurant-card { border-bottom: 1px solid #eee; padding: 8px 0; }
</style>`;

// The banner answers by cookie; the page hears about it by postMessage (iframe) or directly.
const CONSENT_SCRIPT = `<script>
  function consentDecided() {
    document.querySelector('#consent-frame, #didomi-notice')?.remove();
  }
  window.addEventListener('message', (e) => { if (e.data && e.data.consent) consentDecided(); });
  for (const [id, choice] of [['didomi-notice-agree-button', 'accepted'], ['didomi-notice-disagree-button', 'rejected']]) {
    const b = document.getElementById(id);
    if (b) b.onclick = () => { document.cookie = 'euconsent=' + choice + '; path=/'; consentDecided(); };
  }
</script>`;

function banner(req: IncomingMessage): string {
  if (hasCookie(req, 'euconsent')) return '';
  if ((req.headers.host ?? '').startsWith('www.thefork.com')) {
    return `<div id="didomi-notice" role="dialog" aria-label="Cookie consent">
  <p>We and our partners use cookies to personalise content and measure our audience.</p>
  <button id="didomi-notice-disagree-button">Continue without agreeing</button>
  <button id="didomi-notice-agree-button">Agree and close</button>
</div>`;
  }
  return '<iframe id="consent-frame" title="Cookie consent" src="/consent-frame"></iframe>';
}

function layout(req: IncomingMessage, title: string, body: string): string {
  return page(title, `${body}${banner(req)}${CONSENT_SCRIPT}`, STYLE);
}

const SEARCH_FORM = `<form action="/search" method="get" role="search">
  <input id="search-input" name="q" placeholder="City or restaurant" aria-label="City or restaurant">
  <button type="submit">Search</button>
</form>`;

export const bookingRoutes: Record<string, Route> = {
  '/': (req, res) => send(res, layout(req, 'Demo Booking', `<h1>Book a table</h1>${SEARCH_FORM}`)),
  '/consent-frame': (_req, res) => send(res, page('Cookie consent', `
<p id="cm-text">We use cookies to remember your searches and to measure our audience. You can accept or reject them.</p>
<button id="cm-reject">Reject all</button> <button id="cm-accept">Accept all</button>
<script>
  for (const [id, choice] of [['cm-accept', 'accepted'], ['cm-reject', 'rejected']]) {
    document.getElementById(id).onclick = () => {
      document.cookie = 'euconsent=' + choice + '; path=/';
      parent.postMessage({ consent: choice }, '*');
    };
  }
</script>`)),
  '/search': (req, res, url) => {
    const q = url.searchParams.get('q') ?? '';
    const n = Math.min(Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1), PAGES);
    const places = placesFor(q, PER_PAGE * PAGES).slice((n - 1) * PER_PAGE, n * PER_PAGE);
    const cards = places.map((p) => `<article class="restaurant-card">
  <a href="/restaurant/${p.id}"><h2 class="restaurant-name">${escapeHtml(p.name)}</h2></a>
  <span class="rating-value">${p.rating}</span> · <span class="cuisine">${p.cuisine}</span>
  <p class="address">${escapeHtml(p.address)}</p>
</article>`).join('\n');
    const link = (to: number, rel: string, text: string) => `<a rel="${rel}" href="/search?q=${encodeURIComponent(q)}&amp;page=${to}">${text}</a>`;
    const nav = `<nav aria-label="Pages">${n > 1 ? link(n - 1, 'prev', 'Previous') : ''} <span class="page-number">Page ${n} of ${PAGES}</span> ${n < PAGES ? link(n + 1, 'next', 'Next') : ''}</nav>`;
    send(res, layout(req, `Restaurants: ${escapeHtml(q)} (page ${n})`, `${SEARCH_FORM}<h1>Restaurants in ${escapeHtml(q)}</h1>${cards}${nav}`));
  },
  '/restaurant/*': (req, res, url) => {
    const id = decodeURIComponent(url.pathname.split('/').pop() ?? '');
    const place = placesFor(id.replace(/-\d+$/, ''), PER_PAGE * PAGES).find((p) => p.id === id);
    if (!place) return send(res, page('Not found', '<h1>No such restaurant</h1>'), 404);
    send(res, layout(req, place.name, `<h1>${escapeHtml(place.name)}</h1><p class="address">${escapeHtml(place.address)}</p><p>Rating <span class="rating-value">${place.rating}</span></p>`));
  },
};
