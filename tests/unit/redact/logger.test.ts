import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { redactingLogger } from '../../../host/redact/logger.js';
import { Redactor } from '../../../host/redact/redactor.js';

describe('redactingLogger', () => {
  it('never writes a secret learnt with addSecret, in any field', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'webcap-log-')), 'logs', 'webcap.log');
    const redactor = new Redactor();
    const log = redactingLogger({ level: 'debug', file }, redactor);
    const secret = 'Tr0ub4dor"&3\\x'; // quote and backslash: escaped in JSON, must still be found
    redactor.addSecret(secret);
    log.info({ typed: secret, nested: { deep: [`pw=${secret}`] } }, `filled the form with ${secret}`);
    log.warn('printf style %s', secret);
    log.child({ bound: secret }).debug('child bindings');
    log.error(new Error(`login failed with ${secret}`));
    log.info({ password: 'other', user: 'bob@example.org' }, 'by key and by shape');
    const text = readFileSync(file, 'utf8');
    const lines = text.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(5);
    expect(text).not.toContain('Tr0ub4dor');
    expect(text).not.toContain('bob@example.org');
    expect(lines[0].msg).toBe('filled the form with [REDACTED]');
    expect(lines[4]).toMatchObject({ password: '[REDACTED]', user: '[REDACTED]' });
  });

  it('accepts a plain path', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'webcap-log-')), 'a.log');
    const log = redactingLogger(file, new Redactor());
    log.info('hello');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ msg: 'hello', level: 30 });
  });
});
