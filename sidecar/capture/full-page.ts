// Full-page screenshots that stay within memory on very tall pages. A short
// page is one capture. A tall PNG is captured in horizontal bands (a clip of
// the full page each), decoded and streamed into one PNG on disk, so neither
// Chromium nor the sidecar ever holds the whole bitmap or its base64. JPEG has
// no encoder here, so a tall JPEG is cut at JPEG_MAX_HEIGHT, any page is cut
// at PNG_MAX_HEIGHT and MAX_WIDTH; the result says so. The whole capture runs
// against one deadline (the call's timeout), not one timeout per band.
import type { Page } from 'playwright';
import { WebcapError } from '../../manifests/errors.js';
import { within } from '../deadline.js';
import { decodePng, type RawImage } from './png-decode.js';
import { PngWriter } from './png-writer.js';

/**
 * Pixels per capture: a 1280 px wide page is taken in bands of 1,638 px (8 MB
 * of RGBA each). Measured on a 20,000 px page of noise (a 76 MB PNG): the
 * sidecar peaked about 135 MB above idle with 2 M, 190 MB with 4 M, 350-460 MB
 * in one capture.
 */
const TILE_PIXELS = 2 * 1024 * 1024;
/** Chromium's texture limit; a single capture taller than this is unreliable. */
const JPEG_MAX_HEIGHT = 16_384;
/** Infinite-scroll pages have no bottom: stop somewhere a person could still look at. */
const PNG_MAX_HEIGHT = 100_000;
/** Wider than this is cut: a 300,000 px wide page would otherwise take thousands of 64 px bands. */
export const MAX_WIDTH = 16_384;

export interface FullPageShot {
  width: number;
  height: number;
  page_height: number;
  tiles: number;
  truncated?: true;
  note?: string;
  /** Set when the image is still in memory (single capture); tiled shots are already on disk. */
  bytes?: Buffer;
}

/** The same measure Playwright uses for fullPage. */
async function fullPageSize(page: Page): Promise<{ width: number; height: number }> {
  return page.evaluate(() => {
    const d = document.documentElement;
    const b = document.body ?? d;
    return {
      width: Math.ceil(Math.max(d.scrollWidth, b.scrollWidth, d.offsetWidth, b.offsetWidth, d.clientWidth, b.clientWidth)),
      height: Math.ceil(Math.max(d.scrollHeight, b.scrollHeight, d.offsetHeight, b.offsetHeight, d.clientHeight, b.clientHeight)),
    };
  });
}

/** Time left before `deadline`, or the timeout error once it has passed. */
function remaining(deadline: number, timeout: number): number {
  const left = deadline - Date.now();
  if (left <= 0) throw new WebcapError('timeout', `full-page screenshot: not finished within ${timeout} ms`, { timeout_ms: timeout });
  return left;
}

export async function captureFullPage(page: Page, path: string, format: 'png' | 'jpeg', options: { quality?: number; timeout: number; mask?: import('playwright').Locator[] }): Promise<FullPageShot> {
  const deadline = Date.now() + options.timeout;
  const size = await within(fullPageSize(page), remaining(deadline, options.timeout), 'full-page screenshot');
  const limit = format === 'jpeg' ? JPEG_MAX_HEIGHT : PNG_MAX_HEIGHT;
  const height = Math.min(size.height, limit);
  const width = Math.min(size.width, MAX_WIDTH);
  const notes = [
    ...(size.height > limit ? [`the page is ${size.height} px tall; captured the top ${limit} px${format === 'jpeg' ? ' (use format "png" for up to ' + PNG_MAX_HEIGHT + ' px)' : ''}`] : []),
    ...(size.width > MAX_WIDTH ? [`the page is ${size.width} px wide; captured the left ${MAX_WIDTH} px`] : []),
  ];
  const cut = notes.length ? { truncated: true as const, note: notes.join('; ') } : {};
  if (format === 'jpeg' || width * height <= TILE_PIXELS) {
    const clip = cut.truncated ? { clip: { x: 0, y: 0, width, height } } : {};
    const bytes = await page.screenshot({ type: format, quality: options.quality, timeout: remaining(deadline, options.timeout), fullPage: true, mask: options.mask, ...clip });
    return { width, height, page_height: size.height, tiles: 1, ...cut, bytes };
  }
  const tiles = await captureTiles(page, path, width, height, () => remaining(deadline, options.timeout));
  return { width, height, page_height: size.height, tiles, ...cut };
}

async function captureTiles(page: Page, path: string, width: number, height: number, timeLeft: () => number): Promise<number> {
  const band = Math.max(64, Math.floor(TILE_PIXELS / width));
  let writer: PngWriter | undefined;
  let tiles = 0;
  try {
    for (let y = 0; y < height; y += band) {
      const h = Math.min(band, height - y);
      // scale 'css': one image pixel per CSS pixel, so bands line up exactly.
      const png = await page.screenshot({ type: 'png', fullPage: true, scale: 'css', timeout: timeLeft(), clip: { x: 0, y, width, height: h } });
      const tile = decodePng(png);
      writer ??= await PngWriter.create(path, width, height, tile.channels);
      await writer.writeRows(fit(tile, width, h, writer.channels));
      tiles += 1;
    }
    await writer!.finish();
    return tiles;
  } catch (err) {
    await writer?.abandon();
    throw err;
  }
}

/** A band as the writer wants it: exact size (a page that shrank meanwhile is padded white) and channel count. */
function fit(tile: RawImage, width: number, height: number, channels: 3 | 4): Buffer {
  if (tile.width === width && tile.height === height && tile.channels === channels) return tile.pixels;
  const out = Buffer.alloc(width * height * channels, 0xff);
  for (let y = 0; y < Math.min(height, tile.height); y++) {
    for (let x = 0; x < Math.min(width, tile.width); x++) {
      const from = (y * tile.width + x) * tile.channels;
      const to = (y * width + x) * channels;
      tile.pixels.copy(out, to, from, from + 3);
    }
  }
  return out;
}
