// The console's rules as pure functions: where it may listen, the token, the
// Host/Origin check; and the endpoint refusal the network guard applies.
import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { consoleAccess, hostAndOriginOk, tokenCheck } from '../../../host/console/guard.js';
import { RefusedEndpoints } from '../../../sidecar/guard/refused-endpoints.js';
import { failure } from '../../helpers/failure.js';

const req = (url: string, headers: Record<string, string>) => ({ url, headers } as unknown as IncomingMessage);

describe('consoleAccess', () => {
  it('serves loopback with a fresh random token', () => {
    const a = consoleAccess('127.0.0.1:0', undefined);
    const b = consoleAccess('127.0.0.1:0', undefined);
    expect(a.token).not.toBe(b.token);
    expect(a.token.length).toBeGreaterThanOrEqual(32);
  });
  it('refuses a non-loopback listen without --token-env, and an empty variable', async () => {
    expect((await failure(Promise.resolve().then(() => consoleAccess('0.0.0.0:0', undefined)))).message).toMatch(/--token-env/);
    expect((await failure(Promise.resolve().then(() => consoleAccess('0.0.0.0:0', 'T', { T: '' })))).code).toBe('invalid_params');
    expect(consoleAccess('0.0.0.0:0', 'T', { T: 'long-enough-secret' }).token).toBe('long-enough-secret');
  });
});

describe('token and Host/Origin', () => {
  it('needs the exact token, from the query or the cookie', () => {
    expect(tokenCheck(req('/state', {}), 'abc')).toBe('missing');
    expect(tokenCheck(req('/state?token=abd', {}), 'abc')).toBe('wrong');
    expect(tokenCheck(req('/state?token=abc', {}), 'abc')).toBe('ok');
    expect(tokenCheck(req('/state', { cookie: 'x=1; webcap_console=abc' }), 'abc')).toBe('ok');
  });
  it('refuses a rebound Host and a foreign Origin', () => {
    const hosts = ['localhost', '127.0.0.1', '[::1]'];
    expect(hostAndOriginOk(req('/', { host: '127.0.0.1:4000' }), hosts)).toBe(true);
    expect(hostAndOriginOk(req('/', { host: 'evil.example:4000' }), hosts)).toBe(false);
    expect(hostAndOriginOk(req('/', {}), hosts)).toBe(false);
    expect(hostAndOriginOk(req('/', { host: '127.0.0.1:4000', origin: 'http://127.0.0.1:4000' }), hosts)).toBe(true);
    expect(hostAndOriginOk(req('/', { host: '127.0.0.1:4000', origin: 'http://127.0.0.1:5000' }), hosts)).toBe(false);
    expect(hostAndOriginOk(req('/', { host: '127.0.0.1:4000', origin: 'null' }), hosts)).toBe(false);
  });
});

describe('RefusedEndpoints', () => {
  it('refuses exactly the console address and port (v4-mapped too); a wildcard bind refuses the port everywhere', () => {
    const r = new RefusedEndpoints();
    r.add('127.0.0.1', 4000);
    expect(r.check('127.0.0.1', 4000)?.code).toBe('ssrf_blocked');
    expect(r.check('::ffff:127.0.0.1', 4000)).toBeDefined();
    expect(r.check('127.0.0.1', 4001)).toBeUndefined();
    expect(r.check('127.0.0.2', 4000)).toBeUndefined();
    r.add('0.0.0.0', 5000);
    expect(r.check('10.1.2.3', 5000)).toBeDefined();
  });
});
