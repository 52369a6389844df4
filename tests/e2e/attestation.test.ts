// Sidecar attestation through the real CLI: the chain records the sha256 of the
// sidecar code that started, `webcap manifests --json` shows the installed
// build's, and a tampered copy is noted as not the installed build.
import { appendFileSync, cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEntries } from '../../host/chain/verify.js';
import { webcap } from '../helpers/cli.js';
import { tempDir } from '../helpers/host.js';

function setup(): { dir: string; config: string } {
  const dir = tempDir();
  const config = join(dir, 'agent_config.toml');
  writeFileSync(config, '[chain]\npath = "chain.jsonl"\n[workspace]\npath = "ws"\n');
  return { dir, config };
}

async function installedAttestation(): Promise<string> {
  const r = await webcap(['manifests', '--json']);
  const list = JSON.parse(r.stdout) as Array<{ id: string; provider: { name: string; attestation: string | null } }>;
  const sidecar = list.filter((m) => m.provider.name === 'sidecar').map((m) => m.provider.attestation);
  expect(new Set(sidecar).size).toBe(1);
  expect(list.find((m) => m.id === 'ccos.user.ask')!.provider).toEqual({ name: 'host', attestation: null });
  return sidecar[0]!;
}

const sidecarEvents = (dir: string) => readEntries(join(dir, 'chain.jsonl'))
  .filter((e) => e.kind === 'event' && /^sidecar_/.test(String((e.result as { event?: string })?.event)))
  .map((e) => e.result as Record<string, unknown>);

describe('sidecar attestation', () => {
  it('records the installed sidecar\'s sha256 in the chain when it starts, the same one manifests --json shows', async () => {
    const expected = await installedAttestation();
    expect(expected).toMatch(/^sha256:[0-9a-f]{64}$/);
    const { dir, config } = setup();
    const r = await webcap(['call', 'web.status', '{}', '--config', config, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(sidecarEvents(dir)).toEqual([expect.objectContaining({ event: 'sidecar_started', attestation: expected, installed_attestation: expected })]);
  }, 60_000);

  it('notes in the chain a sidecar whose code differs from the installed build (a tampered copy)', async () => {
    const expected = await installedAttestation();
    const copy = tempDir();
    const root = resolve('.');
    cpSync(join(root, 'dist', 'sidecar'), join(copy, 'dist', 'sidecar'), { recursive: true });
    cpSync(join(root, 'dist', 'manifests'), join(copy, 'dist', 'manifests'), { recursive: true });
    cpSync(join(root, 'package.json'), join(copy, 'package.json'));
    for (const shared of ['node_modules', 'manifests', 'site-profiles']) symlinkSync(join(root, shared), join(copy, shared));
    mkdirSync(join(copy, 'dist', 'host'), { recursive: true });
    appendFileSync(join(copy, 'dist', 'sidecar', 'tools', 'status.js'), '\n// tampered\n');
    const { dir, config } = setup();
    process.env.WEBCAP_SIDECAR_ENTRY = join(copy, 'dist', 'sidecar', 'main.js');
    try {
      const r = await webcap(['call', 'web.status', '{}', '--config', config, '--json']);
      expect(r.code, r.stderr).toBe(0); // it runs, and the chain says what ran
    } finally {
      delete process.env.WEBCAP_SIDECAR_ENTRY;
    }
    const [event] = sidecarEvents(dir);
    expect(event).toMatchObject({ event: 'sidecar_attestation_mismatch', installed_attestation: expected, entry: join(copy, 'dist', 'sidecar', 'main.js') });
    expect(event.attestation).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(event.attestation).not.toBe(expected);
  }, 60_000);
});
