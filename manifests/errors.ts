// The closed set of error codes. Every failure a caller sees is a
// WebcapError carrying one of these, so plans and agents can branch on `.code`
// instead of parsing messages.
export const ERROR_CODES = [
  'invalid_params', 'unknown_capability', 'capability_disabled', 'not_allowlisted',
  'robots_disallowed', 'budget_exceeded', 'consent_denied', 'ssrf_blocked',
  'unsupported_scheme', 'http_error', 'navigation_failed', 'timeout',
  'selector_not_found', 'captcha_detected', 'blocked', 'session_not_found',
  'session_limit', 'sidecar_crashed', 'browser_crashed', 'internal',
  // A snapshot ref or wa-N id that no longer names an element: take a new snapshot.
  'stale_ref',
  // An external API (search, places) failed: details.provider, details.status or details.reason; retry_after_ms when known.
  'provider_error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class WebcapError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown>;

  constructor(code: ErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'WebcapError';
    this.code = code;
    this.details = details;
  }

  toJSON(): WireError {
    return { code: this.code, message: this.message, details: this.details };
  }
}

export interface WireError {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/** The one catch point: anything thrown becomes a WebcapError. */
export function toWebcapError(err: unknown): WebcapError {
  if (err instanceof WebcapError) return err;
  const e = err as { code?: unknown; message?: unknown; details?: unknown; data?: unknown };
  // Errors that crossed the wire keep their code in `data`.
  const data = e?.data as Partial<WireError> | undefined;
  if (data && isErrorCode(data.code)) {
    return new WebcapError(data.code, String(data.message ?? e.message), data.details ?? {});
  }
  if (e && isErrorCode(e.code)) {
    return new WebcapError(e.code, String(e.message), (e.details as Record<string, unknown>) ?? {});
  }
  const message = err instanceof Error ? err.message : String(err);
  return new WebcapError('internal', message.split('\n')[0]);
}
