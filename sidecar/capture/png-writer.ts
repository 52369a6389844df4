// Writes a PNG to disk row band by row band: rows are filtered, deflated as a
// stream and flushed as IDAT chunks, so a 20,000 px page never sits in memory
// as one bitmap or one encoded buffer.
import { open, type FileHandle } from 'node:fs/promises';
import { constants, createDeflate, type Deflate } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(...parts: Buffer[]): number {
  let c = 0xffffffff;
  for (const part of parts) for (const byte of part) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(head.subarray(4), data), 0);
  return Buffer.concat([head, data, tail]);
}

export class PngWriter {
  private readonly deflate: Deflate;
  private readonly stride: number;
  private previous: Buffer;
  private rows = 0;
  private pending: Promise<unknown> = Promise.resolve();
  private failure: Error | undefined;

  private constructor(private readonly file: FileHandle, readonly width: number, readonly height: number, readonly channels: 3 | 4) {
    this.stride = width * channels;
    this.previous = Buffer.alloc(this.stride);
    this.deflate = createDeflate({ level: 6, strategy: constants.Z_FILTERED, chunkSize: 256 * 1024 });
    // Each compressed piece becomes one IDAT chunk, written in order.
    this.deflate.on('data', (data: Buffer) => {
      this.pending = this.pending.then(() => this.file.write(chunk('IDAT', data))).catch((err: Error) => { this.failure ??= err; });
    });
  }

  static async create(path: string, width: number, height: number, channels: 3 | 4): Promise<PngWriter> {
    const file = await open(path, 'w');
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(width, 0);
    ihdr.writeUInt32BE(height, 4);
    ihdr.set([8, channels === 4 ? 6 : 2, 0, 0, 0], 8);
    await file.write(Buffer.concat([SIGNATURE, chunk('IHDR', ihdr)]));
    return new PngWriter(file, width, height, channels);
  }

  /** Appends rows (width * channels bytes each, top to bottom). */
  async writeRows(pixels: Buffer): Promise<void> {
    const count = pixels.length / this.stride;
    const out = Buffer.alloc(count * (this.stride + 1));
    for (let r = 0; r < count; r++) {
      const row = pixels.subarray(r * this.stride, (r + 1) * this.stride);
      filterRow(row, this.previous, this.channels, out.subarray(r * (this.stride + 1), (r + 1) * (this.stride + 1)));
      this.previous = row;
    }
    this.previous = Buffer.from(this.previous); // the caller may reuse its buffer
    this.rows += count;
    if (!this.deflate.write(out)) await new Promise((done) => this.deflate.once('drain', done));
    await this.pending;
    if (this.failure) throw this.failure;
  }

  async finish(): Promise<void> {
    try {
      if (this.rows !== this.height) throw new Error(`PNG has ${this.rows} of ${this.height} rows`);
      // 'end' (not 'finish'): every compressed byte has been handed to the data listener.
      await new Promise<void>((done, fail) => { this.deflate.once('end', done).once('error', fail); this.deflate.end(); });
      await this.pending;
      if (this.failure) throw this.failure;
      await this.file.write(chunk('IEND', Buffer.alloc(0)));
    } finally {
      await this.file.close();
    }
  }

  async abandon(): Promise<void> {
    this.deflate.destroy();
    await this.file.close().catch(() => undefined);
  }
}

/** Sub or Up, whichever leaves smaller residuals (libpng's heuristic, cut to the two that matter for screenshots). */
function filterRow(row: Buffer, prev: Buffer, bpp: number, out: Buffer): void {
  let sub = 0;
  let up = 0;
  for (let x = 0; x < row.length; x++) {
    const s = (row[x] - (x >= bpp ? row[x - bpp] : 0)) & 0xff;
    const u = (row[x] - prev[x]) & 0xff;
    sub += s < 128 ? s : 256 - s;
    up += u < 128 ? u : 256 - u;
  }
  const useUp = up < sub;
  out[0] = useUp ? 2 : 1;
  for (let x = 0; x < row.length; x++) {
    out[x + 1] = (row[x] - (useUp ? prev[x] : x >= bpp ? row[x - bpp] : 0)) & 0xff;
  }
}
