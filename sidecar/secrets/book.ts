// The secrets this sidecar has typed: each value (and each TOTP code it made)
// with the origins it is bound to and every form it can travel in. Two uses:
// every answer leaving the sidecar shows a value as `{{secret:NAME}}`
// (scrub), and the network guard refuses a request that carries one to any
// other origin (leakIn). Values live in this process's memory only, for as
// long as the process does; they are never written or logged.
import { leakForms } from '../../manifests/secrets/forms.js';
import { refText, type SecretRef } from '../../manifests/secrets/refs.js';

/** Shorter values (a 3-digit code) would match ordinary text everywhere. */
const MIN_LENGTH = 4;
const MAX_DEPTH = 64;

interface Known { ref: SecretRef; label: string; origins: Set<string>; shown: string[]; leaks: string[]; leakBytes: Buffer[] }

export class SecretBook {
  private readonly known = new Map<string, Known>(); // by value
  private shown: Array<[string, string]> = [];        // [form, label], longest first

  get size(): number { return this.known.size; }

  remember(ref: SecretRef, value: string, origins: string[]): void {
    if (value.length < MIN_LENGTH || this.known.has(value)) return;
    const leaks = leakForms(value).filter((f) => f.length >= MIN_LENGTH);
    // Answers hide every form the guard looks for, base64 included (a refused URL is reported with its query).
    const k: Known = { ref, label: refText(ref), origins: new Set(origins), shown: leaks, leaks, leakBytes: leaks.map((f) => Buffer.from(f)) };
    this.known.set(value, k);
    this.shown = [...this.known.values()].flatMap((e) => e.shown.map((f): [string, string] => [f, e.label])).sort((a, b) => b[0].length - a[0].length);
  }

  /** The label a value shows as (`{{secret:NAME}}`), if it is one this sidecar typed. */
  labelOf(value: string): string | undefined {
    return this.known.get(value)?.label;
  }

  values(): string[] {
    return [...this.known.keys()];
  }

  scrubText(text: string): string {
    let out = text;
    for (const [form, label] of this.shown) if (out.includes(form)) out = out.split(form).join(label);
    return out;
  }

  /** A deep copy with every known value, in any form the redactor knows, shown as its reference. */
  scrub<T>(value: T, depth = 0): T {
    if (this.known.size === 0) return value;
    if (typeof value === 'string') return this.scrubText(value) as T;
    if (value === null || typeof value !== 'object' || depth > MAX_DEPTH || Buffer.isBuffer(value)) return value;
    if (Array.isArray(value)) return value.map((v) => this.scrub(v, depth + 1)) as T;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.scrub(v, depth + 1)])) as T;
  }

  /**
   * The secret a request to `origin` carries but may not (its name), looking
   * in each part (URL, headers, body) for every form of every value not bound
   * to that origin. Buffers are searched as bytes: no decoding of a large body.
   */
  leakIn(origin: string, parts: Array<string | Buffer | null | undefined>): SecretRef | undefined {
    for (const k of this.known.values()) {
      if (k.origins.has(origin)) continue;
      for (const part of parts) {
        if (!part) continue;
        const found = typeof part === 'string' ? k.leaks.some((f) => part.includes(f)) : k.leakBytes.some((f) => part.includes(f));
        if (found) return k.ref;
      }
    }
    return undefined;
  }
}

/** One per sidecar process: what was typed in one session may be sent by another page of the same browser. */
export const secretBook = new SecretBook();
