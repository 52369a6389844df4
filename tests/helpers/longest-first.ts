// The order test files start in: the longest first, across all projects.
// vitest's own sequencer runs projects one after another (by name), so the
// files that need a process of their own, among the longest, started only
// after every other e2e file and ran alone at the end. Durations come from
// vitest's cache of the last run, else (a fresh clone, as in CI) from
// file-durations.json, a quiet run's file times kept in the repository. Files
// neither knows (a new file) go first, as vitest's own order puts them: e2e
// files that need their own process, then e2e files, then unit files, the
// larger file first.
import { readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Refresh: from a run's JSON report (`--reporter=json`), each file's endTime − startTime in ms, by path.
const RECORDED: Record<string, number> = JSON.parse(readFileSync(new URL('./file-durations.json', import.meta.url), 'utf8'));

const PROJECT_WEIGHT: Record<string, number> = { 'e2e-own-process': 3, e2e: 2, unit: 1 };

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const root = this.ctx.config.root;
    const known = (s: TestSpecification) => cache.getFileTestResults(`${s.project.name}:${relative(root, s.moduleId)}`)?.duration ?? RECORDED[relative(root, s.moduleId)];
    const size = (s: TestSpecification) => statSync(s.moduleId, { throwIfNoEntry: false })?.size ?? 0;
    const unknownOrder = (s: TestSpecification) => (PROJECT_WEIGHT[s.project.name] ?? 0) * 1e9 + size(s);
    return [...files].sort((a, b) => {
      const [da, db] = [known(a), known(b)];
      if (da === undefined || db === undefined) return da === db ? unknownOrder(b) - unknownOrder(a) : da === undefined ? -1 : 1;
      return db - da;
    });
  }
}
