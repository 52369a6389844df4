// Playwright's errors → our closed set, so the host never sees a raw stack.
import { WebcapError, toWebcapError } from '../manifests/errors.js';
import type { BlockedRequest } from '../manifests/wire.js';

const CLOSED = /Target page, context or browser has been closed|Browser has been closed|browser has disconnected|Target closed|Connection closed/i;

function isBrowserGone(err: unknown): boolean {
  return CLOSED.test(String((err as Error)?.message ?? err));
}

export function mapError(err: unknown, hint: { url?: string; blocked?: BlockedRequest } = {}): WebcapError {
  if (err instanceof WebcapError) return err;
  const message = String((err as Error)?.message ?? err).split('\n')[0];
  if (isBrowserGone(err)) return new WebcapError('browser_crashed', `the browser went away: ${message}`);
  if ((err as Error)?.name === 'TimeoutError') return new WebcapError('timeout', message);
  const net = /net::(ERR_[A-Z_]+)/.exec(message)?.[1];
  if (net && hint.blocked && (net === 'ERR_BLOCKED_BY_CLIENT' || net === 'ERR_FAILED')) {
    const b = hint.blocked;
    return new WebcapError(b.code, b.reason, { url: b.url, host: b.host });
  }
  if (net) return new WebcapError('navigation_failed', `could not load ${hint.url ?? 'the page'}: ${net}`, { net_error: net, url: hint.url });
  return toWebcapError(err);
}
