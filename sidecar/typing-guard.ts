// Password and payment typing, detected when the keys land: the element that
// has focus at the moment of each key decides, not the selector the call
// named. A field can become type=password on focus, a Tab can move focus into
// one, and web.keypress can type a password a key at a time; each of these
// asks before the first key reaches the field (a "no" stops before it).
import type { Page } from 'playwright';
import { typesIntoField } from './effect-rules.js';
import type { PageCall } from './tool.js';
import { describeField, type FieldInfo } from './tools/field-kind.js';

/**
 * The kind of the element keys go to now. Focus inside an iframe or a shadow
 * root shows outside it as the frame or the host, so every frame is asked and
 * every :focus match is described (a host and its inner field both match);
 * the most sensitive kind wins. A check that fails counts as a password field.
 */
export async function focusedFieldKind(page: Page): Promise<FieldInfo['kind'] | undefined> {
  let found: FieldInfo['kind'] | undefined;
  for (const frame of page.frames()) {
    const focused = frame.locator(':focus:not(iframe):not(frame)');
    const n = await focused.count().catch(() => 0);
    for (let i = 0; i < n; i++) {
      const { kind } = await describeField(focused.nth(i), 1000).catch(() => ({ kind: 'password' as const }));
      if (kind === 'password') return kind;
      if (kind === 'payment' || !found) found = kind;
    }
  }
  return found;
}

/** One per action: asks once per sensitive kind, then lets the rest of the keys of that action through. */
export class TypingGuard {
  private readonly approved = new Set<string>();

  constructor(private readonly call: PageCall, private readonly capability: string, private readonly secret: string) {}

  /** The call already asked about this kind up front (with the selector in the question). */
  approvedAlready(kind: FieldInfo['kind']): void {
    this.approved.add(kind);
  }

  /** Whether keys went (with approval) into a field of this kind. */
  saw(kind: FieldInfo['kind']): boolean {
    return this.approved.has(kind);
  }

  /** Call just before `key` is pressed; throws consent_denied (through ctx.confirm) on a "no". */
  async beforeKey(key: string): Promise<void> {
    if (!typesIntoField(key) || (this.approved.has('password') && this.approved.has('payment'))) return;
    await this.check();
  }

  /** The focused field right now (after focus handlers ran): ask if it is sensitive and not yet approved. */
  async check(): Promise<void> {
    const kind = await focusedFieldKind(this.call.page);
    if (!kind || kind === 'plain' || this.approved.has(kind)) return;
    await this.call.ctx.confirm({
      capability: this.capability, selector: 'the focused field', reason: `${kind}_field`,
      ...(this.secret ? { secret: this.secret } : {}),
    }, this.call.session);
    this.approved.add(kind);
  }
}

/** What a key sequence types as text (for the host's redactor): the single-character keys, in order. */
export function typedText(keys: string[]): string {
  return keys.filter((k) => k.length === 1).join('');
}
