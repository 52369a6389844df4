// The next session's context, made while its web.open is still being checked
// (sidecar/sessions/spare.ts): a plain web.open takes it, and nothing that
// brings its own name, viewport or client allowlist ever does (a context made
// without a client's allowlist must never serve that client). Real Chromium;
// the guard's prepare hook records which context was made for whom.
import { afterAll, describe, expect, it } from 'vitest';
import { browserSource } from '../../sidecar/browser/browser-source.js';
import { Sessions, type Narrowing } from '../../sidecar/sessions/sessions.js';
import { bareSidecarInit } from '../helpers/sidecar-init.js';

const init = bareSidecarInit();
const source = browserSource(init, () => undefined);
afterAll(async () => { await source.close(); });

function sessionsRecording() {
  const made: Array<{ name: string; narrowed: Narrowing | undefined }> = [];
  const sessions = new Sessions(init, source, {
    async prepare(name, _remote, narrowed) {
      made.push({ name, narrowed });
      return { options: {}, attach: async () => undefined, abandon: async () => undefined };
    },
    onEvent: () => undefined,
  });
  return { sessions, made };
}

/** Prelaunch with a spare, and wait until the spare's context has been asked for. */
async function withSpare(s: ReturnType<typeof sessionsRecording>): Promise<void> {
  s.sessions.prelaunch(true);
  for (let i = 0; i < 600 && s.made.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
  expect(s.made).toEqual([{ name: 's1', narrowed: undefined }]);
}

describe('the spare context', () => {
  it('serves the plain web.open it was made for: no second context is made', async () => {
    const s = sessionsRecording();
    await withSpare(s);
    const session = await s.sessions.open('plan-a');
    expect(session.name).toBe('s1');
    expect(s.made).toHaveLength(1);
    expect(await session.page.evaluate(() => location.href)).toBe('about:blank');
    await s.sessions.closeAll();
  }, 60_000);

  it('never serves a client with its own allowlist: that open gets a context made with its narrowing', async () => {
    const s = sessionsRecording();
    await withSpare(s);
    const narrowed: Narrowing = { client: 'kiosk', domains_allowlist: ['shop.test'] };
    const session = await s.sessions.open('kiosk', undefined, undefined, 30_000, undefined, narrowed);
    expect(s.made).toEqual([{ name: 's1', narrowed: undefined }, { name: 's1', narrowed }]);
    expect(session.context.pages()).toHaveLength(1);
    await s.sessions.closeAll();
  }, 60_000);

  it('two callers opening at once: one takes the spare, the other gets a context of its own, each its own session', async () => {
    const s = sessionsRecording();
    await withSpare(s);
    const [a, b] = await Promise.all([s.sessions.open('plan-a'), s.sessions.open('plan-b')]);
    expect(new Set([a.name, b.name])).toEqual(new Set(['s1', 's2']));
    expect(a.context).not.toBe(b.context);
    expect(s.made.map((m) => m.name).sort()).toEqual(['s1', 's2']);
    expect(s.sessions.for('plan-a').list().map((x) => x.name)).toEqual([a.name]);
    expect(s.sessions.for('plan-b').list().map((x) => x.name)).toEqual([b.name]);
    await s.sessions.closeAll();
  }, 60_000);

  it('never serves an open with its own viewport or name', async () => {
    const s = sessionsRecording();
    await withSpare(s);
    const wide = await s.sessions.open('plan-a', undefined, { width: 500, height: 400 });
    expect(await wide.page.evaluate(() => innerWidth)).toBe(500);
    expect(s.made).toHaveLength(2);
    s.sessions.prelaunch(true);
    for (let i = 0; i < 600 && s.made.length === 2; i++) await new Promise((r) => setTimeout(r, 50));
    const named = await s.sessions.open('plan-a', 'mine');
    expect(named.name).toBe('mine');
    expect(s.made.map((m) => m.name)).toEqual(['s1', 's1', 's2', 'mine']);
    await s.sessions.closeAll();
  }, 60_000);
});
