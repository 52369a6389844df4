// Checks the schema cannot express, run once at start-up: each failure is
// invalid_params naming the key, so a typo stops webcap instead of silently
// weakening a guard (an allow_private entry that matches nothing, a redaction
// pattern that never runs) or letting a tool overwrite webcap's own files.
import { isAbsolute, join, relative, resolve } from 'node:path';
import { WebcapError } from '../../manifests/errors.js';
import { invalidAllowPrivate } from '../../manifests/net/address.js';
import type { WebcapConfig } from './types.js';

/** The folders under the workspace that tools write into (sidecar/tools, sidecar/downloads.ts). */
const TOOL_FOLDERS = ['screenshots', 'pdf', 'pages', 'downloads'] as const;

type Where = (key: string) => string;

/** `file:line: ` for a dotted key such as "chain.path": the key's line inside its [section]. */
export function whereIn(source: string | undefined, file: string): Where {
  return (key) => {
    const parts = key.split('.');
    const name = parts.pop()!;
    const section = parts.join('.');
    const lines = source?.split('\n') ?? [];
    let current = '';
    for (let i = 0; i < lines.length; i++) {
      const header = /^\s*\[([^\]]+)\]/.exec(lines[i]);
      if (header) { current = header[1].trim(); continue; }
      if (current === section && new RegExp(`^\\s*"?${name}"?\\s*=`).test(lines[i])) return `${file}:${i + 1}: `;
    }
    return `${file}: `;
  };
}

export function checkConfig(cfg: WebcapConfig, where: Where): void {
  const names = cfg.mcp.clients.map((c) => c.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new WebcapError('invalid_params', `${where('mcp.clients')}"mcp.clients": two clients are named "${twice}"; each name is one principal`, { key: 'mcp.clients', name: twice });
  const bad = invalidAllowPrivate(cfg.network.allow_private);
  if (bad.length > 0) {
    throw new WebcapError('invalid_params', `${where('network.allow_private')}"network.allow_private": ${bad.map((b) => JSON.stringify(b)).join(', ')} is neither an IP address nor a CIDR`, { key: 'network.allow_private', values: bad });
  }
  for (const p of cfg.redaction.patterns) {
    try {
      new RegExp(p, 'g');
    } catch (err) {
      throw new WebcapError('invalid_params', `${where('redaction.patterns')}"redaction.patterns": invalid regular expression ${JSON.stringify(p)}: ${(err as Error).message}`, { key: 'redaction.patterns', value: p });
    }
  }
  const own: Array<[string, string]> = [['chain.path', cfg.chain.path], ['logging.file', cfg.logging.file]];
  for (const [key, path] of own) {
    const folder = TOOL_FOLDERS.find((f) => inside(join(cfg.workspace.path, f), path));
    if (folder) {
      throw new WebcapError('invalid_params', `${where(key)}"${key}" (${path}) is inside the workspace's ${folder} folder, where a tool could overwrite it; put it elsewhere`, { key, path });
    }
  }
}

function inside(folder: string, path: string): boolean {
  const rel = relative(resolve(folder), resolve(path));
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
