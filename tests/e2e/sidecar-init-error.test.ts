// The host reads the site profiles when it starts the sidecar (sidecar-init.ts):
// a bad profile fails the call with its own error, and leaves no process behind.
import pino from 'pino';
import { expect, it } from 'vitest';
import { WebcapError } from '../../manifests/errors.js';
import { SidecarClient } from '../../host/sidecar-link/sidecar-client.js';
import { sidecarOf } from '../helpers/processes.js';

it('fails the call with the init error and kills the process it spawned', async () => {
  const client = new SidecarClient(() => {
    throw new WebcapError('invalid_params', 'site-profiles/broken.json: unknown field "selektors"', { file: 'site-profiles/broken.json' });
  }, { onBlocked() {}, onEvent() {}, onSensitive: async () => ({ approved: false }) }, pino({ level: 'silent' }));
  try {
    client.prestart(); // swallowed here; the invoke reports it
    await expect(client.invoke('web.open', { url: 'http://shop.test/' }, 30_000, 'test')).rejects.toMatchObject({
      code: 'invalid_params', message: expect.stringContaining('site-profiles/broken.json'),
    });
    for (let i = 0; i < 300 && sidecarOf(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(sidecarOf()).toBeUndefined();
  } finally {
    await client.close();
  }
});
