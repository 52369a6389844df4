// The report's HTML is printed, never concatenated: every string that comes
// from data (the chain: page text, URLs, selectors, error messages) goes in
// as a text child or an attribute value, and is escaped on the way out. Tag
// and attribute names are the report's own literals; a name that is not a
// plain identifier, an event-handler attribute or a script element is
// refused, so no caller can open a hole by accident. There is no "raw"
// escape hatch.
const NAME = /^[a-z][a-z0-9-]*$/;
const FORBIDDEN_TAGS = new Set(['script', 'iframe', 'object', 'embed', 'link', 'base', 'form']);

/** Printed markup (only this module makes it). */
class Markup {
  private constructor(readonly html: string) {}
  /** @internal */ static of(html: string): Markup { return new Markup(html); }
}

export type Child = Markup | string | number | null | undefined | false | readonly Child[];
type Attrs = Record<string, string | number | boolean | null | undefined>;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function printChild(child: Child): string {
  if (child === null || child === undefined || child === false) return '';
  if (child instanceof Markup) return child.html;
  if (Array.isArray(child)) return child.map(printChild).join('');
  return escapeHtml(String(child));
}

function printAttrs(attrs: Attrs): string {
  let out = '';
  for (const [name, value] of Object.entries(attrs)) {
    if (!NAME.test(name) || name.startsWith('on')) throw new Error(`html printer: attribute name "${name}" is not allowed`);
    if (value === null || value === undefined || value === false) continue;
    out += value === true ? ` ${name}` : ` ${name}="${escapeHtml(String(value))}"`;
  }
  return out;
}

const VOID = new Set(['meta', 'img', 'br', 'hr']);

/** One element: `tag` and attribute names are literals of the report, children and values are data. */
export function el(tag: string, attrs: Attrs = {}, ...children: Child[]): Markup {
  if (!NAME.test(tag) || FORBIDDEN_TAGS.has(tag)) throw new Error(`html printer: element "${tag}" is not allowed`);
  if (VOID.has(tag)) return Markup.of(`<${tag}${printAttrs(attrs)}>`);
  return Markup.of(`<${tag}${printAttrs(attrs)}>${children.map(printChild).join('')}</${tag}>`);
}

/** Several children side by side. */
export function fragment(...children: Child[]): Markup {
  return Markup.of(children.map(printChild).join(''));
}

/** A whole document: the doctype, then the printed <html> element. */
export function htmlDocument(root: Markup): string {
  return `<!doctype html>\n${root.html}\n`;
}
