// web.screenshot with a per-call viewport and on very tall pages, through the
// real stack. Image sizes are read from the PNG header on disk; the stitched
// image is checked by loading it back into Chromium and reading its pixels, so
// the check does not trust our own PNG code.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';
import { sidecarOf } from '../helpers/processes.js';
import { failure } from '../helpers/failure.js';
import { MAX_WIDTH } from '../../sidecar/capture/full-page.js';

const BANDS = 20; // 20 bands of 1,000 px: a 20,000 px page
const bandColour = (i: number) => [i * 12, 255 - i * 12, 100];

let site: FixtureServer;
let host: Host;
let config: ReturnType<typeof testConfig>;
let lastShot = '';
const at = (path: string) => site.url('shots.test', path);

/** Width and height as the file's PNG header states them. */
function pngSize(path: string): { width: number; height: number } {
  const head = readFileSync(path).subarray(0, 24);
  expect(head.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
}

/** The sidecar's resident set now and its high-water mark, in MB (Linux /proc). */
function sidecarMemory(resetPeak = false): { rss: number; peak: number } {
  const pid = sidecarOf()!.pid;
  // Writing 5 to clear_refs resets the high-water mark, so earlier tests' peaks don't count.
  if (resetPeak) writeFileSync(`/proc/${pid}/clear_refs`, '5');
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mb = (key: string) => Math.round(Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)![1]) / 1024);
  return { rss: mb('VmRSS'), peak: mb('VmHWM') };
}

const routes = {
  '/viewport': (_req: unknown, res: import('node:http').ServerResponse) => send(res, html(
    '<h1>Viewport</h1><p id="w"></p>',
    '<script>addEventListener("DOMContentLoaded",()=>{const s=()=>document.getElementById("w").textContent=innerWidth+"x"+innerHeight;s();addEventListener("resize",s)})</script>',
  )),
  '/tall': (_req: unknown, res: import('node:http').ServerResponse) => send(res, html(
    // A fixed header must appear once, at the top, not at the top of every band.
    '<div style="position:fixed;top:0;left:0;right:0;height:40px;background:rgb(0,0,255)"></div>' +
    Array.from({ length: BANDS }, (_, i) => `<div style="height:1000px;background:rgb(${bandColour(i).join(',')})">band ${i}</div>`).join(''),
    '<style>body{margin:0}</style>',
  )),
  // Incompressible pixels: the worst case for memory, a ~75 MB PNG.
  '/noise': (_req: unknown, res: import('node:http').ServerResponse) => send(res, html(
    '<canvas width="1280" height="1000" style="display:block"></canvas>'.repeat(BANDS) +
    '<script>for(const c of document.querySelectorAll("canvas")){const x=c.getContext("2d");const d=x.createImageData(c.width,c.height);const v=new Uint32Array(d.data.buffer);for(let i=0;i<v.length;i++)v[i]=(Math.random()*0xffffffff)>>>0|0xff000000;x.putImageData(d,0,0)}</script>',
    '<style>body{margin:0}</style>',
  )),
  // Far wider than any screen: the shot is cut at MAX_WIDTH rather than taken in thousands of thin bands.
  '/wide': (_req: unknown, res: import('node:http').ServerResponse) => send(res, html(
    '<div style="width:300000px;height:1000px;background:linear-gradient(90deg,rgb(200,0,0),rgb(0,0,200))">wide</div>',
    '<style>body{margin:0}</style>',
  )),
  // Wide and tall: hundreds of bands even after the cut, so only the overall deadline ends it in time.
  '/huge': (_req: unknown, res: import('node:http').ServerResponse) => send(res, html(
    '<div style="width:300000px;height:100000px;background:linear-gradient(rgb(200,0,0),rgb(0,0,200))">huge</div>',
    '<style>body{margin:0}</style>',
  )),
  '/shot.png': (_req: unknown, res: import('node:http').ServerResponse) => {
    res.writeHead(200, { 'content-type': 'image/png' });
    res.end(readFileSync(lastShot));
  },
  // Chromium decodes the stitched PNG and reports its size and the colour at a few rows.
  '/check': (_req: unknown, res: import('node:http').ServerResponse) => send(res, html('<h1>Check</h1><p id="out"></p>', `<script>
    const img = new Image();
    img.onload = () => {
      const c = document.createElement('canvas'); c.width = img.naturalWidth; c.height = img.naturalHeight;
      const x = c.getContext('2d'); x.drawImage(img, 0, 0);
      const at = (y) => Array.from(x.getImageData(640, y, 1, 1).data.slice(0, 3)).join(',');
      document.getElementById('out').textContent = JSON.stringify({ w: img.naturalWidth, h: img.naturalHeight, rows: [20, 1500, 1700, 9500, 16500, 19990].map(at) });
    };
    img.onerror = () => { document.getElementById('out').textContent = 'decode failed'; };
    img.src = '/shot.png';
  </script>`)),
};

