// Label values are a closed, small set: a capability id only if a manifest
// declares it, an error code only from the closed list, a policy or consent
// reason only from names the host itself writes, each capped in count. A URL,
// a selector or page text cannot become a label, so a hostile caller cannot
// blow up the series count or read one page's data out of /metrics.
import { ERROR_CODES } from '../../manifests/errors.js';

const CODES = new Set<string>(ERROR_CODES);
const NAME = /^[a-z][a-z0-9_]{0,39}$/;

export class LabelSet {
  private readonly seen = new Set<string>();

  constructor(private readonly known: (value: string) => boolean, private readonly max: number) {}

  /** The value itself when it is known and within the cap, else "other". */
  of(value: string | undefined): string {
    if (value === undefined || !this.known(value)) return 'other';
    if (this.seen.has(value)) return value;
    if (this.seen.size >= this.max) return 'other';
    this.seen.add(value);
    return value;
  }
}

/** Error codes: the closed set, "none" for a success. */
export function codeLabel(code: string | undefined): string {
  if (code === undefined) return 'none';
  return CODES.has(code) ? code : 'other';
}

/** Names webcap writes itself (policy names, consent reasons): snake_case words, at most 40 characters. */
export const isPlainName = (value: string): boolean => NAME.test(value);
