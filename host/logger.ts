// Logger for code paths that run before the host's redacting logger exists.
// It still goes through a Redactor (by name and by shape; no run-time secrets
// are known yet), so no log line anywhere skips redaction.
import pino, { type Logger } from 'pino';
import { redactingStream } from './redact/logger.js';
import { Redactor } from './redact/redactor.js';

export function quietLogger(): Logger {
  return pino({ level: process.env.WEBCAP_LOG_LEVEL ?? 'silent' }, redactingStream(pino.destination({ dest: 2, sync: true }), new Redactor()));
}
