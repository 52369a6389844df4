// `webcap demo` ends with a run report of everything it just did.
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { readChainEntries } from '../replay/chain-calls.js';
import { collectReport } from './collect.js';
import { renderReport } from './html.js';
import { writeFileSafelySync } from '../../manifests/safe-write.js';

/** The chain's last entry number before the demo starts (0 for a new chain). */
export function lastSeqOf(chainPath: string): number {
  if (!existsSync(chainPath)) return 0;
  return readChainEntries(chainPath).reduce((max, e) => Math.max(max, e.seq ?? 0), 0);
}

export function writeDemoReport(chainPath: string, afterSeq: number, workspace: string): string {
  const path = join(workspace, 'demo-report.html');
  writeFileSafelySync(path, renderReport(collectReport(chainPath, { afterSeq, label: 'webcap demo (three plans)' }, workspace)), { root: workspace, what: 'webcap demo report' });
  return path;
}
