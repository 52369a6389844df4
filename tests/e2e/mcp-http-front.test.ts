// The HTTP front of `webcap mcp --http` as a hostile client meets it: raw
// requests with the token twice, odd spacing and casing, a wrong token, a
// body that is not JSON, a body far over the limit. Each is refused with a
// JSON-RPC error object (never HTML, a stack or a path) and opens no session.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../host/mcp/http-front.js';
import { startMcpHttp, type McpHttpServer } from '../../host/mcp/http.js';
import { tempDir, testConfig } from '../helpers/host.js';

const TOKEN = 'front-token-8d2e77';
let mcp: McpHttpServer;

const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

interface Answer { status: number; type: string; body: string; session?: string }

/** A raw request; `auth` values become one Authorization header line each. */
function send(opts: { auth?: string[]; body?: string | Buffer; method?: string; path?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  const url = new URL(mcp.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: opts.path ?? '/mcp', method: opts.method ?? 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...opts.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body: Buffer.concat(chunks).toString('utf8'), session: res.headers['mcp-session-id'] as string | undefined }));
    });
    if (opts.auth) req.setHeader('Authorization', opts.auth.length === 1 ? opts.auth[0] : opts.auth);
    // A server that stops reading may reset the connection while we still write: the answer already came.
    req.on('error', reject);
    req.end(opts.body ?? INIT);
  });
}

function expectJsonRpcError(a: Answer, status: number): { code: number; message: string } {
  expect(a.status).toBe(status);
  expect(a.type).toContain('application/json');
  const parsed = JSON.parse(a.body) as { jsonrpc: string; error: { code: number; message: string } };
  expect(parsed.jsonrpc).toBe('2.0');
  expect(a.body).not.toMatch(/<html|<pre|\bat [\w.]+ \(|\/work\/|node_modules|\.ts:\d+/i);
  return parsed.error;
}

beforeAll(async () => {
  const dir = tempDir('webcap-mcp-front-');
  mcp = await startMcpHttp({ listen: '127.0.0.1:0', config: testConfig({ dir }), env: { WEBCAP_MCP_TOKEN: TOKEN } });
});
afterAll(async () => { await mcp?.close(); });

describe('the HTTP front parses strictly', () => {
  it.each([
    ['the token twice in one header', [`Bearer ${TOKEN} ${TOKEN}`]],
    ['the token twice, comma-joined', [`Bearer ${TOKEN}, Bearer ${TOKEN}`]],
    ['two Authorization headers with the token', [`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]],
    ['a wrong header then the right one', ['Bearer wrong', `Bearer ${TOKEN}`]],
    ['two spaces', [`Bearer  ${TOKEN}`]],
    ['a tab', [`Bearer\t${TOKEN}`]],
    ['another scheme', [`Basic ${TOKEN}`]],
    ['no scheme', [TOKEN]],
    ['the token in upper case', [`Bearer ${TOKEN.toUpperCase()}`]],
    ['a prefix of the token', [`Bearer ${TOKEN.slice(0, -1)}`]],
    ['a wrong token', ['Bearer wrong']],
    ['no header', undefined],
  ])('refuses %s with 401 and opens no session', async (_name, auth) => {
    const before = mcp.sessions().length;
    const a = await send({ auth: auth as string[] | undefined });
    expectJsonRpcError(a, 401);
    expect(a.session).toBeUndefined();
    expect(mcp.sessions()).toHaveLength(before);
  });

  it('accepts exactly one well-formed header (the scheme in any case, as HTTP says)', async () => {
    for (const scheme of ['Bearer', 'bearer']) {
      const a = await send({ auth: [`${scheme} ${TOKEN}`] });
      expect(a.status).toBe(200);
      expect(a.session).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('answers a malformed JSON body with a JSON-RPC parse error, not an HTML page with a stack', async () => {
    for (const body of ['{"jsonrpc": "2.0", "id": 1, "method": ', 'not json at all', '\u0000\u0001']) {
      const before = mcp.sessions().length;
      const e = expectJsonRpcError(await send({ auth: [`Bearer ${TOKEN}`], body }), 400);
      expect(e.code).toBe(-32700);
      expect(mcp.sessions()).toHaveLength(before);
    }
  });

  it('refuses a body over the limit with 413, declared or streamed, before parsing it', async () => {
    const huge = Buffer.alloc(MAX_BODY_BYTES + 1, 0x20);
    const before = mcp.sessions().length;
    expectJsonRpcError(await send({ auth: [`Bearer ${TOKEN}`], body: huge }), 413);
    // Chunked: no Content-Length to refuse up front, so the reader counts.
    expectJsonRpcError(await send({ auth: [`Bearer ${TOKEN}`], body: huge, headers: { 'transfer-encoding': 'chunked' } }), 413);
    expect(mcp.sessions()).toHaveLength(before);
    // The server still answers afterwards.
    expect((await send({ auth: [`Bearer ${TOKEN}`] })).status).toBe(200);
  });

  it('refuses an unauthenticated huge body without reading it (401, not 413)', async () => {
    expectJsonRpcError(await send({ body: Buffer.alloc(MAX_BODY_BYTES * 2, 0x20) }), 401);
  });

  it('answers an unknown path and an unknown session as JSON-RPC errors', async () => {
    expectJsonRpcError(await send({ auth: [`Bearer ${TOKEN}`], path: '/etc/passwd', method: 'GET', body: '' }), 404);
    expectJsonRpcError(await send({ auth: [`Bearer ${TOKEN}`], headers: { 'mcp-session-id': 'nope' }, body: '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' }), 404);
  });
});
