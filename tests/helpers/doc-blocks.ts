// Code blocks that README.md and docs/ mark as runnable (`<!-- runnable: KIND -->`
// on the line before the fence), so a test can run them as a reader would.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface DocBlock { file: string; line: number; kind: string; lang: string; code: string }

const MARK = /^<!-- runnable: ([a-z-]+) -->$/;

export function runnableBlocks(file: string): DocBlock[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length - 1; i++) {
    const mark = MARK.exec(lines[i].trim());
    const fence = /^```(\w*)$/.exec(lines[i + 1]);
    if (!mark || !fence) continue;
    const end = lines.indexOf('```', i + 2);
    if (end < 0) throw new Error(`${file}:${i + 2}: runnable block is not closed`);
    blocks.push({ file, line: i + 2, kind: mark[1], lang: fence[1], code: lines.slice(i + 2, end).join('\n') });
  }
  return blocks;
}

/** README.md and every page under docs/, in a stable order. */
export function documentationFiles(root: string): string[] {
  const docs = readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => join(root, 'docs', f));
  return [join(root, 'README.md'), ...docs];
}
