import { describe, expect, it } from 'vitest';
import type { ConsentQuestion } from '../../../host/consent/asker.js';
import { ConsentGate, type ConsentRecord } from '../../../host/consent/gate.js';
import { userAsk } from '../../../host/consent/user-ask.js';
import type { WebcapConfig } from '../../../host/config/types.js';

function setup(over: Partial<WebcapConfig['consent']> = {}, answers: Array<boolean | { approved: boolean; answer?: string; remember?: boolean }> = [true]) {
  const config: WebcapConfig['consent'] = { non_interactive: 'deny', require: [], waive: [], approval_ttl_s: 60, gate_requests: true, timeout_s: 300, ...over };
  const asked: ConsentQuestion[] = [];
  const records: ConsentRecord[] = [];
  let clock = 1_000_000;
  const gate = new ConsentGate({
    config,
    asker: async (q) => { asked.push(q); return answers.length > 1 ? answers.shift()! : answers[0]; },
    record: async (r) => { records.push(r); },
    now: () => clock,
  });
  return { gate, asked, records, tick: (s: number) => (clock += s * 1000) };
}

const q = (over: Partial<ConsentQuestion> = {}): ConsentQuestion =>
  ({ capability: 'web.click', origin: 'https://shop.test', reason: 'form_submit', question: 'Allow?', ...over });

describe('ConsentGate', () => {
  it('remembers an approval for the same scope until approval_ttl_s passes', async () => {
    const t = setup();
    expect((await t.gate.confirm(q())).approved).toBe(true);
    t.tick(59);
    expect(await t.gate.confirm(q())).toMatchObject({ approved: true, source: 'remembered' });
    expect(t.asked).toHaveLength(1);
    t.tick(2);
    expect(await t.gate.confirm(q())).toMatchObject({ approved: true, source: 'asker' });
    expect(t.asked).toHaveLength(2);
    expect(t.records.map((r) => r.source)).toEqual(['asker', 'remembered', 'asker']);
  });

  it('asks every time for web.cookies.set, and never remembers an approval that names no origin', async () => {
    const t = setup();
    await t.gate.confirm(q({ capability: 'web.cookies.set', reason: 'approval_always' }));
    await t.gate.confirm(q({ capability: 'web.cookies.set', reason: 'approval_always' }));
    await t.gate.confirm(q({ origin: undefined }));
    await t.gate.confirm(q({ origin: undefined }));
    expect(t.asked).toHaveLength(4);
  });

  it('asks again for another origin, selector or capability', async () => {
    const t = setup();
    await t.gate.confirm(q({ selector: '#pw' }));
    await t.gate.confirm(q({ selector: '#pw2' }));
    await t.gate.confirm(q({ selector: '#pw', origin: 'https://evil.test' }));
    await t.gate.confirm(q({ selector: '#pw', capability: 'web.fill' }));
    await t.gate.confirm(q({ selector: '#pw' }));
    expect(t.asked).toHaveLength(4);
  });

  it('does not remember with approval_ttl_s = 0, or when the asker says remember: false', async () => {
    const zero = setup({ approval_ttl_s: 0 });
    await zero.gate.confirm(q());
    await zero.gate.confirm(q());
    expect(zero.asked).toHaveLength(2);
    const once = setup({}, [{ approved: true, remember: false }]);
    await once.gate.confirm(q());
    await once.gate.confirm(q());
    expect(once.asked).toHaveLength(2);
  });

  it('records a denial and does not remember it, so a later ask may approve', async () => {
    const t = setup({}, [false, true]);
    expect((await t.gate.confirm(q())).approved).toBe(false);
    expect((await t.gate.confirm(q())).approved).toBe(true);
    expect(t.records).toEqual([
      { capability: 'web.click', origin: 'https://shop.test', reason: 'form_submit', approved: false, source: 'asker' },
      { capability: 'web.click', origin: 'https://shop.test', reason: 'form_submit', approved: true, source: 'asker' },
    ]);
  });

  it('approves waived capabilities without asking and records the waiver', async () => {
    const t = setup({ waive: ['web.click'] }, [false]);
    expect(await t.gate.confirm(q())).toMatchObject({ approved: true, source: 'waived' });
    expect(t.asked).toHaveLength(0);
    expect(t.records[0]).toMatchObject({ approved: true, source: 'waived' });
  });

  it('asks parallel questions one at a time and reuses the first approval', async () => {
    const t = setup();
    const answers = await Promise.all([t.gate.confirm(q()), t.gate.confirm(q())]);
    expect(answers.map((a) => a.source)).toEqual(['asker', 'remembered']);
    expect(t.asked).toHaveLength(1);
  });
});

describe('confirmSensitive', () => {
  const action = { capability: 'web.fill', session: 's1', url: 'https://shop.test/login?next=/', selector: '#pw', reason: 'password_field' as const, secret: 'hunter2-secret' };

  it('quotes origin and selector plainly and never leaks the secret', async () => {
    const t = setup();
    expect(await t.gate.confirmSensitive(action)).toEqual({ approved: true });
    expect(t.asked[0].question).toBe('Allow web.fill to type into a password field ("#pw") on "https://shop.test"?');
    expect(t.records[0]).toEqual({ capability: 'web.fill', origin: 'https://shop.test', selector: '#pw', reason: 'password_field', approved: true, source: 'asker', session: 's1' });
    const leaked = setup();
    await leaked.gate.confirmSensitive({ ...action, selector: 'input[value="hunter2-secret"]', details: { text: 'hunter2-\u200bsecret' } });
    expect(JSON.stringify([leaked.asked, leaked.records])).not.toContain('hunter2-secret');
  });

  it('flattens and truncates a crafted selector so it cannot fake the prompt', async () => {
    const t = setup({}, [false]);
    const selector = '#x"?\n\nwebcap: this action is SAFE, type y\u202e' + 'a'.repeat(500);
    const res = await t.gate.confirmSensitive({ ...action, selector });
    expect(res).toEqual({ approved: false, reason: 'the user did not approve password_field by web.fill on https://shop.test' });
    const shown = t.asked[0];
    expect(shown.question).not.toMatch(/[\n\u202e]/);
    expect(shown.selector!.length).toBeLessThanOrEqual(200);
    expect(shown.question).toContain('("#x\\"? webcap: this action is SAFE');
  });

  it('phrases a question without a selector', async () => {
    const t = setup();
    await t.gate.confirmSensitive({ capability: 'web.click', session: 's1', url: 'https://shop.test/pay', reason: 'form_submit' });
    expect(t.asked[0].question).toBe('Allow web.click to submit a form on "https://shop.test"?');
  });

  it('shows look-alike hosts as punycode', async () => {
    const t = setup();
    await t.gate.confirmSensitive({ ...action, url: 'https://\u0455hop.test/' }); // Cyrillic dze, not s
    expect(t.asked[0].origin).toBe('https://xn--hop-ehd.test');
  });
});

describe('userAsk', () => {
  it('returns the answer, never remembers, and a no is consent_denied', async () => {
    const t = setup({}, [{ approved: true, answer: 'ok' }, true, false]);
    const ask = userAsk(t.gate);
    expect(await ask({ question: 'Open maps?' })).toEqual({ approved: true, answer: 'ok' });
    expect(await ask({ question: 'Open maps?' })).toEqual({ approved: true });
    await expect(ask({ question: 'Open maps?' })).rejects.toMatchObject({ code: 'consent_denied', message: 'the user said no to: Open maps?' });
    expect(t.asked).toHaveLength(3);
    expect(t.records.map((r) => r.approved)).toEqual([true, true, false]);
  });
});
