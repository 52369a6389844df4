// Audit screenshots of a form fill (before, filled, after), full page, saved
// under the workspace screenshots folder. A failed screenshot is reported, not
// fatal: the fill itself matters more than its picture.
import { writeFile } from 'node:fs/promises';
import type { Page } from 'playwright';
import { captureFullPage } from '../capture/full-page.js';
import { mapError } from '../errors.js';
import { screenshotPath } from '../tools/screenshot.js';
import { writeInWorkspace } from '../workspace-write.js';

export class FormShots {
  readonly paths: string[] = [];
  readonly problems: string[] = [];
  private readonly stamp = `${new Date().toISOString().replace(/[:.]/g, '-')}-${process.hrtime.bigint() % 1000000n}`;

  constructor(private readonly workspace: string, private readonly timeLeft: () => number) {}

  async take(page: Page, label: string): Promise<void> {
    const path = screenshotPath(this.workspace, `form-${this.stamp}-${this.paths.length + 1}-${label}.png`, 'png');
    try {
      await writeInWorkspace(this.workspace, path, 'web.fill_form', async (tmp) => {
        const shot = await captureFullPage(page, tmp, 'png', { timeout: this.timeLeft() });
        if (shot.bytes) await writeFile(tmp, shot.bytes);
      });
      this.paths.push(path);
    } catch (err) {
      const e = mapError(err);
      if (e.code === 'browser_crashed') throw e;
      this.problems.push(`${label}: ${e.message}`);
    }
  }
}
