// What counts as an MCP-over-HTTP client's use of its session for the idle end:
// a POST carrying JSON-RPC; never a GET (its listening stream) or a body that is not JSON-RPC.
import { describe, expect, it } from 'vitest';
import { isCallersWork } from '../../host/mcp/http-use.js';

const call = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'web_status', arguments: {} } };
const note = { jsonrpc: '2.0', method: 'notifications/initialized' };
const answer = { jsonrpc: '2.0', id: 0, result: { action: 'accept', content: {} } };

describe('isCallersWork', () => {
  it('a POST of a request, a notification, an answer to the server, or a batch of them is work', () => {
    for (const body of [call, note, answer, [call, note]]) expect(isCallersWork('POST', body)).toBe(true);
  });
  it('a GET (the listening stream), a DELETE, or a POST of something else is not', () => {
    expect(isCallersWork('GET', undefined)).toBe(false);
    expect(isCallersWork('GET', call)).toBe(false);
    expect(isCallersWork('DELETE', undefined)).toBe(false);
    for (const body of [undefined, null, {}, [], 'ping', { method: 'tools/call' }, [call, { hello: 1 }]]) expect(isCallersWork('POST', body)).toBe(false);
  });
});
