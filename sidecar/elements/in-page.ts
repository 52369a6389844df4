// Runs inside each frame (frame.evaluate): finds the interactable, visible
// elements by the interactable rules, gives each a data-web-agent-id (keeping the id
// it already has, so ids stay stable across calls) and describes it.
// Self-contained: its source is sent to the page (wa-ids.ts: evaluateWithIds),
// with the id rule it numbers elements by.
import type { ClaimId } from './wa-ids.js';

export interface RawElement {
  web_agent_id: string;
  index: number;
  tag: string;
  text: string;
  attributes: Record<string, string | string[]>;
  /** Absolute URL of a link. */
  url?: string;
}

interface InPageArgs {
  attr: string;
  /** Source of the regex that marks a payment field by its hints (field-kind.ts). */
  payment: string;
  /** The session's next unused id number. */
  next: number;
}

export function collectInPage({ attr, next, payment }: InPageArgs, claim: ClaimId): { next: number; elements: RawElement[] } {
  const CANDIDATES = 'a, button, input, textarea, select, [onclick], [role=button], [role=link], [tabindex]';
  const HIDING_CLASSES = ['hidden', 'invisible', 'sr-only', 'visually-hidden'];
  const REPORTED = ['href', 'type', 'name', 'id', 'role', 'placeholder', 'aria-label', 'title', 'rel', 'target', 'disabled'];

  const isInteractable = (el: Element): boolean => {
    const tag = el.tagName.toLowerCase();
    if (tag === 'a' && el.hasAttribute('href')) {
      const href = (el.getAttribute('href') ?? '').trim().toLowerCase();
      if (href && href !== '#' && !href.startsWith('javascript:') && !href.startsWith('mailto:')) return true;
    }
    if (tag === 'button' || tag === 'textarea' || tag === 'select') return true;
    if (tag === 'input') return (el.getAttribute('type') ?? '').toLowerCase() !== 'hidden';
    if (el.hasAttribute('onclick')) return true;
    const role = el.getAttribute('role');
    if (role === 'button' || role === 'link') return true;
    const tabindex = el.getAttribute('tabindex');
    return tabindex !== null && tabindex.trim() !== '' && Number(tabindex) >= 0;
  };

  const isVisible = (el: Element): boolean => {
    if (el.hasAttribute('hidden')) return false;
    if (HIDING_CLASSES.some((c) => el.classList.contains(c))) return false;
    // Also catches what computed style alone misses: a hidden ancestor, the
    // content of a closed <details> (content-visibility), opacity aside.
    if (typeof el.checkVisibility === 'function' && !el.checkVisibility({ visibilityProperty: true })) return false;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden' || style.visibility === 'collapse') return false;
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };

  const textOf = (el: Element): string => {
    const tag = el.tagName.toLowerCase();
    const type = (el.getAttribute('type') ?? '').toLowerCase();
    let text = '';
    if (tag === 'input') text = ['submit', 'button', 'reset'].includes(type) ? (el as HTMLInputElement).value : '';
    else if (tag === 'select') text = (el as HTMLSelectElement).selectedOptions[0]?.text ?? '';
    else if (tag !== 'textarea') text = (el as HTMLElement).innerText ?? el.textContent ?? '';
    text = text.replace(/\s+/g, ' ').trim();
    return text.length > 200 ? `${text.slice(0, 199)}…` : text;
  };

  const describe = (el: Element, id: string): RawElement => {
    const attributes: Record<string, string | string[]> = {};
    for (const name of REPORTED) {
      const value = el.getAttribute(name);
      if (value !== null) attributes[name] = value;
    }
    if (el.classList.length) attributes.class = [...el.classList];
    const tag = el.tagName.toLowerCase();
    const type = (el.getAttribute('type') ?? '').toLowerCase();
    // A field's current value helps an agent; a password's or a card's never leaves the page.
    const hints = [el.getAttribute('autocomplete'), el.getAttribute('name'), el.id].filter(Boolean).join(' ');
    if ((tag === 'input' || tag === 'textarea') && type !== 'password' && !new RegExp(payment, 'i').test(hints)) {
      const value = (el as HTMLInputElement).value;
      if (value && !['submit', 'button', 'reset'].includes(type)) attributes.value = value.slice(0, 200);
    }
    if (tag === 'input' && (type === 'checkbox' || type === 'radio')) attributes.checked = String((el as HTMLInputElement).checked);
    const info: RawElement = { web_agent_id: id, index: Number(id.slice(3)), tag, text: textOf(el), attributes };
    if (tag === 'a' && el.hasAttribute('href')) info.url = (el as HTMLAnchorElement).href;
    return info;
  };

  // An id we did not issue (a page copying the attribute), or the second
  // element carrying one id, gets a fresh id: one id names one element.
  const ids = { attr, next, seen: new Set<string>() };
  const elements: RawElement[] = [];
  for (const el of document.querySelectorAll(CANDIDATES)) {
    if (!isInteractable(el) || !isVisible(el)) continue;
    elements.push(describe(el, claim(el, ids)));
  }
  return { next: ids.next, elements };
}
