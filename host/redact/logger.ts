// The host's log file goes through the same Redactor as the causal chain.
// Redaction happens at the stream, on each finished JSON line, rather than in
// hooks.logMethod / formatters.log: only there are the message, the merged
// object, child bindings and serialised errors all together, so no field can
// slip past. A secret added with addSecret() is hidden from every later line.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import type { Redactor } from './redactor.js';

/** `config.logging` ({level, file}) fits; an empty or missing file logs to stderr (stdout carries results and MCP). */
type RedactingLoggerOptions = LoggerOptions & { file?: string };

export function redactingLogger(target: string | RedactingLoggerOptions, redactor: Redactor): Logger {
  const { file, ...options } = typeof target === 'string' ? { file: target } : target;
  if (file) mkdirSync(dirname(file), { recursive: true });
  // sync: a line is on disk when log.x() returns, so a crash loses nothing and tests can read at once.
  const dest = pino.destination({ dest: file || 2, sync: true });
  return pino(options, redactingStream(dest, redactor));
}

function redactingStream(dest: DestinationStream, redactor: Redactor): DestinationStream & { flush(cb?: (err?: Error) => void): void } {
  return {
    write(line: string) {
      dest.write(`${redactLine(line, redactor)}\n`);
    },
    // pino's logger.flush(cb) calls this; the destination is sync, so there is little to do.
    flush(cb?: (err?: Error) => void) {
      try {
        (dest as { flushSync?: () => void }).flushSync?.();
        cb?.();
      } catch (err) {
        cb?.(err as Error);
      }
    },
  };
}

function redactLine(line: string, redactor: Redactor): string {
  const text = line.endsWith('\n') ? line.slice(0, -1) : line;
  try {
    // Parsed, so escaped characters in JSON strings cannot hide a secret.
    return JSON.stringify(redactor.redact(JSON.parse(text)));
  } catch {
    return redactor.redactString(text); // not JSON (custom formatter): redact as text
  }
}
