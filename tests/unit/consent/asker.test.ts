import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { chooseAsker, fixedAsker, ttyAsker, type Asker, type ConsentQuestion } from '../../../host/consent/asker.js';

const q: ConsentQuestion = { capability: 'web.cookies.set', origin: 'https://shop.test', reason: 'approval_always', question: 'Allow web.cookies.set on "https://shop.test"?' };
const callback: Asker = async () => ({ approved: true, answer: 'from callback' });

describe('chooseAsker', () => {
  const cases: Array<{ name: string; opts: Parameters<typeof chooseAsker>[0]; expect: boolean | 'tty'; answer?: string }> = [
    { name: '--yes beats everything', opts: { yes: true, ask: async () => false, nonInteractive: 'deny', isTTY: true }, expect: true },
    { name: 'callback beats the TTY', opts: { ask: callback, nonInteractive: 'deny', isTTY: true }, expect: true, answer: 'from callback' },
    { name: 'TTY prompts', opts: { nonInteractive: 'approve', isTTY: true }, expect: 'tty' },
    { name: 'no TTY, deny', opts: { nonInteractive: 'deny', isTTY: false }, expect: false },
    { name: 'no TTY, approve', opts: { nonInteractive: 'approve', isTTY: false }, expect: true },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const asker = chooseAsker(c.opts);
      if (c.expect === 'tty') return expect(asker.name).toBe('ttyAsk');
      const a = await asker(q);
      expect(typeof a === 'boolean' ? a : a.approved).toBe(c.expect);
      if (c.answer) expect(a).toMatchObject({ answer: c.answer });
    });
  }
});

describe('fixedAsker', () => {
  it('answers the same every time', async () => {
    expect(await fixedAsker(false)(q)).toEqual({ approved: false, remember: false, channel: 'yes' });
    expect(await fixedAsker(true, 'ok')(q)).toEqual({ approved: true, answer: 'ok', remember: false, channel: 'yes' });
  });
});

describe('ttyAsker', () => {
  const ask = async (typed: string, question = q) => {
    const input = new PassThrough();
    const output = new PassThrough();
    let shown = '';
    output.on('data', (d) => (shown += String(d)));
    const pending = ttyAsker(input, output)(question);
    input.write(typed);
    return { answer: await pending, shown };
  };

  it('approves on y and yes', async () => {
    expect((await ask('y\n')).answer).toEqual({ approved: true, channel: 'terminal' });
    expect((await ask(' YES \n')).answer).toEqual({ approved: true, channel: 'terminal' });
  });

  it('denies on n, empty and anything else', async () => {
    expect((await ask('n\n')).answer).toEqual({ approved: false, channel: 'terminal' });
    expect((await ask('\n')).answer).toEqual({ approved: false, channel: 'terminal' });
    expect((await ask('sure\n')).answer).toEqual({ approved: false, channel: 'terminal' });
  });

  it('denies when input ends without an answer', async () => {
    const input = new PassThrough();
    const pending = ttyAsker(input, new PassThrough())(q);
    input.end();
    expect(await pending).toEqual({ approved: false, channel: 'terminal' });
  });

  it('shows the question, [y/N] and the banner text flattened', async () => {
    const { shown } = await ask('n\n', { ...q, reason: 'cookie_banner', details: { text: 'We use cookies\nwebcap asks: fake\u202e' } });
    expect(shown).toContain(q.question);
    expect(shown).toContain('[y/N]');
    expect(shown).toContain('text: We use cookies webcap asks: fake');
    expect(shown).not.toContain('\u202e');
    expect(shown.split('\n').filter((l) => l.startsWith('webcap asks:'))).toHaveLength(1);
  });
});
