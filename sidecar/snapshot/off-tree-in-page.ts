// Runs inside each frame: the visible interactable elements (the interactable rules)
// that Playwright's aria snapshot gives no actionable line: those that act
// only through a handler (onclick or tabindex on a plain element, with no
// pointer cursor and no widget role — the tree cannot see a handler), and
// those role=presentation/none takes out of the tree (not focusable, so the
// role holds). The "ai" snapshot keeps aria-hidden content, with refs but
// without names: for those elements the pass reads the name the element would
// have were it not hidden (its label, words, image text or title), and which
// line of the tree is its (by what the tree shows of it: a link's href, a
// field's placeholder, other elements' words), so the compact view can mark
// and name them (compact.ts) — also where the tree's own mark is lost.
// They get a data-web-agent-id (wa-N), numbered on from the session's counter
// as web.page_content numbers them, so the compact view can list them.
// The same pass reads what else a snapshot needs from the frame — the values
// of password and payment fields (to blank them), the document's identity and
// its title — so a snapshot costs one page round trip beside the tree's.
// Self-contained: its source is sent to the page (elements/wa-ids.ts:
// evaluateWithIds), with the id rule it numbers elements by.
import type { ClaimId } from '../elements/wa-ids.js';
interface OffTreeArgs { attr: string; next: number; /** false: only the facts, no ids handed out. */ offTree?: boolean; /** Payment-field hints, a RegExp source. */ payment?: string }
export interface OffTreeElement { id: string; tag: string; text: string }
/**
 * A visible element one can act on inside aria-hidden content: `key` is what the tree shows of it (`url:<href>`,
 * `field:<placeholder>`, `text:<its words>`), `nth` which of the visible elements with that key it is.
 */
export interface HiddenName { key: string; nth: number; name: string }
interface FramePass { next: number; elements: OffTreeElement[]; hidden: HiddenName[]; secrets: string[]; origin: number; title: string }

export function offTreeInPage({ attr, next, offTree = true, payment = '$^' }: OffTreeArgs, claim: ClaimId): FramePass {
  const paymentHints = new RegExp(payment, 'i');
  const secrets = [...document.querySelectorAll('input, textarea')].filter((el) => {
    const hints = [el.getAttribute('autocomplete'), el.getAttribute('name'), el.id].filter(Boolean).join(' ');
    return (el.getAttribute('type') ?? '').toLowerCase() === 'password' || paymentHints.test(hints);
  }).map((el) => (el as HTMLInputElement).value).filter(Boolean);
  const facts = { secrets, origin: performance.timeOrigin, title: document.title };
  if (!offTree) return { next, elements: [], hidden: [], ...facts };
  const ROLES = ['button', 'link', 'checkbox', 'radio', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'switch', 'treeitem', 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton'];
  const nativeControl = (el: Element, tag: string): boolean => {
    if (tag === 'a') {
      const href = (el.getAttribute('href') ?? '').trim().toLowerCase();
      return href !== '' && href !== '#' && !href.startsWith('javascript:') && !href.startsWith('mailto:');
    }
    if (tag === 'input') return (el.getAttribute('type') ?? '').toLowerCase() !== 'hidden';
    return tag === 'button' || tag === 'select' || tag === 'textarea';
  };
  const byHandler = (el: Element): boolean => {
    if (el.hasAttribute('onclick')) return true;
    const t = el.getAttribute('tabindex');
    return t !== null && t.trim() !== '' && Number(t) >= 0;
  };
  const visible = (el: Element): boolean => {
    if (typeof el.checkVisibility === 'function' && !el.checkVisibility({ visibilityProperty: true })) return false;
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  };
  const words = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
  // The accessible name it would have outside aria-hidden content: labelledby, label, words, image text, title.
  // A field's value is never read: what it holds is the user's.
  const nameOf = (el: Element, field: boolean): string => {
    const by = (el.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean).map((id) => words(el.ownerDocument.getElementById(id))).join(' ');
    const label = (el as HTMLInputElement).labels?.[0];
    const img = el.querySelector('img[alt], [role=img][aria-label]');
    return (by || el.getAttribute('aria-label') || words(label) || (field ? '' : words(el)) || img?.getAttribute('alt') || img?.getAttribute('aria-label')
      || el.getAttribute('title') || el.getAttribute('placeholder') || '').replace(/\s+/g, ' ').trim().slice(0, 200);
  };
  // What the tree shows of an element, to find its line there: a link's href, a field's placeholder, else its words.
  const keyOf = (el: Element, tag: string): string => {
    if (tag === 'a' && el.hasAttribute('href')) return `url:${el.getAttribute('href')}`;
    const type = (el.getAttribute('type') ?? '').toLowerCase();
    if (tag === 'input' && ['submit', 'button', 'reset'].includes(type)) return `text:${(el as HTMLInputElement).value.replace(/\s+/g, ' ').trim()}`;
    if (tag === 'input' || tag === 'select' || tag === 'textarea') return `field:${el.getAttribute('placeholder') ?? ''}`;
    return `text:${words(el)}`;
  };
  const elements: OffTreeElement[] = [];
  const widgets: Array<{ el: Element; tag: string; hidden: boolean }> = [];
  const ids = { attr, next, seen: new Set<string>() };
  for (const el of document.querySelectorAll('a, button, input, select, textarea, [onclick], [tabindex], [role=button], [role=link]')) {
    const tag = el.tagName.toLowerCase();
    const native = nativeControl(el, tag) || (tag === 'a' && el.hasAttribute('href'));
    const role = (el.getAttribute('role') ?? '').trim().toLowerCase();
    if (!native && !byHandler(el) && role !== 'button' && role !== 'link') continue; // not interactable by the interactable rules
    // role=presentation/none holds (the tree drops the element) unless the element can take focus.
    const presentational = (role === 'presentation' || role === 'none') && !native && !el.hasAttribute('tabindex');
    const widget = !presentational && (native || ROLES.includes(role) || getComputedStyle(el).cursor === 'pointer');
    if (widget) { widgets.push({ el, tag, hidden: !!el.closest('[aria-hidden=true i]') }); continue; }
    if (!visible(el)) continue;
    const id = claim(el, ids);
    const label = el.getAttribute('aria-label') ?? el.getAttribute('title') ?? (el as HTMLElement).innerText ?? el.textContent ?? '';
    elements.push({ id, tag, text: label.replace(/\s+/g, ' ').trim().slice(0, 60) });
  }
  // A hidden element's line in the tree is the nth visible one with its key (in document order, as the tree's).
  const hidden: HiddenName[] = [];
  if (widgets.some((w) => w.hidden)) {
    const keys = new Set(widgets.filter((w) => w.hidden).map((w) => keyOf(w.el, w.tag)));
    const count = new Map<string, number>();
    for (const w of widgets) {
      const key = keyOf(w.el, w.tag);
      if (!keys.has(key) || !visible(w.el)) continue;
      const nth = count.get(key) ?? 0;
      count.set(key, nth + 1);
      if (w.hidden) hidden.push({ key, nth, name: nameOf(w.el, w.tag !== 'a' && w.tag !== 'button' && key.startsWith('field:')) });
    }
  }
  return { next: ids.next, elements, hidden, ...facts };
}
