// SharedValues kept in this process: the embedded store's robots and
// approvals memory. Bounded, oldest dropped first, so a crawl over many
// origins cannot grow it without end.
import type { SharedValues } from './types.js';

const MAX_MEMORY_VALUES = 10_000;

export class MemoryValues implements SharedValues {
  private readonly map = new Map<string, { value: string; expires: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  async get(key: string): Promise<string | undefined> {
    const hit = this.map.get(key);
    if (!hit) return undefined;
    if (hit.expires <= this.now()) {
      this.map.delete(key);
      return undefined;
    }
    return hit.value;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.map.delete(key);
    this.map.set(key, { value, expires: this.now() + ttlMs });
    if (this.map.size > MAX_MEMORY_VALUES) this.map.delete(this.map.keys().next().value as string);
  }

  async delete(key: string): Promise<void> {
    this.map.delete(key);
  }
}
