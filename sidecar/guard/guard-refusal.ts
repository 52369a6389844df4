// The guard proxy answers a refused plain-http redirect hop with a 403 marked
// `x-webcap-blocked`. Any site can send that header too, so it only counts when
// the guard itself recorded a refusal of that very host; otherwise the
// response is treated as the site's own.
import type { Response } from 'playwright';
import { WebcapError } from '../../manifests/errors.js';
import type { BlockedRequest } from '../../manifests/wire.js';
import { hostOf } from './effect-rules.js';

export function guardRefusal(response: Response | null, url: string, blocked: BlockedRequest | undefined): WebcapError | undefined {
  if (!response || !blocked || response.status() !== 403 || !response.headers()['x-webcap-blocked']) return undefined;
  if (hostOf(blocked.url) !== hostOf(response.url())) return undefined;
  return new WebcapError(blocked.code, `${blocked.reason} (opening ${url})`, { url: blocked.url, host: blocked.host });
}
