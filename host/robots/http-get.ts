// A GET for host-side fetches (robots.txt) that honours `[network] resolve`
// the way Chromium's --host-resolver-rules does: connect to the mapped
// address, keep the URL's host name (Host header, TLS SNI). No redirects: the
// caller follows them, so it can check and count each hop.
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { lookup as dnsLookup } from 'node:dns';
import { mappedPort, parseResolveTarget } from '../../manifests/net/resolve.js';

export interface HttpGetOptions {
  headers?: Record<string, string>;
  timeoutMs: number;
  resolve: Record<string, string>;
  maxBytes?: number;
  /** [capabilities.browser] ignore_https_errors: self-signed fixture certificates. */
  ignoreHttpsErrors?: boolean;
}

export interface HttpGetResult { status: number; headers: http.IncomingHttpHeaders; body: string; url: string }

export function mappedLookup(resolve: Record<string, string>): LookupFunction {
  return (hostname, options, callback) => {
    const entry = resolve[hostname.toLowerCase()];
    if (!entry) return dnsLookup(hostname, options, callback as never);
    const mapped = parseResolveTarget(entry).address;
    const family = isIP(mapped) || 4;
    if ((options as { all?: boolean }).all) (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address: mapped, family }]);
    else callback(null, mapped, family);
  };
}

export function httpGet(url: string, opts: HttpGetOptions): Promise<HttpGetResult> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  const maxBytes = opts.maxBytes ?? 512 * 1024;
  return new Promise((resolve, reject) => {
    const req = client.get(target, {
      headers: opts.headers, lookup: mappedLookup(opts.resolve), timeout: opts.timeoutMs,
      port: mappedPort(target.hostname, opts.resolve) ?? target.port,
      rejectUnauthorized: !opts.ignoreHttpsErrors,
    }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        // Past the limit we keep what we have (RFC 9309 lets a crawler stop at 500 KiB).
        if (size < maxBytes) chunks.push(c.subarray(0, maxBytes - size));
        size += c.length;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), url }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`timed out after ${opts.timeoutMs} ms`)));
    req.on('error', reject);
  });
}
