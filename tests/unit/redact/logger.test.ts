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

  it('writes no secret in a URL, form or JSON encoding, nor a credential parameter or userinfo', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'webcap-log-')), 'enc.log');
    const redactor = new Redactor({ builtin: [], patterns: [] });
    const log = redactingLogger({ level: 'debug', file }, redactor);
    redactor.addSecret('Hunter 2@xyz');
    log.info({ url: 'http://a.test/welcome?user=bob&q=Hunter+2%40xyz' }, 'landed');
    log.info(`GET /login?pin=98761&sid=abc123 and http://admin:Us3rInfoPw@intranet/ then ${encodeURIComponent('Hunter 2@xyz')}`);
    log.debug({ sidecar: 'next=http%3A%2F%2Fa.test%2F%3Ftoken%3DTokS3cretVal' }, 'sidecar stderr');
    const text = readFileSync(file, 'utf8');
    for (const leaked of ['Hunter', '98761', 'abc123', 'Us3rInfoPw', 'TokS3cretVal']) expect(text).not.toContain(leaked);
    expect(text.trim().split('\n')).toHaveLength(3);
  });

  it('accepts a plain path', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'webcap-log-')), 'a.log');
    const log = redactingLogger(file, new Redactor());
    log.info('hello');
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ msg: 'hello', level: 30 });
  });
});
