// web.screenshot through browser_take_screenshot: the server answers with the
// image inline; webcap writes it into its own workspace, as the sidecar does.
import { isAbsolute, join, relative, resolve } from 'node:path';
import { WebcapError } from '../../../manifests/errors.js';
import { writeFileSafely } from '../../../manifests/safe-write.js';
import type { OwnerSessions } from './backend.js';
import { PROVIDER } from './connection.js';

export async function screenshot(b: OwnerSessions, p: Record<string, unknown>, ms: number): Promise<Record<string, unknown>> {
  const s = b.session(p);
  const format = p.format === 'jpeg' ? 'jpeg' : 'png';
  const { result } = await s.conn.tool('browser_take_screenshot', { type: format, fullPage: p.full_page === true, scale: 'css', ...(typeof p.selector === 'string' ? { target: p.selector } : {}) }, ms);
  const image = result.content.find((c) => c.type === 'image') as { data: string } | undefined;
  if (!image) throw new WebcapError('provider_error', 'browser_take_screenshot returned no image (start the server with --image-responses allow)', { provider: PROVIDER });
  const bytes = Buffer.from(image.data, 'base64');
  const workspace = resolve(b.config.workspace.path);
  const path = resolve(workspace, (p.path as string | undefined) ?? join('screenshots', `${s.name}-${Date.now()}.${format}`));
  const rel = relative(workspace, path);
  if (rel.startsWith('..') || isAbsolute(rel)) throw new WebcapError('invalid_params', `web.screenshot: path must stay inside the workspace (${workspace})`, { field: 'path' });
  // The one safe writer: no link on the way from the workspace, none at the name.
  await writeFileSafely(path, bytes, { root: workspace, what: 'web.screenshot' });
  const { width, height } = imageSize(bytes);
  return { path, width, height, format, bytes: bytes.length, session: s.name };
}

/** PNG: IHDR at byte 16; JPEG: the first SOFn marker. */
export function imageSize(b: Buffer): { width: number; height: number } {
  if (b.readUInt32BE(0) === 0x89504e47) return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  for (let i = 2; i + 9 < b.length; ) {
    if (b[i] !== 0xff) { i++; continue; }
    const marker = b[i + 1];
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) return { width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5) };
    i += 2 + b.readUInt16BE(i + 2);
  }
  return { width: 0, height: 0 };
}
