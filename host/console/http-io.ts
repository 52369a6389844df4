// Reading and writing the console's HTTP bodies: JSON objects of 16 KiB at
// most in (anything else is undefined), bytes or JSON out.
import type { IncomingMessage, ServerResponse } from 'node:http';

const MAX_BODY = 16 * 1024;

export function send(res: ServerResponse, status: number, type: string, body: Buffer): void {
  res.writeHead(status, { 'content-type': type, 'content-length': body.length }).end(body);
}

export function reply(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, 'application/json; charset=utf-8', Buffer.from(JSON.stringify(body)));
}

export function readJson(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  return new Promise((resolve) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) { resolve(undefined); req.destroy(); return; }
      chunks.push(c);
    });
    req.on('end', () => {
      try {
        const v = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
        resolve(v && typeof v === 'object' && !Array.isArray(v) ? v as Record<string, unknown> : undefined);
      } catch { resolve(undefined); }
    });
    req.on('error', () => resolve(undefined));
  });
}
