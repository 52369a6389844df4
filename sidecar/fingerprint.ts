// The fingerprint of the element an action acted on: what a replay
// needs to find the same element again when its selector no longer matches.
// Read in ONE page.evaluate on the element the action already resolved, so it
// adds one round trip to each element action and never waits for anything.
// Never a value: fields are described by their label, name and placeholder; a
// password or payment field's text is never read.
import type { Locator } from 'playwright';

export interface Fingerprint {
  /** CSS selector of the iframe (in the top document) the element is in; absent in the top document. */
  frame?: string;
  role: string;
  name: string;
  tag: string;
  id?: string;
  name_attr?: string;
  label?: string;
  placeholder?: string;
  text?: string;
  css: string;
  landmark?: string;
  /** A password or payment field: its value is never recorded or exported. */
  secret?: boolean;
  heading?: string;
}

export const TEXT_CHARS = 80;

/**
 * `{ fingerprint }` to spread into an action's result; `{}` when the element went away (the action still counts).
 * Never rejects. Actions that cannot navigate (fill, select, hover, upload) start it just before acting
 * and await it after, so its round trip overlaps theirs; click, keypress and type await it first, since
 * a navigation they cause can win the race and take the element away (measured: a keypress's Enter did).
 */
export async function fingerprintOf(locator: Locator): Promise<{ fingerprint?: Fingerprint }> {
  const read = await locator.evaluate(READ_WITH_FRAME, TEXT_CHARS, { timeout: 1000 }).catch(() => undefined);
  if (!read?.fp) return {};
  // Only an element in a child frame needs its frame's selector (three more round trips); the top document's never does.
  const frame = read.framed ? await frameSelectorOf(locator).catch(() => undefined) : undefined;
  return { fingerprint: frame ? { ...read.fp, frame } : read.fp };
}

// readFingerprint inlined as source (Playwright sends a function by its text), plus whether the element's
// window is a child frame's: `window` and `window.top` are unforgeable, so a page script cannot fake either.
// eslint-disable-next-line @typescript-eslint/no-implied-eval
const READ_WITH_FRAME = new Function('el', 'maxText', `return { fp: (${readFingerprint.toString()})(el, maxText), framed: window !== window.top };`) as (el: Element, maxText: number) => { fp: Fingerprint; framed: boolean };

/**
 * For an element inside an iframe of the top document: a CSS selector for that
 * iframe (by id, name, title, else its tag path), so a replay can address the
 * element as {selector, frame}. Deeper frames are not addressed (undefined).
 */
async function frameSelectorOf(locator: Locator): Promise<string | undefined> {
  const handle = await locator.elementHandle({ timeout: 1000 }).catch(() => null);
  if (!handle) return undefined;
  try {
    const owner = await handle.ownerFrame();
    const parent = owner?.parentFrame();
    if (!owner || !parent || parent !== locator.page().mainFrame()) return undefined;
    const iframe = await owner.frameElement();
    try {
      return await iframe.evaluate((node) => {
        const el = node as Element;
        const quoted = (v: string) => JSON.stringify(v);
        if (el.id && /^[A-Za-z][\w-]*$/.test(el.id)) return `#${el.id}`;
        for (const a of ['name', 'title']) {
          const v = el.getAttribute(a);
          if (v) return `iframe[${a}=${quoted(v)}]`;
        }
        const parts: string[] = [];
        for (let n: Element | null = el; n && n !== document.documentElement; n = n.parentElement) {
          const t = n.tagName.toLowerCase();
          const same = n.parentElement ? [...n.parentElement.children].filter((c) => c.tagName === n!.tagName) : [];
          parts.unshift(same.length > 1 ? `${t}:nth-of-type(${same.indexOf(n) + 1})` : t);
        }
        return parts.join(' > ');
      });
    } finally {
      await iframe.dispose();
    }
  } finally {
    await handle.dispose();
  }
}

