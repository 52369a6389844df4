// Sidecar attestation: the sha256 of the sidecar's built code,
// taken from the files on disk when it starts (its folder under dist/ plus the
// shared dist/manifests code it imports). The chain records it at every start,
// beside the hash of the installed build; `webcap manifests --json` shows the
// installed build's hash as each sidecar capability's provider.attestation, so
// a user can pin it. A sidecar that is not the installed build (another copy,
// or files changed since) is noted in the chain as sidecar_attestation_mismatch.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { builtEntry } from '../../manifests/built-entry.js';
import { projectRoot } from '../../manifests/load.js';

export interface Attestation {
  /** "sha256:<hex>" over every file's relative path and sha256, in sorted order. */
  sha256: string;
  files: number;
  /** The sidecar entry that was (or would be) started. */
  entry: string;
}

/** The sidecar entry of this installation. WEBCAP_SIDECAR_ENTRY runs another build (a development copy); the chain then says it is not the installed one. */
export function installedSidecarEntry(): string {
  const root = projectRoot();
  return builtEntry(root, join(root, 'dist', 'sidecar', 'main.js'));
}

export function sidecarEntry(): string {
  return process.env.WEBCAP_SIDECAR_ENTRY || installedSidecarEntry();
}

/** Hashes the sidecar code that `entry` would run: its folder and the sibling manifests folder (JS and JSON files). */
export function attest(entry: string): Attestation {
  const sidecarDir = dirname(entry);
  const root = dirname(sidecarDir);
  const files = [...walk(sidecarDir), ...walk(join(root, 'manifests'))].map((f) => relative(root, f)).sort();
  const h = createHash('sha256');
  for (const f of files) h.update(`${f}\0${createHash('sha256').update(readFileSync(join(root, f))).digest('hex')}\n`);
  return { sha256: `sha256:${h.digest('hex')}`, files: files.length, entry };
}

let installed: Attestation | undefined;
/** The installed build's attestation, computed once per process. */
export function installedAttestation(): Attestation {
  installed ??= attest(installedSidecarEntry());
  return installed;
}

/** What the chain records when a sidecar starts. */
export function startRecord(entry: string): { event: string; detail: Record<string, unknown> } {
  const running = attest(entry);
  // The first start of the installed build is the reference for this process: a later restart that finds other files is noted.
  if (entry === installedSidecarEntry()) installed ??= running;
  let reference: Attestation | null = null;
  try { reference = installedAttestation(); } catch { /* no installed build to compare with */ }
  const matches = reference !== null && reference.sha256 === running.sha256;
  return {
    event: matches ? 'sidecar_started' : 'sidecar_attestation_mismatch',
    detail: {
      attestation: running.sha256, files: running.files, entry: running.entry,
      installed_attestation: reference?.sha256 ?? null,
      ...(matches ? {} : { note: 'the sidecar that started is not the installed build (its code differs)' }),
    },
  };
}

function walk(dir: string): string[] {
  let names: string[];
  try { names = readdirSync(dir); } catch { return []; }
  const out: string[] = [];
  for (const name of names) {
    const full = join(dir, name);
    const s = statSync(full);
    if (s.isDirectory()) out.push(...walk(full));
    else if (/\.(m?js|json)$/.test(name)) out.push(full);
  }
  return out;
}

/** `webcap manifests --json`: who runs a capability, and for the sidecar the sha256 of its installed build. */
export function providerMetadata(provider: string): { name: string; attestation: string | null } {
  if (provider !== 'sidecar') return { name: provider, attestation: null };
  try {
    return { name: provider, attestation: installedAttestation().sha256 };
  } catch {
    return { name: provider, attestation: null }; // not built yet
  }
}
