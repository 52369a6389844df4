// Files a page downloads (a link with `download`, a Content-Disposition
// attachment) are saved only under <workspace>/downloads, never overwrite one
// another, and executables are refused: by the name's extension first, then by
// the first bytes (a Windows/ELF/Mach-O binary or a script with #!), so a
// renamed binary is caught as well. Playwright keeps the bytes in a temporary
// file until saveAs; that file is deleted in every case.
import { open, unlink } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { Download, Page } from 'playwright';
import type { PageEvents } from './page-events.js';
import { freePath, safeFileName } from './workspace.js';
import { realFolder, writeInWorkspace } from './workspace-write.js';

export interface DownloadEntry {
  url: string;
  filename: string;
  state: 'saving' | 'saved' | 'refused' | 'failed';
  path?: string;
  bytes?: number;
  reason?: string;
  tab: string;
  at: string;
}

// Things an OS will run or install when opened. Lower case, no dot.
const EXECUTABLE_EXTENSIONS = new Set([
  'exe', 'msi', 'msp', 'msix', 'appx', 'appxbundle', 'bat', 'cmd', 'com', 'scr', 'pif', 'cpl', 'hta', 'lnk', 'reg', 'inf', 'msc', 'gadget',
  'ps1', 'psm1', 'vbs', 'vbe', 'jse', 'wsf', 'wsh', 'dll', 'sys',
  'sh', 'bash', 'zsh', 'csh', 'ksh', 'command', 'run', 'bin', 'elf', 'so', 'appimage', 'deb', 'rpm',
  'app', 'dmg', 'pkg', 'mpkg', 'dylib',
  'apk', 'aab', 'xapk', 'ipa', 'jar', 'xpi', 'crx',
]);

/** Why a file name is refused, or undefined if it may be saved. */
export function executableByName(name: string): string | undefined {
  const ext = extname(name.replace(/[.\s]+$/, '')).slice(1).toLowerCase();
  return EXECUTABLE_EXTENSIONS.has(ext) ? `executable file type .${ext}` : undefined;
}

/** Why content is refused by its first bytes, or undefined. */
export function executableByContent(head: Buffer): string | undefined {
  if (head.subarray(0, 2).toString('latin1') === 'MZ') return 'the content is a Windows executable (MZ header)';
  if (head.subarray(0, 4).equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]))) return 'the content is an ELF executable';
  const magic = head.length >= 4 ? head.readUInt32BE(0) : 0;
  if ([0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe].includes(magic)) return 'the content is a Mach-O executable';
  if (head.subarray(0, 2).toString('latin1') === '#!') return 'the content is a script (#! line)';
  return undefined;
}

export function saveDownloads(page: Page, tab: string, workspace: string, events: PageEvents): void {
  page.on('download', (download) => {
    const entry: DownloadEntry = { url: download.url(), filename: safeFileName(download.suggestedFilename()), state: 'saving', tab, at: new Date().toISOString() };
    events.downloads.push(entry);
    const job: Promise<void> = store(download, entry, workspace)
      .catch((err) => { entry.state = 'failed'; entry.reason = String((err as Error)?.message ?? err).split('\n')[0]; })
      .finally(() => { events.pending.delete(job); void download.delete().catch(() => undefined); });
    events.pending.add(job);
  });
}

// Paths of downloads being written now: two same-named downloads at once must not pick the same file.
const writing = new Set<string>();

async function store(download: Download, entry: DownloadEntry, workspace: string): Promise<void> {
  const folder = join(workspace, 'downloads');
  const byName = executableByName(entry.filename);
  if (byName) {
    await download.cancel().catch(() => undefined);
    Object.assign(entry, { state: 'refused', reason: `${byName}: executables are never saved` });
    return;
  }
  const failure = await download.failure();
  if (failure) throw new Error(`the download failed: ${failure}`);
  await realFolder(workspace, folder, 'download');
  const path = freePath(folder, entry.filename, (p) => writing.has(p));
  writing.add(path);
  try {
    // Saved to a fresh file, then renamed onto `path`: never through a link (workspace-write.ts).
    await writeInWorkspace(workspace, path, 'download', (tmp) => download.saveAs(tmp));
  } finally {
    writing.delete(path);
  }
  const file = await open(path, 'r');
  let head: Buffer;
  let size: number;
  try {
    size = (await file.stat()).size;
    const { buffer, bytesRead } = await file.read(Buffer.alloc(8), 0, 8, 0);
    head = buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
  const byContent = executableByContent(head);
  if (byContent) {
    await unlink(path).catch(() => undefined);
    Object.assign(entry, { state: 'refused', reason: `${byContent}: executables are never saved` });
    return;
  }
  Object.assign(entry, { state: 'saved', path, bytes: size });
}
