// The chain records a reference as written, and hides the literal text around
// it, when typed text is hidden (a password field, a failed call).
import { describe, expect, it } from 'vitest';
import { Redactor } from '../../../host/redact/redactor.js';
import { learnLiterals } from '../../../host/secrets/terminal.js';

const r = new Redactor();
const manifest = (id: string) => ({ id, sensitive_params: [] as string[] });

describe('typed references in the chain', () => {
  it('web.fill into a password field keeps {{secret:NAME}} and hides the rest', () => {
    const params = r.redactCallParams(manifest('web.fill'), { selector: '#pw', text: 'x{{secret:bank}}' }, { failed: false, result: { secret_input: true } });
    expect(params.text).toBe('[REDACTED]{{secret:bank}}');
  });

  it('web.keypress keeps a reference key and hides character keys', () => {
    const params = r.redactCallParams(manifest('web.keypress'), { keys: ['a', 'b', '{{totp:otp}}', 'Enter'] }, { failed: true });
    expect(params.keys).toEqual(['[REDACTED]', '{{totp:otp}}', 'Enter']);
  });

  it('web.fill_form keeps references in values of secret fields', () => {
    const params = r.redactCallParams(manifest('web.fill_form'), { fields: { pw: '{{secret:bank}}', note: 'hello' } }, undefined);
    expect(params.fields).toEqual({ pw: '{{secret:bank}}', note: '[REDACTED]' });
  });

  it('only the literal parts of typed text are learnt, so references stay readable', () => {
    const red = new Redactor();
    learnLiterals('{{secret:bank}}hunter22', (v) => red.addSecret(v));
    expect(red.redactString('typed {{secret:bank}} and hunter22')).toBe('typed {{secret:bank}} and [REDACTED]');
  });
});
