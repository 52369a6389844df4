// The rules in front of `webcap mcp --http`, as pure functions and middleware
// called directly (no server): listen parsing, the bind rule, the token check,
// and the Origin check.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { allowedHostnames, assertBindable, isLoopback, originCheck, parseListen, tokenFrom } from '../../host/mcp/http-guard.js';
import { TokenTable } from '../../host/mcp/http-auth.js';
import { failure } from '../helpers/failure.js';

const errorOf = (f: () => unknown) => failure(Promise.resolve().then(f));

describe('parseListen', () => {
  it.each([
    ['127.0.0.1:8931', { host: '127.0.0.1', port: 8931 }],
    ['localhost:0', { host: 'localhost', port: 0 }],
    ['[::1]:9000', { host: '::1', port: 9000 }],
    ['0.0.0.0:80', { host: '0.0.0.0', port: 80 }],
  ])('%s', (text, want) => expect(parseListen(text)).toEqual(want));

  it.each(['8931', '127.0.0.1', 'host:99999', '::1:80', ''])('refuses %j', async (text) => {
    expect((await errorOf(() => parseListen(text))).code).toBe('invalid_params');
  });
});

describe('the bind rule', () => {
  it.each([['127.0.0.1', true], ['127.8.9.10', true], ['localhost', true], ['::1', true], ['0.0.0.0', false], ['::', false], ['192.168.1.4', false], ['10.0.0.1', false]])('%s loopback: %s', (host, want) => {
    expect(isLoopback(host)).toBe(want);
  });

  it('serves loopback without a token, refuses anything else without one', async () => {
    expect(() => assertBindable({ host: '127.0.0.1', port: 0 }, undefined, 'T')).not.toThrow();
    expect(() => assertBindable({ host: '0.0.0.0', port: 0 }, 'secret', 'T')).not.toThrow();
    const e = await errorOf(() => assertBindable({ host: '0.0.0.0', port: 0 }, undefined, 'MY_TOKEN'));
    expect(e.code).toBe('invalid_params');
    expect(e.message).toContain('MY_TOKEN');
  });

  it('reads an empty variable as no token', () => {
    expect(tokenFrom({ T: '' }, 'T')).toBeUndefined();
    expect(tokenFrom({ T: '  ' }, 'T')).toBeUndefined();
    expect(tokenFrom({}, 'T')).toBeUndefined();
    expect(tokenFrom({ T: 'abc' }, 'T')).toBe('abc');
  });

  it('allows loopback names on a loopback bind, the bound name on a specific one, any on a wildcard (the token guards it)', () => {
    expect(allowedHostnames('127.0.0.1')).toEqual(['localhost', '127.0.0.1', '[::1]']);
    expect(allowedHostnames('192.168.1.4')).toEqual(['192.168.1.4']);
    expect(allowedHostnames('fd00::1')).toEqual(['[fd00::1]']);
    expect(allowedHostnames('0.0.0.0')).toBeUndefined();
  });
});

describe('the token', () => {
  const table = new TokenTable([{ name: 'alice', token: 's3cret' }, { name: 'bob', token: 'b0b-token' }]);
  const req = (...pairs: string[]) => ({ rawHeaders: pairs });

  it('accepts exactly one well-formed bearer header carrying a known token, and names its client', () => {
    expect(table.authenticate(req('Authorization', 'Bearer s3cret'))).toEqual({ ok: true, client: 'alice' });
    expect(table.authenticate(req('authorization', 'bearer b0b-token'))).toEqual({ ok: true, client: 'bob' });
  });

  it.each([
    [[], /missing/],
    [['Authorization', 'Bearer s3cret', 'Authorization', 'Bearer s3cret'], /more than one/],
    [['Authorization', 'Bearer s3cret', 'authorization', 'Bearer b0b-token'], /more than one/],
    [['Authorization', 'Bearer s3cret s3cret'], /exactly/],
    [['Authorization', 'Bearer s3cret,Bearer s3cret'], /exactly/],
    [['Authorization', 'Bearer  s3cret'], /exactly/],
    [['Authorization', 'Bearer\ts3cret'], /exactly/],
    [['Authorization', 'Bearer s3cret '], /exactly/],
    [['Authorization', 'Basic s3cret'], /exactly/],
    [['Authorization', 's3cret'], /exactly/],
    [['Authorization', 'Bearer'], /exactly/],
    [['Authorization', 'Bearer S3CRET'], /invalid token/],
    [['Authorization', 'Bearer s3cre'], /invalid token/],
  ])('refuses %j', (pairs, why) => {
    const verdict = table.authenticate(req(...(pairs as string[])));
    expect(verdict.ok).toBe(false);
    expect((verdict as { reason: string }).reason).toMatch(why);
  });
});

describe('originCheck', () => {
  function run(allowed: string[] | undefined, headers: Record<string, string>): number {
    let status = 0;
    const res = { writeHead: (s: number) => { status = s; return { end: () => undefined }; } } as unknown as ServerResponse;
    originCheck(allowed)({ headers } as IncomingMessage, res, () => { status = 200; });
    return status;
  }
  const loop = allowedHostnames('127.0.0.1');

  it.each([
    [{}, 200],                                              // no Origin: not a browser page
    [{ origin: 'http://localhost:5173' }, 200],
    [{ origin: 'http://127.0.0.1:8931' }, 200],
    [{ origin: 'https://evil.example' }, 403],
    [{ origin: 'null' }, 403],
  ])('loopback bind, %j → %d', (headers, want) => expect(run(loop, headers)).toBe(want));

  it('on a wildcard bind, an Origin must name the host the request addressed', () => {
    expect(run(undefined, { host: 'box.lan:8931', origin: 'http://box.lan:8931' })).toBe(200);
    expect(run(undefined, { host: 'box.lan:8931', origin: 'http://evil.example' })).toBe(403);
  });
});
