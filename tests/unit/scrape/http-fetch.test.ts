// The plain-HTTP fallback against real loopback servers: charsets, encodings,
// content types, redirects and their checks, size and time limits.
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../host/config/load.js';
import { fetchPage } from '../../../host/scrape/http-fetch.js';
import { serve, type FixtureServer } from '../../helpers/fixture-server.js';
import { testConfig } from '../../helpers/host.js';
import { failure } from '../../helpers/failure.js';

let site: FixtureServer;
let config: ReturnType<typeof loadConfig>;
const at = (path: string) => site.url('fetch.test', path);
const raw = (status: number, headers: Record<string, string>, body: Buffer | string) =>
  (_req: unknown, res: import('node:http').ServerResponse) => { res.writeHead(status, headers); res.end(body); };


beforeAll(async () => {
  site = await serve({
    '/latin1-meta': raw(200, { 'content-type': 'text/html' }, Buffer.from('<html><head><meta charset="iso-8859-1"><title>Café</title></head><body>Crème brûlée</body></html>', 'latin1')),
    '/latin1-header': raw(200, { 'content-type': 'text/html; charset=ISO-8859-1' }, Buffer.from('<p>Übermäßig</p>', 'latin1')),
    '/utf16-bom': raw(200, { 'content-type': 'text/html' }, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<p>Grüße</p>', 'utf16le')])),
    '/br': raw(200, { 'content-type': 'text/html', 'content-encoding': 'br' }, brotliCompressSync('<p>brotli body</p>')),
    '/deflate': raw(200, { 'content-type': 'text/html', 'content-encoding': 'deflate' }, deflateSync('<p>deflate body</p>')),
    '/text': raw(200, { 'content-type': 'text/plain; charset=utf-8' }, 'line 1 <not a tag>\nline 2'),
    '/pdf': raw(200, { 'content-type': 'application/pdf' }, '%PDF-1.7'),
    '/huge': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      const chunk = Buffer.alloc(1024 * 1024, 'a');
      for (let i = 0; i < 11; i++) res.write(chunk);
      res.end();
    },
    // ~11 KB on the wire, 11 MB inflated: arrives whole before the limit trips.
    '/gzip-bomb': raw(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }, gzipSync(Buffer.alloc(11 * 1024 * 1024, 'a'))),
    '/bad-location': (_req, res) => { res.writeHead(302, { location: 'http://[not-an-address/' }); res.end(); },
    '/loop': (_req, res) => { res.writeHead(302, { location: '/loop' }); res.end(); },
    '/to-file': (_req, res) => { res.writeHead(302, { location: 'file:///etc/passwd' }); res.end(); },
    '/hang': () => undefined,
  });
  config = loadConfig(testConfig({ network: { resolve: { 'fetch.test': '127.0.0.1' } } }));
});
afterAll(async () => { await site?.close(); });

describe('fetchPage (web.scrape without a browser)', () => {
  it('decodes by <meta charset>, by the Content-Type charset and by a BOM', async () => {
    const meta = await fetchPage(at('/latin1-meta'), config, 3000);
    expect(meta.html).toContain('Crème brûlée');
    expect((await fetchPage(at('/latin1-header'), config, 3000)).html).toContain('Übermäßig');
    expect((await fetchPage(at('/utf16-bom'), config, 3000)).html).toContain('Grüße');
    expect(meta).toMatchObject({ url: at('/latin1-meta'), status: 200, rendered: false });
  });

  it('inflates br and deflate bodies', async () => {
    expect((await fetchPage(at('/br'), config, 3000)).html).toBe('<p>brotli body</p>');
    expect((await fetchPage(at('/deflate'), config, 3000)).html).toBe('<p>deflate body</p>');
  });

  it('shows plain text the way a browser does (in a <pre>, escaped) and refuses non-pages', async () => {
    expect((await fetchPage(at('/text'), config, 3000)).html).toContain('<pre>line 1 &lt;not a tag>\nline 2</pre>');
    const pdf = await failure(fetchPage(at('/pdf'), config, 3000));
    expect([pdf.code, pdf.details.content_type]).toEqual(['navigation_failed', 'application/pdf']);
  });

  it('stops past 10 MB, past 10 redirects, at a non-http redirect, and at the time limit', async () => {
    expect((await failure(fetchPage(at('/huge'), config, 10_000))).message).toContain('larger than');
    expect((await failure(fetchPage(at('/loop'), config, 5000))).message).toContain('redirected more than 10 times');
    expect((await failure(fetchPage(at('/to-file'), config, 3000))).code).toBe('unsupported_scheme');
    // /hang never answers: only the 500 ms limit ends this before the test's timeout.
    const slow = await failure(fetchPage(at('/hang'), config, 500));
    expect(slow.code).toBe('timeout');
  });

  it('a gzip body inflating past 10 MB fails instead of coming back truncated', async () => {
    const e = await failure(fetchPage(at('/gzip-bomb'), config, 10_000));
    expect([e.code, e.message]).toEqual(['navigation_failed', expect.stringContaining('larger than 10485760 bytes')]);
  });

  it('a redirect to an invalid URL is navigation_failed naming the Location', async () => {
    const e = await failure(fetchPage(at('/bad-location'), config, 3000));
    expect([e.code, e.details.location]).toEqual(['navigation_failed', 'http://[not-an-address/']);
  });

  it('a closed port is navigation_failed with the network error', async () => {
    const closed = await serve({});
    const url = closed.url('fetch.test', '/');
    await closed.close();
    const e = await failure(fetchPage(url, config, 3000));
    expect([e.code, e.details.net_error]).toEqual(['navigation_failed', 'ECONNREFUSED']);
  });
});
