// The pure parts of downloads, workspace paths and the per-session event log:
// table cases, no browser.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { executableByContent, executableByName } from '../../../sidecar/downloads.js';
import { EventLog } from '../../../sidecar/page-events.js';
import { freePath, outputPath, safeFileName, workspaceFile } from '../../../sidecar/workspace.js';
import { tempDir } from '../../helpers/host.js';

describe('executables are refused', () => {
  it.each([
    ['setup.exe', true], ['SETUP.EXE', true], ['report.pdf.exe', true], ['evil.exe.', true], ['evil.exe  ', true],
    ['install.msi', true], ['run.bat', true], ['x.cmd', true], ['x.sh', true], ['X.app', true], ['x.dmg', true],
    ['x.apk', true], ['x.jar', true], ['x.ps1', true], ['x.vbs', true], ['x.scr', true],
    ['report.pdf', false], ['data.csv', false], ['notes.txt', false], ['archive.zip', false], ['exe', false], ['photo.exe.jpg', false],
  ])('by name: %s → %s', (name, refused) => {
    expect(executableByName(name) !== undefined).toBe(refused);
  });

  it.each([
    ['MZ header', Buffer.from('MZ\x90\x00', 'latin1'), /Windows/],
    ['ELF', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1]), /ELF/],
    ['Mach-O 64', Buffer.from([0xcf, 0xfa, 0xed, 0xfe, 7, 0]), /Mach-O/],
    ['shebang', Buffer.from('#!/bin/sh\n'), /script/],
  ])('by content: %s', (_label, head, reason) => {
    expect(executableByContent(head)).toMatch(reason);
  });

  it.each([['%PDF-1.7'], ['hello'], ['PK\x03\x04'], ['']])('by content: %j is fine', (text) => {
    expect(executableByContent(Buffer.from(text, 'latin1'))).toBeUndefined();
  });
});

describe('workspace paths', () => {
  const ws = tempDir('webcap-ws-');

  it('writes only under the tool\'s own folder, with its own ending', () => {
    expect(outputPath(ws, 'pdf', 'a.pdf', 'x.pdf', ['pdf'], 'web.pdf')).toBe(join(ws, 'pdf', 'a.pdf'));
    expect(outputPath(ws, 'pdf', 'sub/a', 'x.pdf', ['pdf'], 'web.pdf')).toBe(join(ws, 'pdf', 'sub', 'a.pdf'));
    expect(outputPath(ws, 'pdf', undefined, 'gen.pdf', ['pdf'], 'web.pdf')).toBe(join(ws, 'pdf', 'gen.pdf'));
    expect(outputPath(ws, 'pdf', join(ws, 'pdf', 'abs.pdf'), 'x.pdf', ['pdf'], 'web.pdf')).toBe(join(ws, 'pdf', 'abs.pdf'));
    for (const bad of ['../../x.pdf', '/etc/x.pdf', `${ws}-other/x.pdf`, join(ws, 'elsewhere.pdf'), '../chain.jsonl', '.']) {
      expect(() => outputPath(ws, 'pdf', bad, 'x.pdf', ['pdf'], 'web.pdf'), bad).toThrow(/must be a file inside/);
    }
    expect(() => outputPath(ws, 'pdf', 'a.png', 'x.pdf', ['pdf'], 'web.pdf')).toThrow(/must end in \.pdf/);
  });

  it('reads only workspace files, following symlinks before deciding', async () => {
    const outside = tempDir('webcap-out-');
    writeFileSync(join(outside, 's.txt'), 'secret');
    mkdirSync(join(ws, 'in'), { recursive: true });
    writeFileSync(join(ws, 'in', 'ok.txt'), 'ok');
    symlinkSync(join(outside, 's.txt'), join(ws, 'in', 'link.txt'));
    symlinkSync(outside, join(ws, 'dirlink'));
    await expect(workspaceFile({ workspace: ws }, 'in/ok.txt', 'web.upload', 'files')).resolves.toMatch(/in\/ok\.txt$/);
    for (const bad of ['in/link.txt', 'dirlink/s.txt', join(outside, 's.txt'), '../x', '/etc/passwd']) {
      await expect(workspaceFile({ workspace: ws }, bad, 'web.upload', 'files'), bad).rejects.toMatchObject({ code: 'invalid_params', message: expect.stringMatching(/outside the workspace/) });
    }
    await expect(workspaceFile({ workspace: ws }, 'in', 'web.upload', 'files')).rejects.toMatchObject({ message: expect.stringMatching(/not a regular file/) });
  });

  it('makes page-suggested names safe and never overwrites', () => {
    expect(safeFileName('../../etc/passwd')).toBe('passwd');
    expect(safeFileName('..\\..\\win.ini')).toBe('win.ini');
    expect(safeFileName('.hidden')).toBe('hidden');
    expect(safeFileName('a:b?c.txt')).toBe('a_b_c.txt');
    expect(safeFileName('...')).toBe('download');
    const dir = tempDir('webcap-free-');
    expect(freePath(dir, 'r.txt')).toBe(join(dir, 'r.txt'));
    writeFileSync(join(dir, 'r.txt'), '');
    writeFileSync(join(dir, 'r-1.txt'), '');
    expect(freePath(dir, 'r.txt')).toBe(join(dir, 'r-2.txt'));
  });
});

describe('EventLog', () => {
  it('take() returns what came since the last take(); since(mark) what came after a mark', () => {
    const log = new EventLog<number>();
    log.push(1); log.push(2);
    const mark = log.count;
    expect(log.since(mark)).toEqual([]);
    log.push(3);
    expect(log.since(mark)).toEqual([3]);
    expect(log.take()).toEqual({ items: [1, 2, 3], dropped: 0 });
    expect(log.take()).toEqual({ items: [], dropped: 0 });
    expect(log.since(mark)).toEqual([3]);
  });

  it('keeps at most 500, counting what an unread reader lost', () => {
    const log = new EventLog<number>();
    for (let i = 0; i < 520; i++) log.push(i);
    const { items, dropped } = log.take();
    expect(items).toHaveLength(500);
    expect(items[0]).toBe(20);
    expect(dropped).toBe(20);
    expect(log.unreadCount).toBe(0);
  });
});
