// When an MCP-over-HTTP session counts as used, for its idle end. Only the
// caller's work is use: a POST carrying JSON-RPC (a request, a notification,
// or its answer to the server's question). An open listening stream (GET) is
// not, however often the client opens, reopens or retries it: a client that
// only listens is idle. A POST is busy until its response is over however it
// ends (answered, failed, or the client gone); a tool call still running after
// its client went away keeps the session busy too, so its browser sessions are
// never closed under it.
import { finished } from 'node:stream';
import type { ServerResponse } from 'node:http';
import { isJSONRPCErrorResponse, isJSONRPCNotification, isJSONRPCRequest, isJSONRPCResultResponse } from '@modelcontextprotocol/sdk/types.js';

/** A JSON-RPC message, or a non-empty batch of them, as a POST carries the caller's work. */
export function isCallersWork(method: string | undefined, body: unknown): boolean {
  if (method !== 'POST') return false;
  const messages = Array.isArray(body) ? body : [body];
  return messages.length > 0 && messages.every((m) => isJSONRPCRequest(m) || isJSONRPCNotification(m) || isJSONRPCResultResponse(m) || isJSONRPCErrorResponse(m));
}

export class SessionUse {
  private lastUsed = Date.now();
  private posts = 0;

  /** A POST of the caller's work: used now, and busy until its response is over (answered, failed or aborted). */
  post(res: ServerResponse): void {
    this.lastUsed = Date.now();
    this.posts += 1;
    // finished() calls back once, also for a response already over when it is asked.
    finished(res, () => { this.posts -= 1; this.lastUsed = Date.now(); });
  }

  /** Idle for longer than `ms`; `calls` tool calls are still running (a running call is use, now). */
  idleLongerThan(ms: number, calls: number, now = Date.now()): boolean {
    if (calls > 0) this.lastUsed = now;
    return this.posts === 0 && calls === 0 && now - this.lastUsed > ms;
  }
}
