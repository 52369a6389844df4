// Host ↔ sidecar over in-memory streams: the typed descriptors carry params,
// results and WebcapErrors (code, message, details) intact both ways.
import { PassThrough } from 'node:stream';
import { createMessageConnection, ResponseError, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import { afterEach, expect, it } from 'vitest';
import { WebcapError, toWebcapError } from '../../manifests/errors.js';
import { InvokeRequest, SensitiveRequest, BlockedNotification, type BlockedRequest } from '../../manifests/wire.js';

function linked() {
  const toSidecar = new PassThrough();
  const toHost = new PassThrough();
  const host = createMessageConnection(new StreamMessageReader(toHost), new StreamMessageWriter(toSidecar));
  const sidecar = createMessageConnection(new StreamMessageReader(toSidecar), new StreamMessageWriter(toHost));
  return { host, sidecar };
}

let pair: ReturnType<typeof linked> | undefined;
afterEach(() => { pair?.host.dispose(); pair?.sidecar.dispose(); });

it('carries an invoke and its result', async () => {
  pair = linked();
  pair.sidecar.onRequest(InvokeRequest, ({ capability, params, owner }) => ({ echoed: capability, params, owner }));
  pair.host.listen();
  pair.sidecar.listen();
  expect(await pair.host.sendRequest(InvokeRequest, { capability: 'web.extract', params: { selector: 'h1' }, owner: 'test' }))
    .toEqual({ echoed: 'web.extract', params: { selector: 'h1' }, owner: 'test' });
});

it('turns a sidecar WebcapError back into the same WebcapError on the host', async () => {
  pair = linked();
  pair.sidecar.onRequest(InvokeRequest, () => {
    const e = new WebcapError('selector_not_found', 'no element matching #x appeared within 50 ms', { selector: '#x' });
    return new ResponseError(-32000, e.message, e.toJSON());
  });
  pair.host.listen();
  pair.sidecar.listen();
  const err = await pair.host.sendRequest(InvokeRequest, { capability: 'web.wait', params: {}, owner: 'test' }).catch(toWebcapError);
  expect(err).toBeInstanceOf(WebcapError);
  expect([err.code, (err.details as Record<string, unknown>).selector]).toEqual(['selector_not_found', '#x']);
});

it('lets the sidecar ask the host and report blocked requests', async () => {
  pair = linked();
  const blocked: BlockedRequest[] = [];
  pair.host.onRequest(SensitiveRequest, (a) => ({ approved: a.reason !== 'password_field' }));
  pair.host.onNotification(BlockedNotification, (b) => { blocked.push(b); });
  pair.host.listen();
  pair.sidecar.listen();
  const base = { capability: 'web.fill', session: 's1', url: 'http://a.test/' } as const;
  expect(await pair.sidecar.sendRequest(SensitiveRequest, { ...base, reason: 'password_field' })).toEqual({ approved: false });
  expect(await pair.sidecar.sendRequest(SensitiveRequest, { ...base, reason: 'form_submit' })).toEqual({ approved: true });
  await pair.sidecar.sendNotification(BlockedNotification, { session: 's1', url: 'http://x.test/a.png', host: 'x.test', kind: 'image', code: 'not_allowlisted', reason: 'no' });
  // A notification has no answer to wait for: poll until it arrived (a fixed short wait failed on a busy machine).
  await expect.poll(() => blocked.map((b) => b.host)).toEqual(['x.test']);
});

it('maps anything else thrown to internal, first line only', () => {
  const e = toWebcapError(new Error('boom\n    at stack frame'));
  expect([e.code, e.message]).toEqual(['internal', 'boom']);
});
