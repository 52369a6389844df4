// The desk where a missing secret waits for a person: one entry per request,
// then it is closed; a refused entry (the vault's rule) leaves it open; what
// is shown about a request never holds a value.
import { describe, expect, it } from 'vitest';
import { SecretDesk } from '../../../host/console/secret-desk.js';
import { proposedOrigin } from '../../../host/secrets/missing.js';

const request = { name: 'bank_pw', kind: 'secret' as const, origins: ['https://bank.example'], asked_by: 'web.fill by MCP client x' };

describe('SecretDesk', () => {
  it('stores once: a second entry, or one after a cancel, is refused and stores nothing', async () => {
    const desk = new SecretDesk();
    const stored: string[][] = [];
    const r = desk.open(request, (_value, origins) => { stored.push(origins); });
    expect(desk.view(r.id)).toEqual({ ...request, id: r.id });
    expect(desk.enter(r.id, 'hunter2-long', ['https://bank.example'])).toBe(true);
    expect(await r.outcome).toBe('stored');
    expect(desk.enter(r.id, 'other-value', ['https://evil.example'])).toBe(false);
    expect(stored).toEqual([['https://bank.example']]);
    expect(desk.view(r.id)).toBeUndefined();

    const c = desk.open(request, () => { throw new Error('not reached'); });
    c.cancel();
    expect(await c.outcome).toBe('cancelled');
    expect(desk.enter(c.id, 'late-value', ['https://bank.example'])).toBe(false);
  });

  it('an entry the vault refuses keeps the request open for a corrected one', async () => {
    const desk = new SecretDesk();
    let tries = 0;
    const r = desk.open(request, (value) => { tries += 1; if (value.length < 4) throw new Error('too short'); });
    expect(() => desk.enter(r.id, 'ab', ['https://bank.example'])).toThrow('too short');
    expect(desk.view(r.id)).toBeDefined();
    expect(desk.enter(r.id, 'abcdef', ['https://bank.example'])).toBe(true);
    expect(await r.outcome).toBe('stored');
    expect(tries).toBe(2);
  });

  it('proposes only a web origin of the page the call is on', () => {
    expect(proposedOrigin('http://bank.test:8080/login?x=1')).toBe('http://bank.test:8080');
    expect(proposedOrigin('about:blank')).toBeUndefined();
    expect(proposedOrigin(undefined)).toBeUndefined();
  });
});
