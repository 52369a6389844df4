// web.upload: put workspace files into an <input type=file>. Only files under
// the workspace (symlinks followed before the check), and the user is asked
// first: an upload sends a local file to a third party.
import { basename } from 'node:path';
import { stat } from 'node:fs/promises';
import { WebcapError } from '../../manifests/errors.js';
import { locateTarget } from '../target.js';
import { notFoundAsSelector, pageTool } from '../tool.js';
import { workspaceFile } from '../workspace.js';
import { fingerprintOf } from '../fingerprint.js';

export const upload = pageTool('web.upload', async (call, params) => {
  const { page, session, timeout, ctx } = call;
  const asked = params.files;
  // Paths first: a file outside the workspace is refused before anyone is asked about it.
  const files: string[] = [];
  for (const f of asked) files.push(await workspaceFile({ workspace: ctx.init.workspace, chain_path: ctx.init.chain_path, log_path: ctx.init.log_path }, f, 'web.upload', 'files'));
  const { locator, label } = await locateTarget(call, params);
  const input = await notFoundAsSelector(locator.evaluate((el) => ({
    file: el instanceof HTMLInputElement && el.type === 'file', multiple: el instanceof HTMLInputElement && el.multiple, tag: el.tagName.toLowerCase(),
  }), undefined, { timeout }), label, timeout);
  if (!input.file) {
    throw new WebcapError('invalid_params', `web.upload: ${label} is a <${input.tag}>, not an <input type=file>`, { selector: label });
  }
  if (files.length > 1 && !input.multiple) {
    throw new WebcapError('invalid_params', `web.upload: ${label} takes one file, ${files.length} were given`, { field: 'files' });
  }
  const names = files.map((f) => basename(f));
  await ctx.confirm({ capability: 'web.upload', selector: label, reason: 'upload', details: { files: names.join(', ') } }, session);
  await ctx.polite(session);
  const fp = fingerprintOf(locator);
  await locator.setInputFiles(files, { timeout });
  const sizes = await Promise.all(files.map(async (f) => (await stat(f)).size));
  return { ok: true, url: page.url(), files: names.map((name, i) => ({ name, bytes: sizes[i] })), ...(await fp) };
});
