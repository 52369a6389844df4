// Every temporary file a test run makes goes under one folder of its own,
// removed when the run ends: the test files' own folders (tmpdir()), and those
// of the sidecars, daemons and Chromium they start (each reads TMPDIR). Without
// it a run left several hundred folders in /tmp, test files that forget to
// clean up and processes killed on purpose alike.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  // vitest runs this once per project: the first one makes the folder, the others share it.
  if (process.env.WEBCAP_TEST_TMP) return () => undefined;
  const before = process.env.TMPDIR;
  const root = mkdtempSync(join(tmpdir(), 'webcap-run-'));
  process.env.TMPDIR = root; // set before any worker starts, so every worker and child inherits it
  process.env.WEBCAP_TEST_TMP = root;
  return () => {
    delete process.env.WEBCAP_TEST_TMP;
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
}
