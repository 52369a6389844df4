// The method a walked redirect hop is requested with (redirect-walk.ts), as
// browsers do it: a POST re-sent only by 307/308.
import { describe, expect, it } from 'vitest';
import { methodAfter } from '../../../sidecar/guard/redirect-walk.js';

describe('methodAfter', () => {
  const table: Array<[number, string, string]> = [
    [301, 'GET', 'GET'], [302, 'GET', 'GET'], [303, 'GET', 'GET'], [307, 'GET', 'GET'], [308, 'GET', 'GET'],
    [301, 'POST', 'GET'], [302, 'POST', 'GET'], [303, 'POST', 'GET'],
    [307, 'POST', 'POST'], [308, 'POST', 'POST'], [307, 'DELETE', 'DELETE'],
    [303, 'PUT', 'GET'], [302, 'PUT', 'PUT'], [303, 'HEAD', 'HEAD'],
  ];
  for (const [status, method, after] of table) {
    it(`${status} after ${method} → ${after}`, () => expect(methodAfter(status, method)).toBe(after));
  }
});
