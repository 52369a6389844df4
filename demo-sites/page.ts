// Shared bits of the demo sites' HTML.
import type { IncomingMessage, ServerResponse } from 'node:http';

export function page(title: string, body: string, head = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`;
}

export function send(res: ServerResponse, body: string, status = 200, type = 'text/html; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(body);
}

export function hasCookie(req: IncomingMessage, name: string): boolean {
  return (req.headers.cookie ?? '').split(/;\s*/).some((c) => c.startsWith(`${name}=`));
}

export type Route = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;
