// The live view sends what changes and nothing else: a page that keeps
// moving keeps sending frames (screenshots on a timer), a page that stands
// still sends its picture and then nothing (the same picture is never sent
// twice), and a still page that changes shows the change. Frames are counted
// on the console's own stream, as a viewer receives them.
import { request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { testConfig, testHost } from '../helpers/host.js';

let site: FixtureServer;
let host: Host;
let consoleUrl: string;

beforeAll(async () => {
  site = await serve({
    '/moving': (_q, res) => send(res, html('<h1>Moving</h1><div id="m">live</div>', '<style>#m{width:300px;height:200px;background:#c33;animation:move 1s linear infinite alternate}@keyframes move{from{transform:translateX(0)}to{transform:translateX(800px)}}</style>')),
    '/still': (_q, res) => send(res, html('<h1>Still</h1><p id="p">Text that stays as it is.</p>')),
  });
  host = testHost(testConfig({ browser: { max_concurrent_sessions: 5 }, network: { resolve: { 'live.test': '127.0.0.1' } } }));
  consoleUrl = (await host.console()).url;
});
afterAll(async () => {
  await host?.close();
  await site?.close();
});

/** Watches a session's frame stream; frames() is the number of whole frames received so far. */
function watch(session: string): { frames(): number; close(): void } {
  const u = new URL(consoleUrl);
  let parts = 0;
  let tail = '';
  const req = request(`${u.origin}/live/${session}.mjpeg?token=${u.searchParams.get('token')}`, (res) => {
    res.on('data', (chunk: Buffer) => {
      const text = tail + chunk.toString('latin1');
      parts += text.split('--webcap-frame').length - 1;
      tail = text.slice(-('--webcap-frame'.length - 1));
    });
  });
  req.on('error', () => undefined);
  req.end();
  // Each frame is followed by the next part's boundary at once; the first boundary opens the stream.
  return { frames: () => Math.max(0, parts - 1), close: () => req.destroy() };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

it('a moving page keeps sending frames while someone watches', async () => {
  const { session } = await host.call('web.open', { url: site.url('live.test', '/moving') });
  const viewer = watch(String(session));
  try {
    await expect.poll(() => viewer.frames(), { timeout: 30_000 }).toBeGreaterThan(0);
    const first = viewer.frames();
    await expect.poll(() => viewer.frames(), { timeout: 30_000 }).toBeGreaterThanOrEqual(first + 5);
  } finally {
    viewer.close();
  }
});

it('a still page sends its picture, then nothing until it changes', async () => {
  const { session } = await host.call('web.open', { url: site.url('live.test', '/still') });
  const viewer = watch(String(session));
  try {
    await expect.poll(() => viewer.frames(), { timeout: 30_000 }).toBeGreaterThan(0);
    // Screenshots until three in a row are the same, then the screencast (whose first picture may be encoded apart).
    await sleep(3000);
    const settled = viewer.frames();
    await sleep(3000);
    expect(viewer.frames()).toBe(settled);
    expect(settled).toBeLessThanOrEqual(3);
    // A change shows.
    await host.call('web.navigate', { url: site.url('live.test', '/moving') });
    await expect.poll(() => viewer.frames(), { timeout: 30_000 }).toBeGreaterThan(settled);
  } finally {
    viewer.close();
  }
});