beforeAll(async () => {
  site = await serve(routes);
  config = testConfig({ network: { resolve: { 'shots.test': '127.0.0.1' } } });
  host = testHost(config);
});
afterEach(async () => {
  await host.call('web.close', {}).catch(() => undefined);
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

describe('web.screenshot width/height per call', () => {
  it('shoots at the requested viewport and puts the session viewport back afterwards', async () => {
    await host.call('web.open', { url: at('/viewport') });
    const phone = await host.call('web.screenshot', { width: 390, height: 844, path: 'phone.png' });
    expect(phone).toMatchObject({ width: 390, height: 844 });
    expect(pngSize(phone.path as string)).toEqual({ width: 390, height: 844 });
    const wideOnly = await host.call('web.screenshot', { width: 1600, path: 'wide.png' });
    expect(pngSize(wideOnly.path as string)).toEqual({ width: 1600, height: 800 });
    // Later actions see the session's own viewport again.
    expect((await host.call('web.extract', { selector: '#w' })).items).toEqual([{ text: '1280x800' }]);
    expect(pngSize((await host.call('web.screenshot', { path: 'default.png' })).path as string)).toEqual({ width: 1280, height: 800 });
  });

  it('refuses sizes outside the manifest range with invalid_params', async () => {
    await expect(host.call('web.screenshot', { width: 20 })).rejects.toMatchObject({ code: 'invalid_params' });
  });
});

describe('web.screenshot on a 20,000 px page', () => {
  it('captures the whole page in bands and stitches a PNG Chromium can read back', async () => {
    await host.call('web.open', { url: at('/tall') });
    const shot = await host.call('web.screenshot', { full_page: true, path: 'tall.png', timeout: 60_000 });
    expect(shot).toMatchObject({ width: 1280, height: 20_000, page_height: 20_000 });
    expect(shot.tiles as number).toBeGreaterThan(1);
    expect(shot.truncated).toBeUndefined();
    expect(pngSize(shot.path as string)).toEqual({ width: 1280, height: 20_000 });

    lastShot = shot.path as string;
    await host.call('web.navigate', { url: at('/check') });
    await host.call('web.wait', { text: '"w":1280' });
    const seen = JSON.parse(((await host.call('web.extract', { selector: '#out' })).items as Array<{ text: string }>)[0].text);
    expect(seen.w).toBe(1280);
    expect(seen.h).toBe(20_000);
    // Header once at the top; then the band under each sampled row, across band seams and past 16,384 px.
    expect(seen.rows).toEqual(['0,0,255', ...[1, 1, 9, 16, 19].map((i) => bandColour(i).join(','))]);
  });

  it('cuts a tall JPEG at 16,384 px and says so', async () => {
    await host.call('web.open', { url: at('/tall') });
    const shot = await host.call('web.screenshot', { full_page: true, format: 'jpeg', quality: 50, path: 'tall.jpg', timeout: 60_000 });
    expect(shot).toMatchObject({ width: 1280, height: 16_384, page_height: 20_000, truncated: true });
    expect(shot.note).toMatch(/20000 px tall.*16384/);
  });

  it(`cuts a very wide page at ${MAX_WIDTH} px and says so`, async () => {
    await host.call('web.open', { url: at('/wide') });
    const shot = await host.call('web.screenshot', { full_page: true, path: 'wide.png', timeout: 60_000 });
    expect(shot).toMatchObject({ width: MAX_WIDTH, height: 1000, page_height: 1000, truncated: true });
    expect(shot.note).toMatch(/300000 px wide.*16384/);
    expect(pngSize(shot.path as string)).toEqual({ width: MAX_WIDTH, height: 1000 });
  }, 90_000);

  it('stops a capture of hundreds of bands at the call\'s timeout, not one timeout per band', async () => {
    await host.call('web.open', { url: at('/huge') });
    const started = Date.now();
    const e = await failure(host.call('web.screenshot', { full_page: true, path: 'huge.png', timeout: 3000 }));
    const took = Date.now() - started;
    console.log(`huge page: ${e.code} after ${took} ms`);
    expect(e.code).toBe('timeout');
    // One timeout per band would take hundreds of times 3 s: this test's own timeout catches that.
    // The session is still usable afterwards.
    expect((await host.call('web.extract', { selector: 'div' })).items).toEqual([{ text: 'huge' }]);
  }, 60_000);

  it('keeps the sidecar well below a one-shot capture on incompressible pixels', async () => {
    await host.call('web.open', { url: at('/noise') });
    const before = sidecarMemory(true);
    const shot = await host.call('web.screenshot', { full_page: true, path: 'noise.png', timeout: 90_000 });
    const after = sidecarMemory();
    expect(pngSize(shot.path as string)).toEqual({ width: 1280, height: 20_000 });
    expect(shot.bytes as number).toBeGreaterThan(50_000_000); // really incompressible: a ~75 MB file
    // One capture of this page holds the PNG, its base64 and copies: measured +457 MB over idle.
    // Bands measured +131 MB; 250 MB leaves room for GC timing on a busy machine.
    const growth = after.peak - before.rss;
    console.log(`sidecar RSS before ${before.rss} MB, peak during shot ${after.peak} MB (+${growth}), after ${after.rss} MB`);
    expect(growth).toBeLessThan(250);
  }, 120_000);
});
