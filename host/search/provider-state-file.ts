// The provider state as one small JSON file under the workspace (the embedded store).
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
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

  private readNow(): StateFile {
    try {
      const data = JSON.parse(readFileSync(this.file, 'utf8')) as unknown;
      return data && typeof data === 'object' ? (data as StateFile) : {};
    } catch {
      return {};
    }
  }

  private write(s: StateFile): void {
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(s, null, 1));
    renameSync(tmp, this.file);
  }
}
