// page.evaluate and page.content have no timeout of their own: a page stuck in
// a busy script would hold the call (and whatever cleanup follows it) forever.
import { WebcapError } from '../manifests/errors.js';

/** `work`, or a 'timeout' WebcapError saying `what` once `ms` have passed (the work itself is left to finish or fail). */
export async function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const overtime = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new WebcapError('timeout', `${what}: not finished in time (the page may be busy in a script)`, { timeout_ms: Math.round(ms) })), Math.max(0, ms));
  });
  // A late rejection of the abandoned work must not surface as an unhandled rejection.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, overtime]);
  } finally {
    clearTimeout(timer);
  }
}
