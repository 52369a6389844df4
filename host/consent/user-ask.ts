// ccos.user.ask: a plan's yes/no question to the user. It goes through the gate
// so it is recorded like any consent, but it is never remembered (reason
// 'user_ask'), and a "no" stops the plan.
import { WebcapError } from '../../manifests/errors.js';
import { hintFor, type ConsentGate } from './gate.js';
import { plain } from './text.js';

export function userAsk(gate: ConsentGate): (params: { question: string }) => Promise<{ approved: true; answer?: string }> {
  return async ({ question }) => {
    const a = await gate.confirm({ capability: 'ccos.user.ask', reason: 'user_ask', question });
    if (!a.approved) {
      const why = a.timed_out ? 'timed out: nobody answered in the console' : a.nobody ? 'nobody was asked' : 'the user said no';
      throw new WebcapError('consent_denied', `${why} to: ${plain(question)}${hintFor(a)}`, { capability: 'ccos.user.ask', ...(a.timed_out ? { timed_out: true } : {}), ...(a.nobody ? { nobody_asked: true } : {}) });
    }
    return a.answer === undefined ? { approved: true } : { approved: true, answer: a.answer };
  };
}
