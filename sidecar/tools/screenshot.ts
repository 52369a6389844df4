// web.screenshot: viewport, full page or one element; png or jpeg; saved only
// under the workspace's screenshots folder. width/height set the viewport for
// this one shot; very tall full pages are captured in bands (capture/full-page).
import { open, readFile, stat, writeFile } from 'node:fs/promises';
import type { Page } from 'playwright';
import { WebcapError } from '../../manifests/errors.js';
import { pageTool, waitForSelector } from '../tool.js';
import { captureFullPage, type FullPageShot } from '../capture/full-page.js';
import { imageSize } from './image-size.js';
import { outputPath } from '../workspace.js';
import { writeInWorkspace } from '../workspace-write.js';
import { secretMasks } from '../secrets/masks.js';

const INLINE_MAX_BYTES = 16 * 1024 * 1024;

/** A png/jpeg path inside <workspace>/screenshots whose ending matches the format. */
export function screenshotPath(workspace: string, wanted: string | undefined, format: string): string {
  const name = `shot-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.hrtime.bigint() % 1000000n}.${format === 'jpeg' ? 'jpg' : 'png'}`;
  return outputPath(workspace, 'screenshots', wanted, name, format === 'jpeg' ? ['jpg', 'jpeg'] : ['png'], 'web.screenshot');
}

export const screenshot = pageTool('web.screenshot', async ({ page, timeout, ctx, selector }, params) => {
  const format = params.format ?? (/\.jpe?g$/i.test(String(params.path ?? '')) ? 'jpeg' : 'png');
  if (params.quality !== undefined && format !== 'jpeg') {
    throw new WebcapError('invalid_params', 'web.screenshot: quality applies to jpeg only', { field: 'quality' });
  }
  const path = screenshotPath(ctx.init.workspace, params.path, format);
  let shot: Partial<FullPageShot> = {};
  // Written to a fresh file and renamed onto `path`: never through a link (workspace-write.ts).
  await writeInWorkspace(ctx.init.workspace, path, 'web.screenshot', async (tmp) => {
    shot = await withViewport(page, params.width, params.height, async () => {
      // Fields and text showing a vault value webcap typed are painted over (secrets/masks.ts).
      const options = { type: format, quality: params.quality, timeout, mask: await secretMasks(page) };
      if (params.selector) return { bytes: await (await waitForSelector(page, selector(params.selector), timeout)).screenshot(options) };
      if (params.full_page) return captureFullPage(page, tmp, format, options);
      return { bytes: await page.screenshot(options) };
    });
    if (shot.bytes) await writeFile(tmp, shot.bytes);
  });
  const { bytes: captured, page_height, tiles, truncated, note } = shot;
  // A tiled shot went straight to disk; its header is all we need to read back.
  const size = (await stat(path)).size;
  const { width, height } = imageSize(captured ?? await readHead(path));
  const inline = params.inline ? inlineCopy(captured, path, size) : undefined;
  return { path, width, height, format, bytes: size, ...(page_height === undefined ? {} : { page_height, tiles }), ...(truncated ? { truncated, note } : {}), ...(await inline) };
});

/** The viewport for one shot (width/height per call), put back afterwards so later actions see the page as before. */
async function withViewport<T>(page: Page, width: number | undefined, height: number | undefined, shoot: () => Promise<T>): Promise<T> {
  if (width === undefined && height === undefined) return shoot();
  const before = page.viewportSize() ?? await page.evaluate(() => ({ width: innerWidth, height: innerHeight }));
  await page.setViewportSize({ width: width ?? before.width, height: height ?? before.height });
  try {
    return await shoot();
  } finally {
    await page.setViewportSize(before).catch(() => undefined);
  }
}

async function readHead(path: string): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(64), 0, 64, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
}

/** base64 of the image, unless it is too big to be worth carrying over JSON-RPC. */
async function inlineCopy(bytes: Buffer | undefined, path: string, size: number): Promise<Record<string, string>> {
  if (size > INLINE_MAX_BYTES) return { base64_omitted: `the image is ${size} bytes; base64 is only returned up to ${INLINE_MAX_BYTES} bytes, read the file at path` };
  return { base64: (bytes ?? await readFile(path)).toString('base64') };
}
