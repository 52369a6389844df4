// Reading a plan file for `webcap run`: its size is checked against
// [plans] max_bytes on the open file before a byte is read, so a 20 MB plan
// is refused at once instead of being read, parsed and chewed on.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { WebcapError } from '../../manifests/errors.js';

export function readPlanFile(path: string, maxBytes: number): string {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    throw new WebcapError('invalid_params', `cannot read plan file ${path}`, { path });
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new WebcapError('invalid_params', `plan file ${path} is not a regular file`, { path });
    if (info.size > maxBytes) {
      throw new WebcapError('invalid_params', `plan file ${path} is ${info.size} bytes, more than [plans] max_bytes (${maxBytes}); split it or raise the limit`, { path, limit: 'plans.max_bytes', bytes: info.size, max_bytes: maxBytes });
    }
    // One byte past the limit is read, so a file that grew after the stat is caught too.
    const buf = Buffer.alloc(Math.min(info.size, maxBytes) + 1);
    let got = 0;
    for (let n; got < buf.length && (n = readSync(fd, buf, got, buf.length - got, null)) > 0;) got += n;
    if (got > maxBytes) throw new WebcapError('invalid_params', `plan file ${path} is more than [plans] max_bytes (${maxBytes})`, { path, limit: 'plans.max_bytes', max_bytes: maxBytes });
    return buf.subarray(0, got).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
