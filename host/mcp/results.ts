// A capability's result as an MCP tool result: a text block for the model
// (webcap's fields as JSON, then all page content in ONE wrapped block),
// structuredContent for programs (valid against the manifest's output_schema,
// every string neutralised so no marker can be forged in it), and screenshots
// as image content. Failures are isError results carrying the WebcapError
// code, so an agent can branch on it; their message and details are
// neutralised too (a sidecar error can quote page text, e.g. option labels).
import { readFileSafely } from '../files/safe-read.js';
import { isAbsolute, relative, resolve } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toWebcapError } from '../../manifests/errors.js';
import type { Manifest } from '../../manifests/load.js';
import { neutraliseStrings, newBoundaryId, pageContentText, readsPageContent } from '../untrusted/untrusted.js';

/** Images beyond this stay on disk (the path is in the result); a client's message limit is the concern. */
const IMAGE_MAX_BYTES = 8 * 1024 * 1024;

const MIME: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg' };

interface ResultOptions { wrapUntrusted: boolean; workspace: string }

export async function toolResult(m: Manifest, raw: unknown, opts: ResultOptions): Promise<CallToolResult> {
  let result: Record<string, unknown> = raw && typeof raw === 'object' && !Array.isArray(raw) ? { ...(raw as Record<string, unknown>) } : { value: raw ?? null };
  const image = await imageOf(result, opts.workspace);
  // The base64 copy is already in the image block; sending it twice as text would only fill the agent's context.
  if (image && typeof result.base64 === 'string') delete result.base64;
  let text = JSON.stringify(result);
  if (opts.wrapUntrusted && readsPageContent(m)) {
    const wrap = { id: newBoundaryId(), source: originOf(result.url), schema: m.output_schema };
    text = pageContentText(result, wrap);
    result = neutraliseStrings(result);
  }
  const content: CallToolResult['content'] = [{ type: 'text', text }];
  if (image) content.push(image);
  return { content, structuredContent: result };
}

export function errorResult(err: unknown): CallToolResult {
  const e = toWebcapError(err);
  const error = neutraliseStrings({ code: e.code, message: e.message, details: e.details });
  return {
    isError: true,
    content: [{ type: 'text', text: JSON.stringify({ error }) }],
  };
}

/** An image block for a result whose `path` is a png/jpeg inside the workspace (or that came back inline). */
async function imageOf(result: Record<string, unknown>, workspace: string): Promise<CallToolResult['content'][number] | undefined> {
  const path = typeof result.path === 'string' ? result.path : undefined;
  const ext = path ? /\.(png|jpe?g)$/i.exec(path)?.[1].toLowerCase() : undefined;
  const format = typeof result.format === 'string' ? result.format.toLowerCase() : undefined;
  const mimeType = path ? MIME[ext ?? ''] : MIME[format ?? ''];
  if (!mimeType) return undefined;
  if (typeof result.base64 === 'string') return { type: 'image', data: result.base64, mimeType };
  if (!path || !inside(workspace, path)) return undefined;
  try {
    // The safe reader: a link planted at the name is not read through; too large is not read at all.
    return { type: 'image', data: (await readFileSafely(path, { what: 'screenshot', maxBytes: IMAGE_MAX_BYTES })).toString('base64'), mimeType };
  } catch {
    return undefined; // the file is gone: the result still names it, nothing more to show
  }
}

/** The sidecar writes only under the workspace; reading is held to the same place. */
function inside(workspace: string, path: string): boolean {
  const rel = relative(resolve(workspace), resolve(path));
  return !rel.startsWith('..') && !isAbsolute(rel);
}

function originOf(url: unknown): string | undefined {
  if (typeof url !== 'string') return undefined;
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}
