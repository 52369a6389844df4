// Loads manifests/*.json: the single declaration of every capability. The host
// validates with it, the MCP front lists it, the sidecar checks its handlers
// against it.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export type Approval = 'never' | 'always' | 'sensitive';

export interface Manifest {
  id: string;
  description: string;
  /** One or two sentences for the lean MCP tool list: what it does and when to use it. */
  summary?: string;
  version: string;
  provider: 'sidecar' | 'host';
  input_schema: Record<string, unknown>;
  output_schema: Record<string, unknown>;
  approval: Approval;
  effects: string[];
  /** Params whose values never reach the chain or the logs. */
  sensitive_params?: string[];
  /** Param holding the URL the call navigates to, if any (for allowlist/robots/ssrf). */
  url_param?: string;
}

/** The folder holding package.json, found from this file whether it runs from source or dist/. */
export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, 'utf8')).name === 'webcap') return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error('webcap: cannot find the project root (package.json)');
    dir = up;
  }
}

let cached: Manifest[] | undefined;

export function loadManifests(dir = join(projectRoot(), 'manifests')): Manifest[] {
  if (cached && dir === join(projectRoot(), 'manifests')) return cached;
  const list = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Manifest);
  if (dir === join(projectRoot(), 'manifests')) cached = list;
  return list;
}
