import { describe, expect, it } from 'vitest';
import { isStateChanging, originOf, typesIntoField } from '../../../sidecar/guard/effect-rules.js';
import { passesEffect } from '../../../sidecar/guard/effect-route.js';
import { typedText } from '../../../sidecar/guard/typing-guard.js';

describe('isStateChanging (RFC 9110 safe methods pass)', () => {
  it.each([
    ['GET', false], ['get', false], ['HEAD', false], ['OPTIONS', false], ['TRACE', false],
    ['POST', true], ['post', true], ['PUT', true], ['PATCH', true], ['DELETE', true], ['PROPFIND', true], ['X-CUSTOM', true],
  ])('%s → %s', (method, expected) => {
    expect(isStateChanging(method)).toBe(expected);
  });
});

describe('typesIntoField', () => {
  it.each([
    ['a', true], ['+', true], [' ', true], ['Shift+A', true], ['Control+v', true], ['Meta+V', true], ['Backspace', true],
    ['Delete', true], ['Space', true], ['Enter', true], ['Insert', true],
    ['Tab', false], ['Shift+Tab', false], ['ArrowLeft', false], ['Escape', false], ['Home', false], ['PageDown', false],
    ['F5', false], ['Shift', false], ['Control', false],
  ])('%s → %s', (key, expected) => {
    expect(typesIntoField(key)).toBe(expected);
  });
});

describe('originOf', () => {
  it.each([
    ['https://a.test:8443/x?y=1', 'https://a.test:8443'],
    ['http://a.test:80/x', 'http://a.test'],
    ['about:blank', undefined],
    ['not a url', undefined],
  ])('%s → %s', (url, expected) => {
    expect(originOf(url)).toBe(expected);
  });
});

describe('passesEffect: the route layer\'s pass is good for its own host only', () => {
  const secret = 'abc123';
  it.each([
    [`${secret} shop.test:8080`, 'http://shop.test:8080/login', true],
    [`${secret} shop.test:8080`, 'http://other.test:8080/login', false],      // a 307 re-sending the POST elsewhere
    [`${secret} shop.test`, 'http://shop.test:8080/login', false],
    ['wrong shop.test:8080', 'http://shop.test:8080/login', false],
    [undefined, 'http://shop.test:8080/login', false],
    [[`${secret} shop.test:8080`], 'http://shop.test:8080/login', false],
  ])('%j for %s → %s', (pass, url, expected) => {
    expect(passesEffect(pass as string | string[] | undefined, secret, new URL(url))).toBe(expected);
  });
});

it('typedText keeps the single-character keys, in order', () => {
  expect(typedText(['Tab', 'h', 'u', 'Shift+N', 'n', 'Enter'])).toBe('hun');
});
