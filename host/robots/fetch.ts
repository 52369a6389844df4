// Fetches an origin's robots.txt and says what it means under RFC 9309 §2.3.1:
// 2xx → the rules; 4xx (404 included) → allow all ("unavailable"); 5xx or no
// answer → disallow all ("unreachable"); redirects followed up to 5 hops, and
// past that the file counts as unavailable (allow all), as the RFC permits.
import { httpGet, type HttpGetOptions } from './http-get.js';

export type RobotsFetch =
  | { kind: 'rules'; body: string; url: string }
  | { kind: 'allow_all'; reason: string }
  | { kind: 'disallow_all'; reason: string };

export const MAX_REDIRECTS = 5;

export async function fetchRobots(origin: string, opts: HttpGetOptions, get = httpGet): Promise<RobotsFetch> {
  let url = `${origin}/robots.txt`;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    let res;
    try {
      res = await get(url, opts);
    } catch (err) {
      return { kind: 'disallow_all', reason: `robots.txt unreachable (${(err as Error).message})` };
    }
    if (res.status >= 300 && res.status < 400 && res.headers.location) {
      url = new URL(res.headers.location, url).href;
      continue;
    }
    if (res.status >= 200 && res.status < 300) return { kind: 'rules', body: res.body, url };
    if (res.status >= 400 && res.status < 500) return { kind: 'allow_all', reason: `robots.txt answered ${res.status}: allow all` };
    return { kind: 'disallow_all', reason: `robots.txt answered ${res.status}: disallow all` };
  }
  return { kind: 'allow_all', reason: `robots.txt redirected more than ${MAX_REDIRECTS} times: treated as unavailable` };
}
