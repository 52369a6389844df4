// Password and payment typing, detected when the keys land: the element that
// has focus at the moment of each key decides, not the selector the call
// named. A field can become type=password on focus, a Tab can move focus into
// one, and web.keypress can type a password a key at a time; each of these
// asks before the first key reaches the field (a "no" stops before it).
import type { Page } from 'playwright';
import { typesIntoField } from './effect-rules.js';
import type { PageCall } from '../tool.js';
import { fieldInPage, type FieldInfo } from '../tools/field-kind.js';
import { FOCUSED_KINDS } from '../tools/look-by-css.js';
import { evaluateInPage } from './redirect-hops.js';

/**
 * The kind of the element keys go to now, in one round trip: the top document
 * is read down through open shadow roots and same-origin frames with the DOM
 * functions captured before the page's scripts (look-by-css.ts). Focus inside
 * another origin's frame takes the per-frame look below.
 */
async function focusedFieldKind(page: Page): Promise<FieldInfo['kind'] | undefined> {
  const kinds = await evaluateInPage(page, FOCUSED_KINDS).catch(() => 'password') as string;
  return kinds === 'opaque' ? focusedFieldKindPerFrame(page) : strongest(kinds);
}

/** The most sensitive of space-separated kinds; undefined for none. */
function strongest(found: string): FieldInfo['kind'] | undefined {
  const kinds = String(found).split(' ').filter(Boolean);
  if (kinds.length === 0) return undefined;
  return kinds.includes('password') ? 'password' : kinds.includes('payment') ? 'payment' : 'plain';
}

/**
 * The kind of the element keys go to now, frame by frame. Focus inside an iframe or a shadow
 * root shows outside it as the frame or the host, so frames are asked in turn
 * until one has a focused element that is not a frame, and every :focus match
 * there is described (a host and its inner field both match); the most
 * sensitive kind wins. `:focus` is matched by Playwright's own engine, which
 * page scripts cannot redefine; the kind is read with the pristine DOM
 * functions (field-kind.ts). A check that fails counts as a password field.
 */
async function focusedFieldKindPerFrame(page: Page): Promise<FieldInfo['kind'] | undefined> {
  for (const frame of page.frames()) {
    const found = await frame.locator(':focus:not(iframe):not(frame)').evaluateAll(DESCRIBE_ALL).catch(() => 'password');
    const kind = strongest(found);
    if (kind) return kind;
  }
  return undefined;
}

// One round trip per frame: fieldInPage (a closure-free function) inlined as
// source; a Function, since Playwright sends a function by its text. It runs
// in the page's world, so it builds a string with an index loop: Array
// methods and index setters are the page's to redefine.
// eslint-disable-next-line @typescript-eslint/no-implied-eval
const DESCRIBE_ALL = new Function('els', `const field = ${fieldInPage.toString()}; let out = ''; for (let i = 0; i < els.length; i++) out += field(els[i]).kind + ' '; return out;`) as (els: Element[]) => string;

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
    await this.decide(await focusedFieldKind(this.call.page));
  }

  /**
   * As check(), on kinds an element look just read in the same round trip as
   * its focus (look-by-css.ts); 'opaque' or nothing read looks again.
   */
  async checkRead(kinds: string | undefined): Promise<void> {
    if (kinds === undefined || kinds === 'opaque') return this.check();
    await this.decide(strongest(kinds));
  }

  /**
   * The page's key guard stopped a key bound for a field of this kind
   * (key-guard.ts): the same question as a read before that key would ask.
   */
  async approveStopped(kind: string): Promise<void> {
    await this.decide(kind === 'payment' ? 'payment' : 'password');
  }

  /** The kinds the user approved in this action (the page's key guard lets those through). */
  approvedKinds(): string[] {
    return [...this.approved];
  }

  private async decide(kind: FieldInfo['kind'] | undefined): Promise<void> {
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
