// When the network guard cannot be attached to a new context, the context is
// closed and the guard's proxy stops listening too (it would otherwise stay
// open for the life of the sidecar). Real Chromium, a real guard proxy.
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { browserSource } from '../../sidecar/browser/browser-source.js';
import { startGuardProxy } from '../../sidecar/guard/network-guard.js';
import { Sessions } from '../../sidecar/sessions/sessions.js';
import { bareSidecarInit } from '../helpers/sidecar-init.js';

const init = bareSidecarInit();
const source = browserSource(init, () => undefined);
afterAll(async () => { await source.close(); });

/** Whether something accepts TCP connections at this proxy address. */
function listening(server: string): Promise<boolean> {
  const { hostname, port } = new URL(server);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname, () => { socket.destroy(); resolve(true); });
    socket.on('error', () => resolve(false));
  });
}

describe('a context whose guard fails to attach', () => {
  it('is refused with the error, and the guard proxy no longer listens', async () => {
    const proxies: string[] = [];
    const sessions = new Sessions(init, source, {
      async prepare(name) {
        const proxy = await startGuardProxy({ allowlist: ['*'], denylist: [], resolve: {}, allowPrivate: [], session: name, onBlocked: () => undefined });
        proxies.push(proxy.proxy.server);
        return {
          options: { proxy: proxy.proxy },
          attach: async () => { throw new Error('guard could not be attached'); },
          abandon: () => proxy.close(),
        };
      },
      onEvent: () => undefined,
    });
    await expect(sessions.scratch('scrape')).rejects.toThrow('guard could not be attached');
    await expect(sessions.open('s1')).rejects.toThrow('guard could not be attached');
    expect(proxies).toHaveLength(2);
    for (const p of proxies) expect(await listening(p)).toBe(false);
  }, 60_000);
});
