// The package version, read from package.json next to dist/ (one source of truth).
import { readFileSync } from 'node:fs';
import { projectRoot } from '../../manifests/load.js';
import { join } from 'node:path';

export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
