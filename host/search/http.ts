// One JSON request to a paid API, with every way it can fail turned into a
// WebcapError an agent can act on. The request URL's query is never quoted
// (SerpAPI carries its key there) and the provider's own error text is
// scrubbed of secrets before it is repeated.
import { WebcapError } from '../../manifests/errors.js';

/** No search or places answer comes near this; a bigger body is a broken or hostile endpoint. */
export const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;

interface ProviderRequest {
  provider: string;
  method: 'GET' | 'POST';
  url: URL;
  headers?: Record<string, string>;
  body?: unknown;
  timeoutMs: number;
  /** Removes secrets from text that came back from the provider (ctx.redactor.redactString). */
  scrub: (text: string) => string;
}

export async function requestJson(req: ProviderRequest): Promise<unknown> {
  const { provider, url, timeoutMs } = req;
  const where = `${url.origin}${url.pathname}`;
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      method: req.method,
      headers: { accept: 'application/json', ...(req.body === undefined ? {} : { 'content-type': 'application/json' }), ...req.headers },
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
      // An API does not redirect; following one could carry the key header to another host.
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await readCapped(res, provider, where);
  } catch (err) {
    if (err instanceof WebcapError) throw err;
    const e = err as Error & { cause?: { code?: string; message?: string } };
    if (e.name === 'TimeoutError' || e.name === 'AbortError') {
      throw new WebcapError('timeout', `${provider}: no answer from ${where} within ${timeoutMs} ms`, { provider, timeout_ms: timeoutMs });
    }
    const why = e.cause?.code ?? e.cause?.message ?? e.message;
    throw new WebcapError('provider_error', `${provider}: could not reach ${where} (${req.scrub(String(why))})`, { provider, reason: 'unreachable' });
  }
  if (res.status < 200 || res.status > 299) throw httpFailure(req, where, res, text);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw malformed(provider, `answered HTTP ${res.status} with a body that is not JSON (${text.length} bytes from ${where})`);
  }
}

/** The body as UTF-8 text (as res.text() decodes it), read no further than MAX_RESPONSE_BYTES. */
async function readCapped(res: Response, provider: string, where: string): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = res.body?.getReader();
  for (let next = await reader?.read(); next && !next.done; next = await reader!.read()) {
    size += next.value.length;
    if (size > MAX_RESPONSE_BYTES) {
      await reader!.cancel(); // closes the connection: the rest is never downloaded
      throw new WebcapError('provider_error', `${provider}: the answer from ${where} is larger than ${MAX_RESPONSE_BYTES} bytes`, { provider, reason: 'response_too_large', max_bytes: MAX_RESPONSE_BYTES });
    }
    chunks.push(next.value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

export function malformed(provider: string, what: string): WebcapError {
  return new WebcapError('provider_error', `${provider}: ${what}`, { provider, reason: 'malformed_response' });
}

function httpFailure(req: ProviderRequest, where: string, res: Response, body: string): WebcapError {
  const { provider } = req;
  const status = res.status;
  const said = req.scrub(providerMessage(body));
  const tail = said ? `: ${said}` : '';
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(res.headers.get('retry-after')) ?? 60_000;
    return new WebcapError('budget_exceeded', `${provider} is rate-limiting us (HTTP 429)${tail}; retry in ${retryAfterMs} ms`, { provider, status, retry_after_ms: retryAfterMs });
  }
  if (status === 401 || status === 403) {
    return new WebcapError('provider_error', `${provider} refused the credentials (HTTP ${status})${tail}`, { provider, status, reason: 'unauthorized' });
  }
  if (status === 408 || status === 504) {
    return new WebcapError('timeout', `${provider} gave up waiting (HTTP ${status})${tail}`, { provider, status });
  }
  if (status >= 300 && status < 400) {
    return new WebcapError('provider_error', `${provider}: unexpected redirect (HTTP ${status}) from ${where}`, { provider, status, reason: 'redirect' });
  }
  const reason = status >= 500 ? 'server_error' : 'bad_request';
  return new WebcapError('provider_error', `${provider} answered HTTP ${status}${tail}`, { provider, status, reason });
}

/** The error text APIs put in their JSON bodies: {"error": "…"}, {"error": {"message": "…"}}, {"message": "…"}. */
export function providerMessage(body: string): string {
  let text = '';
  try {
    const j = JSON.parse(body) as { error?: unknown; message?: unknown };
    const e = j?.error as { message?: unknown; type?: unknown } | string | undefined;
    if (typeof e === 'string') text = e;
    else if (e && typeof e.message === 'string') text = typeof e.type === 'string' ? `${e.message} (${e.type})` : e.message;
    else if (typeof j?.message === 'string') text = j.message;
  } catch {
    text = /^\s*</.test(body) ? '' : body; // an HTML error page says nothing useful
  }
  text = text.replace(/\s+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** Retry-After is either delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
