// Who is calling `webcap mcp --http`: exactly one `Authorization: Bearer
// <token>` header, parsed strictly, its token compared in constant time with
// every known client's (no early exit, so the time says nothing about which
// token came close). A header twice, a second token, a stray space or a
// token nobody holds is refused alike.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A caller the server knows: its name (recorded, the owner of its state) and its token. */
interface ClientToken { name: string; token: string }

interface Authenticated { ok: true; client: string }
export interface Refused { ok: false; reason: string }

// RFC 6750 b64token: what a bearer token may contain; anything else is not one token.
const BEARER = /^bearer ([A-Za-z0-9\-._~+/]+=*)$/i;

/** The one bearer token of a request, or why there is not exactly one. */
function bearerOf(req: Pick<IncomingMessage, 'rawHeaders'>): { token: string } | Refused {
  // Node keeps only the first of repeated Authorization headers in req.headers: count the raw ones.
  const values: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i].toLowerCase() === 'authorization') values.push(req.rawHeaders[i + 1]);
  if (values.length === 0) return { ok: false, reason: 'missing Authorization header' };
  if (values.length > 1) return { ok: false, reason: 'more than one Authorization header' };
  const m = BEARER.exec(values[0]);
  if (!m) return { ok: false, reason: "Authorization must be exactly 'Bearer <token>'" };
  return { token: m[1] };
}

export class TokenTable {
  private readonly entries: Array<{ name: string; digest: Buffer }>;

  constructor(clients: ClientToken[]) {
    this.entries = clients.map((c) => ({ name: c.name, digest: digest(c.token) }));
  }

  get size(): number { return this.entries.length; }

  /** The client whose token this is; every entry is compared, whatever matches first. */
  clientOf(token: string): string | undefined {
    const given = digest(token);
    let found: string | undefined;
    for (const e of this.entries) if (timingSafeEqual(given, e.digest) && found === undefined) found = e.name;
    return found;
  }

  authenticate(req: Pick<IncomingMessage, 'rawHeaders'>): Authenticated | Refused {
    const bearer = bearerOf(req);
    if ('ok' in bearer) return bearer;
    const client = this.clientOf(bearer.token);
    return client === undefined ? { ok: false, reason: 'invalid token' } : { ok: true, client };
  }
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