/** Runs in the page: no closures, everything it needs is inside (so field-kind.ts inlines it in its one-evaluate look). */
export function readFingerprint(el: Element, maxText: number): Fingerprint {
  const squash = (s: string | null | undefined) => (s ?? '').replace(/\s+/g, ' ').trim();
  const cap = (s: string) => (s.length > maxText ? `${s.slice(0, maxText - 1)}…` : s);
  const tag = el.tagName.toLowerCase();
  const attr = (n: string) => el.getAttribute(n) ?? undefined;
  const type = (attr('type') ?? '').toLowerCase();
  const hints = `${attr('autocomplete') ?? ''} ${attr('name') ?? ''} ${el.id}`.toLowerCase();
  const secret = type === 'password' || /(^|\s)cc-|card|cvc|cvv|iban|expir/.test(hints);

  const byId = (ids: string) => ids.split(/\s+/).map((i) => squash(document.getElementById(i)?.textContent)).join(' ').trim();
  const labels = (el as HTMLInputElement).labels;
  const labelText = attr('aria-labelledby') ? byId(attr('aria-labelledby')!) : labels && labels.length ? squash(labels[0]!.textContent) : '';
  const field = tag === 'input' || tag === 'textarea' || tag === 'select';
  const ownText = field ? '' : squash((el as HTMLElement).innerText ?? el.textContent);

  const implicit: Record<string, string> = {
    button: 'button', a: el.hasAttribute('href') ? 'link' : 'generic', select: (el as HTMLSelectElement).multiple ? 'listbox' : 'combobox',
    textarea: 'textbox', h1: 'heading', h2: 'heading', h3: 'heading', h4: 'heading', h5: 'heading', h6: 'heading',
    nav: 'navigation', main: 'main', form: 'form', img: 'img', li: 'listitem', ul: 'list', ol: 'list', option: 'option',
  };
  const inputRoles: Record<string, string> = {
    checkbox: 'checkbox', radio: 'radio', button: 'button', submit: 'button', reset: 'button', image: 'button',
    search: 'searchbox', range: 'slider', number: 'spinbutton',
  };
  const role = attr('role') ?? (tag === 'input' ? inputRoles[type] ?? (attr('list') ? 'combobox' : 'textbox') : implicit[tag] ?? 'generic');
  const inputButton = tag === 'input' && ['button', 'submit', 'reset'].includes(type);
  const name = squash(attr('aria-label')) || labelText || (inputButton ? squash(attr('value')) : '')
    || (field ? '' : ownText) || squash(attr('title')) || squash(attr('alt')) || (field ? squash(attr('placeholder')) : '');

  // A path of tags (and #id where the id is there), so it survives class renames; nth-of-type only where needed.
  const cssPath = (node: Element): string => {
    const parts: string[] = [];
    for (let n: Element | null = node; n && n !== document.documentElement; n = n.parentElement) {
      if (n.id && /^[A-Za-z][\w-]*$/.test(n.id)) { parts.unshift(`#${n.id}`); break; }
      const t = n.tagName.toLowerCase();
      const same = n.parentElement ? [...n.parentElement.children].filter((c) => c.tagName === n!.tagName) : [];
      parts.unshift(same.length > 1 ? `${t}:nth-of-type(${same.indexOf(n) + 1})` : t);
    }
    return parts.join(' > ');
  };

  const landmarkOf = (): string | undefined => {
    const lm = el.closest('main,nav,header,footer,aside,form[aria-label],section[aria-label],[role=main],[role=navigation],[role=search],[role=dialog],dialog');
    if (!lm) return undefined;
    const label = squash(lm.getAttribute('aria-label'));
    return `${lm.getAttribute('role') ?? lm.tagName.toLowerCase()}${label ? ` "${cap(label)}"` : ''}`;
  };
  // The nearest heading before the element in document order (bounded walk: big pages stay cheap).
  const headingOf = (): string | undefined => {
    const walker = document.createTreeWalker(document.body ?? document.documentElement, NodeFilter.SHOW_ELEMENT);
    walker.currentNode = el;
    for (let i = 0, n = walker.previousNode(); n && i < 3000; i++, n = walker.previousNode()) {
      if (/^H[1-6]$/.test((n as Element).tagName)) return cap(squash(n.textContent));
    }
    return undefined;
  };

  const fp: Fingerprint = { role, name: secret ? cap(labelText || squash(attr('aria-label'))) : cap(name), tag, css: cssPath(el) };
  if (el.id) fp.id = el.id;
  if (attr('name')) fp.name_attr = attr('name');
  if (labelText) fp.label = cap(labelText);
  if (attr('placeholder')) fp.placeholder = cap(squash(attr('placeholder')));
  if (ownText && !secret) fp.text = cap(ownText);
  if (secret) fp.secret = true;
  const landmark = landmarkOf();
  if (landmark) fp.landmark = landmark;
  const heading = headingOf();
  if (heading) fp.heading = heading;
  return fp;
}
