// An error on its way out of the host (to a library caller, the CLI's
// `error: code: message` line on stderr, an MCP client) is redacted like the
// chain: its message can quote a URL, a plan's value or page text.
import { toWebcapError, type WebcapError } from '../../manifests/errors.js';
import type { Redactor } from './redactor.js';

export function redactedError(err: unknown, redactor: Redactor): WebcapError {
  const e = toWebcapError(err);
  e.message = redactor.redactString(e.message);
  if (e.stack) e.stack = redactor.redactString(e.stack);
  if (e.details) (e as { details: unknown }).details = redactor.redact(e.details);
  return e;
}
