// web.pdf: the page printed to PDF (Chromium's print pipeline; headless only),
// saved under <workspace>/pdf.
import { stat } from 'node:fs/promises';
import { WebcapError } from '../../manifests/errors.js';
import { pageTool } from '../tool.js';
import { outputPath } from '../workspace.js';
import { writeInWorkspace } from '../workspace-write.js';

export const pdf = pageTool('web.pdf', async ({ page, ctx }, params) => {
  const wanted = params.path;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const path = outputPath(ctx.init.workspace, 'pdf', wanted, `page-${stamp}-${process.hrtime.bigint() % 1000000n}.pdf`, ['pdf'], 'web.pdf');
  try {
    // Printed to a fresh file, then renamed onto `path`: never through a link (workspace-write.ts).
    await writeInWorkspace(ctx.init.workspace, path, 'web.pdf', async (tmp) => { await page.pdf({
      path: tmp,
      format: params.format ?? 'A4',
      landscape: Boolean(params.landscape),
      printBackground: params.print_background !== false,
    }); });
  } catch (err) {
    if (/only supported in headless|headless/i.test(String((err as Error)?.message))) {
      throw new WebcapError('capability_disabled', 'web.pdf needs headless Chromium ([capabilities.browser] headless = true)', { config_key: 'capabilities.browser.headless' });
    }
    throw err;
  }
  return { path, bytes: (await stat(path)).size, url: page.url(), title: await page.title() };
});
