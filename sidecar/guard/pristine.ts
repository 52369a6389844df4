// The DOM functions webcap's sensitivity checks use (is this a password
// field, does this click submit a POST form?), captured before any page
// script runs. Checks run in the page's own JavaScript world, where a page
// could redefine Element.prototype.getAttribute to make its password field
// read as "text" and skip the user's consent. The captured copies sit on a
// frozen, non-configurable window property that page scripts can neither
// replace nor shadow (a global `let` of that name is a SyntaxError).
import type { BrowserContext } from 'playwright';

export interface Pristine {
  attr(el: Element, name: string): string | null;
  tag(el: Element): string;
  lower(s: string): string;
  closest(el: Element, selector: string): Element | null;
  query(el: Element, selector: string): Element | null;
  byId(id: string): Element | null;
  docQuery(selector: string): Element | null;
  hasShadowRoots(): boolean;
  /** The current value of an input or textarea (undefined for anything else). */
  value(el: Element): string | undefined;
  /** autocomplete/name/id hints of a payment field (field-kind.ts PAYMENT, without RegExp: its exec is page-writable). */
  paymentHint(hint: string): boolean;
}

/** Runs in every frame of the context before its scripts (source sent as text: no closures). */
function capture(): void {
  const apply = Reflect.apply;
  const freeze = Object.freeze;
  const getter = (proto: object, name: string) => Object.getOwnPropertyDescriptor(proto, name)!.get!;
  const E = Element.prototype;
  const D = Document.prototype;
  const f = {
    getAttribute: E.getAttribute, closest: E.closest, querySelector: E.querySelector,
    docQuerySelector: D.querySelector, getElementById: D.getElementById, createTreeWalker: D.createTreeWalker,
    nextNode: TreeWalker.prototype.nextNode, tagName: getter(E, 'tagName'), shadowRoot: getter(E, 'shadowRoot'),
    inputValue: getter(HTMLInputElement.prototype, 'value'), textareaValue: getter(HTMLTextAreaElement.prototype, 'value'),
    toLowerCase: String.prototype.toLowerCase, includes: String.prototype.includes, startsWith: String.prototype.startsWith,
  };
  const doc = document;
  const pristine: Pristine = freeze({
    attr: (el: Element, name: string) => apply(f.getAttribute, el, [name]) as string | null,
    lower: (s: string) => apply(f.toLowerCase, s, []) as string,
    tag: (el: Element) => apply(f.toLowerCase, apply(f.tagName, el, []), []) as string,
    closest: (el: Element, sel: string) => apply(f.closest, el, [sel]) as Element | null,
    query: (el: Element, sel: string) => apply(f.querySelector, el, [sel]) as Element | null,
    byId: (id: string) => apply(f.getElementById, doc, [id]) as Element | null,
    docQuery: (sel: string) => apply(f.docQuerySelector, doc, [sel]) as Element | null,
    hasShadowRoots: () => {
      const walk = apply(f.createTreeWalker, doc, [doc, 1]) as TreeWalker;
      for (let n = apply(f.nextNode, walk, []) as Element | null; n; n = apply(f.nextNode, walk, []) as Element | null) {
        if (apply(f.shadowRoot, n, [])) return true;
      }
      return false;
    },
    value: (el: Element) => {
      const tag = apply(f.toLowerCase, apply(f.tagName, el, []), []) as string;
      if (tag === 'input') return apply(f.inputValue, el, []) as string;
      if (tag === 'textarea') return apply(f.textareaValue, el, []) as string;
      return undefined;
    },
    paymentHint: (hint: string) => {
      const h = apply(f.toLowerCase, hint, []) as string;
      if (apply(f.startsWith, h, ['cc-'])) return true;
      const words = ['card', 'cvc', 'cvv', 'iban', 'expir'];     // an index loop: array iterators are page-writable
      for (let i = 0; i < words.length; i++) if (apply(f.includes, h, [words[i]])) return true;
      return false;
    },
  });
  Object.defineProperty(window, '__webcapPristine', { value: pristine, writable: false, enumerable: false, configurable: false });
}

export async function installPristine(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: `(${capture.toString()})();` });
}
