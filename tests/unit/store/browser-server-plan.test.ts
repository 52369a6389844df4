// `webcap browser-server` flags, checked before anything binds.
import { describe, expect, it } from 'vitest';
import { planServer } from '../../../host/daemon/browser-server.js';
import { WebcapError } from '../../../manifests/errors.js';

const refusal = (f: () => unknown) => { try { f(); } catch (e) { expect(e).toBeInstanceOf(WebcapError); return `${(e as WebcapError).code}: ${(e as WebcapError).message}`; } throw new Error('expected a refusal'); };
const token = 'a'.repeat(32);

describe('browser-server --listen / --token-env', () => {
  it('binds loopback by default, port chosen by the system', () => {
    expect(planServer(undefined, undefined)).toEqual({ host: '127.0.0.1', port: 0, token: undefined });
    expect(planServer('[::1]:9333', undefined)).toEqual({ host: '::1', port: 9333, token: undefined });
    expect(planServer('localhost:9333', undefined).host).toBe('localhost');
  });

  it.each(['0.0.0.0:9333', '10.0.0.5:9333', '[::]:9333', 'browser.example.org:9333'])('refuses %s without a token', (listen) => {
    expect(refusal(() => planServer(listen, undefined))).toMatch(/^invalid_params: refusing to serve a browser on .* not a loopback address, without a token/);
  });

  it('takes the token from the named env var, and refuses a missing or weak one', () => {
    expect(planServer('0.0.0.0:9333', 'WS_TOKEN', { WS_TOKEN: token })).toEqual({ host: '0.0.0.0', port: 9333, token });
    expect(refusal(() => planServer('0.0.0.0:9333', 'WS_TOKEN', {}))).toMatch(/WS_TOKEN, which is not set/);
    expect(refusal(() => planServer('0.0.0.0:9333', 'WS_TOKEN', { WS_TOKEN: 'short' }))).toMatch(/at least 16 characters/);
    expect(refusal(() => planServer('0.0.0.0:9333', 'WS_TOKEN', { WS_TOKEN: `${token}/x` }))).toMatch(/at least 16 characters of/);
  });

  it('refuses a malformed address', () => {
    expect(refusal(() => planServer('9333', undefined))).toMatch(/--listen must be HOST:PORT/);
    expect(refusal(() => planServer('127.0.0.1:70000', undefined))).toMatch(/--listen must be HOST:PORT/);
  });
});
