// web.extract: all items in ONE browser round trip (evaluateAll), with the
// contract's schema rules: a field selector ending in a bare attribute test
// (a[href]) yields that attribute, links made absolute; otherwise trimmed
// text; missing → null.
import { pageTool } from '../tool.js';

type Schema = Record<string, string>;

export const extract = pageTool('web.extract', async ({ page, selector }, params) => {
  const itemSelector = selector(params.selector);
  const schema = Object.fromEntries(
    Object.entries(params.schema ?? {}).map(([k, v]) => [k, selector(v)]),
  );
  const limit = params.limit ?? 100_000;
  const items = await page.locator(itemSelector).evaluateAll((elements, { schema, limit }) => {
    const URL_ATTRS = new Set(['href', 'src', 'action', 'poster', 'data-href', 'data-src']);
    const readField = (item: Element, sel: string): string | null => {
      const attr = /\[\s*([\w:-]+)\s*\]\s*$/.exec(sel)?.[1];
      // The item itself may be the element the field names (a result that is an <a>).
      const el = item.querySelector(sel) ?? (item.matches(sel) ? item : null);
      if (!el) return null;
      if (!attr) return (el.textContent ?? '').replace(/\s+/g, ' ').trim();
      const raw = el.getAttribute(attr);
      if (raw === null) return null;
      if (!URL_ATTRS.has(attr)) return raw;
      try { return new URL(raw, document.baseURI).href; } catch { return raw; }
    };
    const fields = Object.entries(schema);
    return elements.slice(0, limit).map((item) => fields.length === 0
      ? { text: (item.textContent ?? '').replace(/\s+/g, ' ').trim() }
      : Object.fromEntries(fields.map(([key, sel]) => [key, readField(item, sel)])));
  }, { schema, limit });
  return { items, count: items.length };
});
