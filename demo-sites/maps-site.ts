// A maps-like directory shaped like the reference maps plan's Google Maps: a consent
// banner (the search box stays disabled until it is answered), a search box,
// results loaded by JavaScript into a feed, and infinite scroll.
import { escapeHtml, placesFor } from './data.js';
import { hasCookie, page, send, type Route } from './page.js';

const PAGE_SIZE = 10;
const TOTAL = 60;

const STYLE = `<style>
  body { font-family: sans-serif; margin: 0; }
  header { position: sticky; top: 0; background: #fff; padding: 12px; border-bottom: 1px solid #ddd; }
  #consent-banner { position: fixed; inset: 0; background: rgba(0,0,0,.6); display: flex; align-items: center; justify-content: center; z-index: 10; }
  #consent-banner form { background: #fff; padding: 24px; max-width: 480px; }
  .hfpxzc { display: block; height: 140px; padding: 12px; border-bottom: 1px solid #eee; color: inherit; text-decoration: none; }
  .qBF1Pd { font-weight: bold; }
</style>`;

const BANNER = `<div id="consent-banner" role="dialog" aria-label="Before you continue to Demo Maps">
  <form action="https://consent.google.com/save" method="post">
    <h2>Before you continue</h2>
    <p>We use cookies and data to deliver and maintain our services and to measure audience engagement.</p>
    <button type="button" id="consent-reject" aria-label="Reject all">Reject all</button>
    <button type="button" id="consent-accept" aria-label="Accept all">Accept all</button>
  </form>
</div>`;

// The page's own script: consent, search on Enter or the button, and more results near the bottom.
const SCRIPT = `<script>
  const box = document.querySelector('#searchboxinput');
  const feed = document.querySelector('div[role=feed]');
  const banner = document.querySelector('#consent-banner');
  function decide(choice) {
    document.cookie = 'CONSENT=' + choice + '; path=/';
    banner.remove();
    box.disabled = false;
  }
  if (banner) {
    document.querySelector('#consent-accept').onclick = () => decide('yes');
    document.querySelector('#consent-reject').onclick = () => decide('no');
  }
  let query = '', offset = 0, loading = false, done = false;
  async function load() {
    if (loading || done) return;
    loading = true;
    const r = await fetch('/api/search?q=' + encodeURIComponent(query) + '&offset=' + offset);
    const places = await r.json();
    for (const p of places) {
      const a = document.createElement('a');
      a.className = 'hfpxzc';
      a.href = '/maps/place/' + p.id;
      a.setAttribute('aria-label', p.name);
      a.innerHTML = '<div class="qBF1Pd"></div><span class="MW4etd"></span> <span class="cuisine"></span><div class="hP61id"></div>';
      a.querySelector('.qBF1Pd').textContent = p.name;
      a.querySelector('.MW4etd').textContent = p.rating;
      a.querySelector('.cuisine').textContent = p.cuisine;
      a.querySelector('.hP61id').textContent = p.address;
      feed.append(a);
    }
    offset += places.length;
    done = places.length === 0;
    loading = false;
  }
  function search() {
    query = box.value; offset = 0; done = false; feed.replaceChildren();
    load();
  }
  box.addEventListener('keydown', (e) => { if (e.key === 'Enter') search(); });
  document.querySelector('button[aria-label=Search]').onclick = search;
  window.addEventListener('scroll', () => {
    const el = document.scrollingElement;
    if (query && el.scrollTop + innerHeight >= el.scrollHeight - 400) load();
  });
</script>`;

const app: Route = (req, res) => {
  const consented = hasCookie(req, 'CONSENT');
  send(res, page('Demo Maps', `${consented ? '' : BANNER}
<header>
  <input id="searchboxinput" aria-label="Search Google Maps" placeholder="Search Google Maps" ${consented ? '' : 'disabled'}>
  <button aria-label="Search">Search</button>
</header>
<div role="feed" aria-label="Results"></div>${SCRIPT}`, STYLE));
};

export const mapsRoutes: Record<string, Route> = {
  '/': app,
  '/maps': app,
  '/api/search': async (_req, res, url) => {
    // Results arrive a little later, as from a real API.
    await new Promise((r) => setTimeout(r, 250));
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const all = placesFor(url.searchParams.get('q') ?? '', TOTAL);
    send(res, JSON.stringify(all.slice(offset, offset + PAGE_SIZE)), 200, 'application/json');
  },
  '/maps/place/*': (_req, res, url) => {
    const id = decodeURIComponent(url.pathname.split('/').pop() ?? '');
    const city = id.replace(/-\d+$/, '');
    const place = placesFor(city, TOTAL).find((p) => p.id === id);
    if (!place) return send(res, page('Not found', '<h1>No such place</h1>'), 404);
    send(res, page(place.name, `<h1>${escapeHtml(place.name)}</h1><p>${escapeHtml(place.address)}</p><p>Rating ${place.rating}</p>`));
  },
};
