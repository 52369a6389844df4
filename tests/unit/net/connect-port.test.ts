// The guard proxy's reading of a CONNECT target: the port is taken from the
// text, because new URL('http://host:80').port is '' and 80 would become 443.
import { describe, expect, it } from 'vitest';
import { connectPort } from '../../../sidecar/guard/network-guard.js';

describe('connectPort', () => {
  it.each([
    ['chat.example:80', 80],
    ['chat.example:443', 443],
    ['chat.example:8080', 8080],
    ['127.0.0.1:80', 80],
    ['[::1]:80', 80],
    ['[::1]:9443', 9443],
    ['chat.example', 443],
    ['[::1]', 443],
  ])('%s → %i', (authority, port) => {
    expect(connectPort(authority)).toBe(port);
  });
});
