// One question, several channels (no browser: ccos.user.ask is answered by the
// host): nobody to ask → a refusal that says so and how to get asked; a
// console → the question waits there until [consent] timeout_s; a person on
// another channel (the embedder's callback) races the console, the first
// answer wins and the other is withdrawn; the chain names the channel.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { readEntries } from '../../../host/chain/verify.js';
import type { AskContext } from '../../../host/consent/asker.js';
import { failure } from '../../helpers/failure.js';
import { testConfig, testHost } from '../../helpers/host.js';

const ask = { question: 'Go on with the booking?' };
const lastConsent = (path: string) => readEntries(path).filter((e) => e.kind === 'consent').at(-1)!;

async function pending(url: string): Promise<Array<{ id: string }>> {
  return ((await (await fetch(url.replace('/?', '/state?'))).json()) as { questions: Array<{ id: string }> }).questions;
}
async function answer(url: string, id: string, decision: string): Promise<number> {
  return (await fetch(url.replace('/?', '/answer?'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id, decision }) })).status;
}

describe('no silent "no"', () => {
  it('without a console, non_interactive = "deny" says nobody was asked and how to be asked', async () => {
    const cfg = testConfig({ consent: { non_interactive: 'deny' } });
    const host = testHost(cfg);
    try {
      const e = await failure(host.call('ccos.user.ask', ask));
      expect(e.code).toBe('consent_denied');
      expect(e.message).toMatch(/nobody was asked/);
      expect(e.message).toMatch(/--console/);
      expect(lastConsent(cfg.chain.path).decision).toMatchObject({ decision: 'denied', details: { nobody_asked: true } });
    } finally { await host.close(); }
  });

  it('with a console, the question waits there; unanswered, it times out as consent_denied with timed_out', async () => {
    const cfg = testConfig({ consent: { non_interactive: 'deny', timeout_s: 1 } });
    const host = testHost(cfg);
    try {
      const { url } = await host.console();
      const call = failure(host.call('ccos.user.ask', ask));
      await sleep(300);
      expect(await pending(url)).toHaveLength(1);
      const e = await call;
      expect(e.code).toBe('consent_denied');
      expect(e.details).toMatchObject({ timed_out: true });
      expect(await pending(url)).toHaveLength(0);
    } finally { await host.close(); }
  });

  it('a console answer wins over a slower person on another channel, who is withdrawn; the chain names the console', async () => {
    const cfg = testConfig({ consent: { non_interactive: 'deny' } });
    let withdrawn = false;
    const host = testHost(cfg, { ask: (_q, ctx?: AskContext) => new Promise((resolve) => { ctx?.signal?.addEventListener('abort', () => { withdrawn = true; resolve({ approved: false }); }); }) });
    try {
      const { url } = await host.console();
      const call = host.call('ccos.user.ask', ask);
      let qs: Array<{ id: string }> = [];
      while (!qs.length) { await sleep(50); qs = await pending(url); }
      expect(await answer(url, qs[0].id, 'approve')).toBe(200);
      await expect(call).resolves.toMatchObject({ approved: true });
      expect(withdrawn).toBe(true);
      expect(lastConsent(cfg.chain.path).decision).toMatchObject({ decision: 'approved', details: { channel: 'console' } });
      expect(await answer(url, qs[0].id, 'deny')).toBe(409);   // repeated: refused, changes nothing
    } finally { await host.close(); }
  });

  it('the other channel answering first withdraws the console question', async () => {
    const cfg = testConfig({ consent: { non_interactive: 'deny' } });
    const host = testHost(cfg, { ask: async () => { await sleep(300); return { approved: false, channel: 'callback' }; } });
    try {
      const { url } = await host.console();
      const call = failure(host.call('ccos.user.ask', ask));
      await sleep(100);
      const [q] = await pending(url);
      expect(q).toBeDefined();
      expect((await call).code).toBe('consent_denied');
      expect(await pending(url)).toHaveLength(0);
      expect(await answer(url, q.id, 'approve')).toBe(409);
      expect(lastConsent(cfg.chain.path).decision).toMatchObject({ decision: 'denied', details: { channel: 'callback' } });
    } finally { await host.close(); }
  });
});
