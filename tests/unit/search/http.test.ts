// requestJson against a real loopback server: an oversized answer is refused
// while it streams, not buffered whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RESPONSE_BYTES, requestJson } from '../../../host/search/http.js';
import { serve, type FixtureServer } from '../../helpers/fixture-server.js';
import { failure } from '../../helpers/failure.js';

let api: FixtureServer;

/** Whichever comes first; the other listener goes too, so waits do not pile up on the response. */
function untilDrainedOrClosed(res: import('node:http').ServerResponse): Promise<void> {
  return new Promise((done) => {
    const go = () => { res.off('drain', go); res.off('close', go); done(); };
    res.once('drain', go);
    res.once('close', go);
  });
}

beforeAll(async () => {
  api = await serve({
    // 6 MB of a JSON array, 64 KB at a time, honouring backpressure.
    '/huge': async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, '1,');
      let sent = 0;
      res.write('[');
      while (sent < 6 * 1024 * 1024 && !res.destroyed) {
        sent += chunk.length;
        if (!res.write(chunk)) await untilDrainedOrClosed(res);
      }
      res.end('1]');
    },
    '/ok': (_req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"results":["é"]}'); },
  });
});
afterAll(async () => { await api?.close(); });

const call = (path: string) => requestJson({ provider: 'testapi', method: 'GET', url: new URL(api.url('127.0.0.1', path)), timeoutMs: 30_000, scrub: (t) => t });

describe('requestJson body limit', () => {
  it('a 6 MB answer is provider_error past 5 MB', async () => {
    const e = await failure(call('/huge'));
    expect([e.code, e.details.reason, e.message]).toEqual(['provider_error', 'response_too_large', expect.stringContaining(`larger than ${MAX_RESPONSE_BYTES} bytes`)]);
  });

  it('a small answer still parses, UTF-8 intact', async () => {
    expect(await call('/ok')).toEqual({ results: ['é'] });
  });
});
