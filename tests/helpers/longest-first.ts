// The order test files start in: the longest first, across all projects.
// vitest's own sequencer runs projects one after another (by name), so the
// files that need a process of their own, among the longest, started only
// after every other e2e file and ran alone at the end. Durations come from
// vitest's cache of the last run; a fresh clone has none, and then e2e files
// that need their own process go first, then e2e files, then unit files, the
// larger file first within each.
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const PROJECT_WEIGHT: Record<string, number> = { 'e2e-own-process': 3, e2e: 2, unit: 1 };

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const root = this.ctx.config.root;
    const known = (s: TestSpecification) => cache.getFileTestResults(`${s.project.name}:${relative(root, s.moduleId)}`)?.duration;
    const everyKnown = files.every((s) => known(s) !== undefined);
    const size = (s: TestSpecification) => statSync(s.moduleId, { throwIfNoEntry: false })?.size ?? 0;
    const weight = (s: TestSpecification) => (everyKnown ? known(s)! : (PROJECT_WEIGHT[s.project.name] ?? 0) * 1e9 + size(s));
    return [...files].sort((a, b) => weight(b) - weight(a));
  }
}
