// Readability, run as Mozilla ships it: only public options are set, and the
// document it gets may be any DOM (linkedom in production, jsdom as the
// reference in tests and the bench), so differences can come only from the DOM.
import { Readability } from '@mozilla/readability';

interface Article {
  title: string | null;
  byline: string | null;
  publishedTime: string | null;
  lang: string | null;
  siteName: string | null;
  excerpt: string | null;
  dir: string | null;
  /** The article's root element, in the document Readability ran on. */
  content: Element;
}

// Readability strips class attributes; these carry a code block's language, which the Markdown keeps.
const CODE_CLASS = /^(language|lang)-|^highlight-/;

/** Runs Readability on `doc` (which it rewrites). null when the page has no article-like content. */
export function readArticle(doc: Document): Article | null {
  const preserve = new Set<string>();
  for (const el of doc.querySelectorAll('pre[class], code[class], div[class^="highlight"]')) {
    for (const name of (el.getAttribute('class') ?? '').split(/\s+/)) if (CODE_CLASS.test(name)) preserve.add(name);
  }
  const reader = new Readability<Element>(doc, { classesToPreserve: [...preserve], serializer: (node) => node as Element });
  const parsed = reader.parse();
  if (!parsed?.content) return null;
  return {
    title: parsed.title ?? null,
    byline: parsed.byline ?? null,
    publishedTime: parsed.publishedTime ?? null,
    lang: parsed.lang ?? null,
    siteName: parsed.siteName ?? null,
    excerpt: parsed.excerpt ?? null,
    dir: parsed.dir ?? null,
    content: parsed.content,
  };
}

/** "By Jane Roe" → "Jane Roe": bylines often carry the word the page prints before the name. */
export function cleanByline(byline: string | null | undefined): string | null {
  const name = byline?.replace(/\s+/g, ' ').trim().replace(/^(by|from|par|von|por|di|door|av)\s+/i, '').replace(/^[,|·–—-]\s*/, '').trim();
  return name || null;
}
