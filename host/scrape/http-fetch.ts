// web.scrape's fallback when the browser is unavailable: a plain GET through
// the same network rules the browser's guard applies. Every hop (redirects
// included) must pass the allowlist, scheme and SSRF checks, and the request
// connects to the very address that was checked (no DNS-rebinding gap).
// robots.txt applies to every hop after the first (the call's own URL was
// checked by the host's policy before the provider ran), as in the browser.
import http from 'node:http';
import https from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { WebcapError } from '../../manifests/errors.js';
import { parseHostAsIp } from '../../manifests/net/address.js';
import { checkUrl, mappedPort, type Narrowing } from '../../manifests/net/resolve.js';
import type { WebcapConfig } from '../config/types.js';
import { mappedLookup } from '../robots/http-get.js';
import { decodeBody } from './charset.js';
import type { FetchedPage } from './types.js';

export const MAX_REDIRECTS = 10;
const MAX_BYTES = 10 * 1024 * 1024;
const KEPT_HEADERS = ['content-type', 'content-language', 'cf-mitigated', 'server', 'retry-after'];

interface Hop { status: number; headers: http.IncomingHttpHeaders; body: Buffer }

type RobotsCheck = (url: string) => Promise<{ allowed: boolean; reason: string; rule?: string }>;

/** `narrowed`: the calling client's own allowlist, which every hop must match too. */
export async function fetchPage(url: string, config: WebcapConfig, timeoutMs: number, robots?: RobotsCheck, narrowed?: Narrowing): Promise<FetchedPage> {
  const deadline = AbortSignal.timeout(Math.max(1, timeoutMs));
  let current = new URL(url);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const resolve = await checkedResolve(current, config, narrowed);
    let res: Hop;
    try {
      res = await get(current, resolve, config, deadline);
    } catch (err) {
      throw fetchError(err, current, timeoutMs, deadline);
    }
    const location = res.headers.location;
    if (res.status >= 300 && res.status < 400 && location) {
      const from = current;
      current = redirectTarget(location, current);
      const verdict = await robots?.(current.href);
      if (verdict && !verdict.allowed) {
        throw new WebcapError('robots_disallowed', `${from.href} redirected to ${current.href}, which robots.txt disallows (${verdict.rule ? `rule "${verdict.rule}"` : verdict.reason})`, { url: current.href, from: from.href });
      }
      continue;
    }
    const headers = Object.fromEntries(KEPT_HEADERS.filter((h) => typeof res.headers[h] === 'string').map((h) => [h, res.headers[h] as string]));
    return { url: current.href, status: res.status, headers, html: asHtml(res.body, headers['content-type'], current), rendered: false };
  }
  throw new WebcapError('navigation_failed', `${url} redirected more than ${MAX_REDIRECTS} times`, { url });
}

/** Where a redirect points; a Location that is not a URL is the server's fault, not an internal error. */
function redirectTarget(location: string, from: URL): URL {
  try {
    return new URL(location, from);
  } catch {
    throw new WebcapError('navigation_failed', `${from.href} redirected to an invalid URL: ${JSON.stringify(location.slice(0, 200))}`, { url: from.href, location: location.slice(0, 200) });
  }
}

/** The network policy for one hop, and a resolve map pinning the host to the address it approved. */
async function checkedResolve(url: URL, config: WebcapConfig, narrowed: Narrowing | undefined): Promise<Record<string, string>> {
  const { resolve, allow_private: allowPrivate } = config.network;
  const { domains_allowlist: allowlist, domains_denylist: denylist } = config.capabilities.browser;
  const verdict = await checkUrl(url, { allowlist, denylist, resolve, allowPrivate, ...(narrowed ? { narrowed } : {}) });
  if (!verdict.ok) {
    const code = verdict.unresolved ? 'navigation_failed' : verdict.code;
    throw new WebcapError(code, verdict.reason, { url: url.href, host: verdict.host });
  }
  const host = url.hostname.toLowerCase();
  if (resolve[host] || parseHostAsIp(host) || !verdict.addresses.length) return resolve;
  const address = verdict.addresses[0];
  return { ...resolve, [host]: address.includes(':') ? `[${address}]` : address };
}

function get(url: URL, resolve: Record<string, string>, config: WebcapConfig, signal: AbortSignal): Promise<Hop> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((done, fail) => {
    const req = client.get(url, {
      headers: {
        'user-agent': config.capabilities.browser.user_agent,
        accept: 'text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8,*/*;q=0.5',
        'accept-encoding': 'gzip, deflate, br',
      },
      lookup: mappedLookup(resolve),
      port: mappedPort(url.hostname, resolve) ?? url.port,
      rejectUnauthorized: !config.capabilities.browser.ignore_https_errors,
      signal,
    }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const body = decoded(res);
      const tooLarge = () => new WebcapError('navigation_failed', `${url.href} is larger than ${MAX_BYTES} bytes`, { url: url.href });
      body.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= MAX_BYTES) return void chunks.push(c);
        // Fail on the stream the bytes come from: once the compressed response
        // has fully arrived, destroying the request no longer rejects, and the
        // decompressor would still end with a truncated body.
        fail(tooLarge());
        body.destroy();
        req.destroy();
      });
      body.on('end', () => (size > MAX_BYTES ? fail(tooLarge()) : done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) })));
      body.on('error', fail);
    });
    req.on('error', fail);
  });
}

function decoded(res: http.IncomingMessage): Readable {
  const encoding = (res.headers['content-encoding'] ?? '').toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return res.pipe(createGunzip());
  if (encoding === 'deflate') return res.pipe(createInflate());
  if (encoding === 'br') return res.pipe(createBrotliDecompress());
  return res;
}

/** HTML as is; plain text and JSON as the browser shows them (in a <pre>); anything else is not a page. */
function asHtml(body: Buffer, contentType: string | undefined, url: URL): string {
  const type = (contentType ?? 'text/html').split(';')[0].trim().toLowerCase();
  const text = decodeBody(body, contentType);
  if (type === 'text/html' || type === 'application/xhtml+xml' || type === '') return text;
  if (type.startsWith('text/') || type === 'application/json' || type.endsWith('+json') || type.endsWith('+xml') || type === 'application/xml') {
    const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    return `<!doctype html><html><head><title></title></head><body><pre>${escaped}</pre></body></html>`;
  }
  throw new WebcapError('navigation_failed', `${url.href} is not a web page (${type})`, { url: url.href, content_type: type });
}

function fetchError(err: unknown, url: URL, timeoutMs: number, deadline: AbortSignal): WebcapError {
  if (err instanceof WebcapError) return err;
  if (deadline.aborted) return new WebcapError('timeout', `${url.href} did not answer within ${timeoutMs} ms`, { url: url.href, timeout_ms: timeoutMs });
  const code = (err as { code?: string }).code;
  const why = code ?? (err as Error).message;
  return new WebcapError('navigation_failed', `could not load ${url.href}: ${why}`, { url: url.href, net_error: code });
}
