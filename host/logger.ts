// Plain pino logger for code paths that run before the redacting logger exists.
import pino, { type Logger } from 'pino';

export function quietLogger(): Logger {
  return pino({ level: process.env.WEBCAP_LOG_LEVEL ?? 'silent' });
}
