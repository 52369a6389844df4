// The demo sites stay up whatever a client sends (`webcap demo --serve` runs
// until Ctrl-C), and a server left running keeps no growing request log.
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startDemoSites, type DemoSites } from '../../../demo-sites/serve.js';

let sites: DemoSites | undefined;
afterEach(async () => { await sites?.close(); sites = undefined; });

/** A GET straight to the plain-HTTP demo server with the Host header given verbatim. */
function rawGet(target: string, host: string, path = '/'): Promise<{ status: number; body: string }> {
  const port = Number(target.split(':')[1]);
  return new Promise((done, fail) => {
    const req = http.request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c: string) => { body += c; }).on('end', () => done({ status: res.statusCode ?? 0, body }));
    });
    req.setTimeout(3000, () => req.destroy(new Error(`no answer to Host: ${host}`)));
    req.on('error', fail).end();
  });
}

describe('demo sites server', () => {
  it('answers 400 to a malformed Host header and keeps serving', async () => {
    sites = await startDemoSites();
    const target = sites.resolve['maps.demo.test'];
    const bad = await rawGet(target, 'a%b');
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('invalid Host');
    const next = await rawGet(target, 'maps.demo.test', '/robots.txt');
    expect([next.status, next.body]).toEqual([200, 'User-agent: *\nAllow: /\n']);
    expect(sites.hits).toEqual(['maps.demo.test/robots.txt']);
  });

  it('records no hits with recordHits: false', async () => {
    sites = await startDemoSites({ recordHits: false });
    const target = sites.resolve['maps.demo.test'];
    expect((await rawGet(target, 'maps.demo.test', '/robots.txt')).status).toBe(200);
    expect((await rawGet(target, 'maps.demo.test', '/nowhere')).status).toBe(404);
    expect(sites.hits).toEqual([]);
  });
});
