// A GET for host-side fetches (robots.txt) that honours `[network] resolve`
// the way Chromium's --host-resolver-rules does: connect to the mapped
// address, keep the URL's host name (Host header, TLS SNI). No redirects: the
// caller follows them, so it can check and count each hop.
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { lookup as dnsLookup } from 'node:dns';
import { normalizeHost } from '../../manifests/net/hostname.js';
import { mappedPort, parseResolveTarget } from '../../manifests/net/resolve.js';

export interface HttpGetOptions {
  headers?: Record<string, string>;
  /** The whole request, body included: a server that trickles bytes forever cannot hold a call past it. */
  timeoutMs: number;
  resolve: Record<string, string>;
  maxBytes?: number;
  /** [capabilities.browser] ignore_https_errors: self-signed fixture certificates. */
  ignoreHttpsErrors?: boolean;
}

interface HttpGetResult { status: number; headers: http.IncomingHttpHeaders; body: string; url: string }

export function mappedLookup(resolve: Record<string, string>): LookupFunction {
  return (hostname, options, callback) => {
    // Normalised like the policy check (resolveHost), so "x.test." connects
    // where "x.test" was checked instead of falling through to DNS.
    const host = normalizeHost(hostname);
    const entry = Object.entries(resolve).find(([name]) => normalizeHost(name) === host)?.[1];
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
      headers: opts.headers, lookup: mappedLookup(opts.resolve),
      port: mappedPort(target.hostname, opts.resolve) ?? target.port,
      rejectUnauthorized: !opts.ignoreHttpsErrors,
    }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = () => {
        clearTimeout(deadline);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8'), url });
      };
      res.on('data', (c: Buffer) => {
        if (size >= maxBytes) return;
        chunks.push(c.subarray(0, maxBytes - size));
        size += c.length;
        // RFC 9309 lets a crawler stop at 500 KiB: keep what we have, hang up
        // (an endless body would otherwise be read until the deadline).
        if (size >= maxBytes) { finish(); req.destroy(); }
      });
      res.on('end', finish);
      res.on('error', fail);
      res.on('close', () => { if (!res.complete) fail(new Error('connection closed before the body ended')); });
    });
    // One timer for the whole exchange (connect, headers, body); the socket
    // idle timeout alone never fires while bytes keep arriving.
    const deadline = setTimeout(() => { fail(new Error(`timed out after ${opts.timeoutMs} ms`)); req.destroy(); }, opts.timeoutMs);
    function fail(err: Error) {
      clearTimeout(deadline);
      reject(err);
    }
    req.on('error', fail);
  });
}
