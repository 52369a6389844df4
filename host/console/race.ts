// One question, several channels: the terminal or MCP elicitation (`inner`)
// and the console. The first real answer wins and the other is withdrawn.
// "Nobody was asked" from inner ([consent] non_interactive) is not an answer
// while a console serves: the question waits there until [consent] timeout_s.
import type { Asker, ConsentAnswer, ConsentQuestion } from '../consent/asker.js';
import type { ConsoleHub } from './hub.js';
import type { Posted } from './questions.js';

export async function raceAsker(hub: ConsoleHub, inner: Asker, q: ConsentQuestion, posted: Posted, timeoutS: number): Promise<ConsentAnswer> {
  const withdraw = new AbortController();
  const questionUrl = hub.questionUrl(posted.id);
  let innerWon: ConsentAnswer | undefined;
  let timer: NodeJS.Timeout | undefined;
  void Promise.resolve(inner(q, { signal: withdraw.signal, ...(questionUrl ? { questionUrl } : {}) }))
    .then((raw) => (typeof raw === 'boolean' ? { approved: raw } : raw), () => ({ approved: false, channel: 'error' } as ConsentAnswer))
    .then((a) => {
      if (withdraw.signal.aborted) return;
      if (a.nobody) {
        if (questionUrl) hub.onWaiting(questionUrl, q);
        timer = setTimeout(() => posted.settle({ approved: false, channel: 'timeout' }), timeoutS * 1000);
        timer.unref?.();
        return;
      }
      const answer = { ...a, channel: a.channel ?? 'callback' };
      if (posted.settle({ approved: a.approved, channel: answer.channel })) innerWon = answer;
    });
  const answered = await posted.answered;
  clearTimeout(timer);
  if (innerWon) return innerWon;
  withdraw.abort();
  if (answered.channel === 'timeout') return { approved: false, channel: 'console', timed_out: true };
  return {
    approved: answered.approved, channel: answered.channel,
    ...(answered.remember_s !== undefined ? { remember_s: answered.remember_s } : { remember: false }),
    ...(answered.answer !== undefined ? { answer: answered.answer } : {}),
  };
}
