// A hint that tells the user what to type must reach them whole: the error
// passes through the same redactor as the chain, and a hint shaped like
// "KEY=$(…)" came out as "KEY=[REDACTED]…".
import { describe, expect, it } from 'vitest';
import { WebcapError } from '../../manifests/errors.js';
import { profileKey } from '../../host/profiles/crypto.js';
import { Redactor } from '../../host/redact/redactor.js';
import { redactedError } from '../../host/redact/errors.js';

describe('hints are not redacted', () => {
  it('the missing profile key names the variable and the command that makes a key', () => {
    delete process.env.WEBCAP_HINT_TEST_KEY;
    let thrown: unknown;
    try { profileKey('WEBCAP_HINT_TEST_KEY'); } catch (err) { thrown = err; }
    expect(thrown).toBeInstanceOf(WebcapError);
    const shown = redactedError(thrown, new Redactor()).message;
    expect(shown).toContain('openssl rand -hex 32');
    expect(shown).toContain('export it as WEBCAP_HINT_TEST_KEY');
    expect(shown).not.toContain('[REDACTED]');
  });
});
