// The in-page half of the generic heuristics: runs inside one frame
// (page.evaluate), looks through the document AND every open shadow root in
// one round trip, and marks the buttons it chose with
// data-webcap-consent="accept|reject" so the Node side can click them with a
// plain (shadow-piercing) locator. It must be self-contained: Playwright
// serialises it into the page. bannerText reads a banner the library found.

export interface ScanArgs { accept: string[]; reject: string[]; words: string }

interface ScanHit {
  cmp: 'generic';
  /** The label of the button; null when absent. */
  accept: string | null;
  reject: string | null;
  text: string;
}

export const MARK = 'data-webcap-consent';

export function scanFrame({ accept, reject, words }: ScanArgs): ScanHit | null {
  const MARK = 'data-webcap-consent';
  const roots: (Document | ShadowRoot)[] = [document];
  for (let i = 0; i < roots.length; i++) {
    for (const el of Array.from(roots[i].querySelectorAll('*'))) if (el.shadowRoot) roots.push(el.shadowRoot);
  }
  const all = (sel: string) => roots.flatMap((r) => Array.from(r.querySelectorAll(sel)));
  const visible = (el: Element) => el.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions) && el.getClientRects().length > 0;
  const clean = (s: string) => s.replace(/\s+/g, ' ').trim();
  const label = (el: Element) => clean((el as HTMLElement).innerText || (el as HTMLInputElement).value || el.getAttribute('aria-label') || el.textContent || '');
  const norm = (s: string) => s.toLowerCase().replace(/[’`]/g, "'").replace(/[^\p{L}\p{N}' ]+/gu, ' ').replace(/\s+/g, ' ').trim();
  // innerText stops at shadow roots: a CMP that renders inside one (Usercentrics) would read as empty.
  const deep = (el: Element): string => [el, ...Array.from(el.querySelectorAll('*'))].filter((e) => e.shadowRoot)
    .reduce((t, host) => `${t} ${Array.from(host.shadowRoot!.children).map(deep).join(' ')}`, (el as HTMLElement).innerText || el.textContent || '');
  const text = (el: Element) => clean(deep(el)).slice(0, 4000);
  for (const old of all(`[${MARK}]`)) old.removeAttribute(MARK);
  const mark = (el: Element | undefined, kind: string) => { el?.setAttribute(MARK, kind); return !!el; };
  const rank = (list: string[], el: Element) => list.indexOf(norm(label(el)));
  const best = (els: Element[], list: string[]) => els
    .filter((el) => rank(list, el) >= 0)
    .sort((a, b) => rank(list, a) - rank(list, b))[0];

  // Generic banner: a labelled button whose nearby container talks about cookies.
  const wordsRe = new RegExp(words, 'i');
  const inFrame = window !== window.top;
  const container = (el: Element): Element | null => {
    let node: Element | null = el;
    for (let depth = 0; node && depth < 12; depth++) {
      const top = node === document.body || node === document.documentElement;
      if (top && !inFrame) return null; // the whole page mentioning cookies is no banner
      const body = clean(deep(node));
      if (body.length > 3000) return null; // past the banner, into the page
      if (node !== el && (wordsRe.test(`${node.id} ${node.getAttribute('class') ?? ''}`) || wordsRe.test(body))) return node;
      if (top) return null;
      node = node.parentElement ?? ((node.getRootNode() as ShadowRoot).host ?? null);
    }
    return null;
  };
  const clickable = all('button, [role="button"], a, input[type="button"], input[type="submit"]').filter(visible);
  const candidates = clickable.filter((el) => (rank(accept, el) >= 0 || rank(reject, el) >= 0) && container(el));
  const yes = best(candidates, accept);
  const no = best(candidates, reject);
  if (!yes && !no) return null;
  mark(yes, 'accept');
  mark(no, 'reject');
  return { cmp: 'generic', accept: yes ? label(yes) : null, reject: no ? label(no) : null, text: text(container((yes ?? no)!)!) };
}

/** The text of the cookie banner around the page's visible buttons: the nearest container that talks about cookies. */
export function bannerText(words: string): string {
  const wordsRe = new RegExp(words, 'i');
  const clean = (t: string) => t.replace(/\s+/g, ' ').trim();
  const visible = (el: Element) => el.checkVisibility({ visibilityProperty: true } as CheckVisibilityOptions) && el.getClientRects().length > 0;
  const roots: (Document | ShadowRoot)[] = [document];
  for (let i = 0; i < roots.length; i++) {
    for (const el of Array.from(roots[i].querySelectorAll('*'))) if (el.shadowRoot) roots.push(el.shadowRoot);
  }
  const clickable = roots.flatMap((r) => Array.from(r.querySelectorAll('button, [role="button"], a, input[type="button"], input[type="submit"]')));
  const up = (n: Element): Element | null => n.parentElement ?? ((n.getRootNode() as ShadowRoot).host ?? null);
  for (const el of clickable.filter(visible)) {
    let node: Element | null = up(el);
    for (let depth = 0; node && node !== document.body && depth < 12; depth++, node = up(node)) {
      const text = clean((node as HTMLElement).innerText || '');
      if (text.length > 3000) break;
      if (wordsRe.test(text)) return text.slice(0, 4000);
    }
  }
  return clean(document.body?.innerText ?? '').slice(0, window === window.top ? 0 : 4000);
}
