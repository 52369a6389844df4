// The provider state as one small JSON file under the workspace (the embedded store).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeFileSafelySync } from '../../manifests/safe-write.js';
import { badFile, isMissingFile, MiB, readJsonSafelySync } from '../files/safe-read.js';
import type { StateBackend, StateFile } from './provider-state.js';

export class FileStateBackend implements StateBackend {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly file: string) {}

  // Serialised in this process; across processes the last writer wins, which can
  // at worst under-count a request or two — acceptable for a budget, not a bill.
  // ([store] url puts the state in Redis, where updates are locked.)
  update<T>(change: (s: StateFile) => T): Promise<T> {
    const run = this.queue.then(() => {
      const s = this.readNow();
      const out = change(s);
      this.write(s);
      return out;
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  async read(): Promise<StateFile> {
    return this.readNow();
  }

  /** No file yet: a fresh state. A link, a huge or unreadable file: an error, so the caller refuses (fail closed). */
  private readNow(): StateFile {
    let data: unknown;
    try {
      data = readJsonSafelySync(this.file, { what: 'search provider state', maxBytes: 4 * MiB });
    } catch (err) {
      if (isMissingFile(err)) return {};
      throw err;
    }
    if (!data || typeof data !== 'object' || Array.isArray(data)) throw badFile(this.file, 'search provider state', 'bad_shape', 'not a JSON object');
    return data as StateFile;
  }

  private write(s: StateFile): void {
    mkdirSync(dirname(this.file), { recursive: true });
    writeFileSafelySync(this.file, JSON.stringify(s, null, 1), { what: 'search provider state' });
  }
}
