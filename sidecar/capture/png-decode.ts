// Decodes the PNGs Chromium writes for one screenshot tile (8-bit RGB or RGBA,
// not interlaced) into raw rows, so tiles can be stitched without an image
// library. Anything else is refused rather than guessed at.
import { inflateSync } from 'node:zlib';
import { WebcapError } from '../../manifests/errors.js';

export interface RawImage {
  width: number;
  height: number;
  /** Bytes per pixel: 3 (RGB) or 4 (RGBA). */
  channels: 3 | 4;
  /** height rows of width * channels bytes, no filter bytes. */
  pixels: Buffer;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function decodePng(png: Buffer): RawImage {
  if (png.length < 33 || !png.subarray(0, 8).equals(SIGNATURE)) throw unsupported('not a PNG');
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const [depth, colorType, , , interlace] = png.subarray(24, 29);
  if (depth !== 8 || (colorType !== 2 && colorType !== 6) || interlace !== 0) {
    throw unsupported(`bit depth ${depth}, color type ${colorType}, interlace ${interlace}`);
  }
  const channels = colorType === 6 ? 4 : 3;
  const idat: Buffer[] = [];
  for (let at = 8; at + 8 <= png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    if (type === 'IEND') break;
    at += 12 + length;
  }
  const filtered = inflateSync(Buffer.concat(idat));
  return { width, height, channels, pixels: unfilter(filtered, width, height, channels) };
}

/** Undoes PNG's per-row filters (None, Sub, Up, Average, Paeth). */
function unfilter(data: Buffer, width: number, height: number, bpp: number): Buffer {
  const stride = width * bpp;
  if (data.length < height * (stride + 1)) throw unsupported('truncated image data');
  const out = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = data[y * (stride + 1)];
    const src = y * (stride + 1) + 1;
    const row = y * stride;
    const prev = row - stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[row + x - bpp] : 0;
      const b = y > 0 ? out[prev + x] : 0;
      const c = x >= bpp && y > 0 ? out[prev + x - bpp] : 0;
      let predictor = 0;
      if (filter === 1) predictor = a;
      else if (filter === 2) predictor = b;
      else if (filter === 3) predictor = (a + b) >> 1;
      else if (filter === 4) predictor = paeth(a, b, c);
      else if (filter !== 0) throw unsupported(`unknown row filter ${filter}`);
      out[row + x] = (data[src + x] + predictor) & 0xff;
    }
  }
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

function unsupported(why: string): WebcapError {
  return new WebcapError('internal', `web.screenshot: cannot stitch a screenshot tile (${why})`);
}
