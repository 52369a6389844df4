// The page's HTML with what an agent must not read as content taken out:
// scripts, styles, comments, event attributes, javascript: URLs, hidden inputs
// (CSRF tokens and the like) and vector-path noise. Parsed with linkedom from
// the serialized DOM, so page scripts cannot interfere with the cleaning.
import { linkedom } from '../lazy-packages.js';
import { PAYMENT } from '../tools/field-kind.js';

const DROPPED_ELEMENTS = 'script, style, noscript, template, link, meta, base, object, embed, input[type=hidden], [hidden]';
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'poster']);
const COMMENT_NODE = 8;
const TEXT_NODE = 3;

export function sanitizeHtml(source: string): string {
  const { document } = linkedom().parseHTML(source);
  for (const el of [...document.querySelectorAll(DROPPED_ELEMENTS)]) el.remove();
  for (const svg of [...document.querySelectorAll('svg')]) svg.replaceChildren();
  // A value written into a password or payment field's markup is a secret too.
  for (const field of [...document.querySelectorAll('input, textarea')]) {
    const hints = [field.getAttribute('autocomplete'), field.getAttribute('name'), field.id].filter(Boolean).join(' ');
    if ((field.getAttribute('type') ?? '').toLowerCase() === 'password' || PAYMENT.test(hints)) field.removeAttribute('value');
  }
  for (const el of [...document.querySelectorAll('*')]) {
    for (const { name, value } of [...el.attributes]) {
      const lower = name.toLowerCase();
      if (lower.startsWith('on') || lower === 'style' || lower === 'srcdoc' || lower === 'nonce' ||
        (URL_ATTRIBUTES.has(lower) && /^\s*(javascript|vbscript|data):/i.test(value))) {
        el.removeAttribute(name);
      }
    }
  }
  cleanText(document.documentElement);
  return `<!doctype html>\n${document.documentElement.outerHTML}`;
}

/** Drops comments and squeezes whitespace runs (not inside pre/textarea, where it is content). */
function cleanText(node: Node): void {
  for (const child of [...node.childNodes]) {
    if (child.nodeType === COMMENT_NODE) child.remove();
    else if (child.nodeType === TEXT_NODE) {
      const text = child.textContent ?? '';
      if (!/^(pre|textarea)$/i.test(node.nodeName)) child.textContent = text.replace(/\s+/g, ' ');
    } else cleanText(child);
  }
}
