// Runs inside each frame: the visible interactable elements (the interactable rules)
// that Playwright's aria snapshot gives no actionable line: those that act
// only through a handler (onclick or tabindex on a plain element, with no
// pointer cursor and no widget role — the tree cannot see a handler), and
// those role=presentation/none takes out of the tree (not focusable, so the
// role holds). The "ai" snapshot keeps aria-hidden content, with refs but
// without names: for those elements the pass reads the name the element would
// have were it not hidden (its label, words, image text or title), keyed by
// what the tree shows of it (a link's href, another element's words), so the
// compact view can name them (compact.ts).
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
/** A visible element one can act on inside aria-hidden content: `key` is `url:<href>` for a link, else `text:<its words>`. */
export interface HiddenName { key: string; name: string }
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
  const nameOf = (el: Element): string => {
    const by = (el.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean).map((id) => words(el.ownerDocument.getElementById(id))).join(' ');
    const label = (el as HTMLInputElement).labels?.[0];
    const img = el.querySelector('img[alt], [role=img][aria-label]');
    return (by || el.getAttribute('aria-label') || words(label) || words(el) || img?.getAttribute('alt') || img?.getAttribute('aria-label')
      || el.getAttribute('title') || el.getAttribute('placeholder') || '').replace(/\s+/g, ' ').trim().slice(0, 200);
  };
  const elements: OffTreeElement[] = [];
  const hidden: HiddenName[] = [];
  const ids = { attr, next, seen: new Set<string>() };
  for (const el of document.querySelectorAll('a, button, input, select, textarea, [onclick], [tabindex], [role=button], [role=link]')) {
    const tag = el.tagName.toLowerCase();
    const native = nativeControl(el, tag);
    const role = (el.getAttribute('role') ?? '').trim().toLowerCase();
    if (!native && !byHandler(el) && role !== 'button' && role !== 'link') continue; // not interactable by the interactable rules
    // role=presentation/none holds (the tree drops the element) unless the element can take focus.
    const presentational = (role === 'presentation' || role === 'none') && !native && !el.hasAttribute('tabindex');
    const widget = !presentational && (native || ROLES.includes(role) || getComputedStyle(el).cursor === 'pointer');
    if (widget) {
      // Fields are left out: what the tree shows of them is their value, which the pass does not carry.
      if (!['input', 'select', 'textarea'].includes(tag) && el.closest('[aria-hidden=true i]') && visible(el)) hidden.push({ key: tag === 'a' ? `url:${el.getAttribute('href')}` : `text:${words(el)}`, name: nameOf(el) });
      continue;
    }
    if (!visible(el)) continue;
    const id = claim(el, ids);
    const label = el.getAttribute('aria-label') ?? el.getAttribute('title') ?? (el as HTMLElement).innerText ?? el.textContent ?? '';
    elements.push({ id, tag, text: label.replace(/\s+/g, ' ').trim().slice(0, 60) });
  }
  return { next: ids.next, elements, hidden, ...facts };
}
