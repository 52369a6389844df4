// Runs inside the page: the DOM serialized without what nobody can see
// (display:none, visibility:hidden, the hidden attribute) — once styles are
// stripped, hidden parts would read as if they were on screen. Scripts and
// styles are skipped here only to save bytes; sanitize.ts is what removes
// anything dangerous. Self-contained: Playwright sends its source to the page.
export function visibleHtmlInPage(): string {
  const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
  const SKIP = new Set(['script', 'style', 'noscript', 'template']);
  const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  const hidden = (el: Element) => {
    if (el.hasAttribute('hidden')) return true;
    if (el.closest('head')) return false;
    const style = getComputedStyle(el);
    return style.display === 'none' || style.visibility === 'hidden';
  };
  const walk = (node: Node): string => {
    if (node.nodeType === Node.TEXT_NODE) return escapeText(node.textContent ?? '');
    if (node.nodeType !== Node.ELEMENT_NODE) return '';
    const el = node as Element;
    const tag = el.tagName.toLowerCase();
    if (SKIP.has(tag) || hidden(el)) return '';
    const attrs = [...el.attributes].map((a) => ` ${a.name}="${escapeAttr(a.value)}"`).join('');
    // A form field's live value, not the one the HTML started with.
    const value = tag === 'textarea' ? escapeText((el as HTMLTextAreaElement).value) : '';
    if (VOID.has(tag)) return `<${tag}${attrs}>`;
    return `<${tag}${attrs}>${value || [...el.childNodes].map(walk).join('')}</${tag}>`;
  };
  return `<!doctype html>${walk(document.documentElement)}`;
}
