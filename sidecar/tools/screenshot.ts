// web.screenshot: viewport, full page or one element; png or jpeg; saved only
// under the workspace's screenshots folder.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, extname, isAbsolute, join, relative, resolve } from 'node:path';
import { WebcapError } from '../../manifests/errors.js';
import { pageTool, waitForSelector } from '../tool.js';
import { imageSize } from './image-size.js';

export function screenshotPath(workspace: string, wanted: string | undefined, format: string): string {
  const folder = join(workspace, 'screenshots');
  const name = wanted ?? `shot-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.hrtime.bigint() % 1000000n}.${format}`;
  const full = isAbsolute(name) ? resolve(name) : resolve(folder, name);
  const rel = relative(workspace, full);
  if (rel.startsWith('..') || isAbsolute(rel)) {
    throw new WebcapError('invalid_params', `web.screenshot: path "${wanted}" is outside the workspace (${workspace})`, { field: 'path' });
  }
  return extname(full) ? full : `${full}.${format}`;
}

export const screenshot = pageTool('web.screenshot', async ({ page, timeout, ctx, selector }, params) => {
  const format = (params.format as 'png' | 'jpeg' | undefined) ?? (/\.jpe?g$/i.test(String(params.path ?? '')) ? 'jpeg' : 'png');
  if (params.quality !== undefined && format !== 'jpeg') {
    throw new WebcapError('invalid_params', 'web.screenshot: quality applies to jpeg only', { field: 'quality' });
  }
  const path = screenshotPath(ctx.init.workspace, params.path as string | undefined, format);
  const options = { type: format, quality: params.quality as number | undefined, timeout };
  const bytes = params.selector
    ? await (await waitForSelector(page, selector(params.selector as string), timeout)).screenshot(options)
    : await page.screenshot({ ...options, fullPage: Boolean(params.full_page) });
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, bytes);
  const { width, height } = imageSize(bytes);
  return { path, width, height, format, bytes: bytes.length, ...(params.inline ? { base64: bytes.toString('base64') } : {}) };
});
