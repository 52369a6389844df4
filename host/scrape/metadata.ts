// What the page says about itself beyond Readability's fields: description,
// canonical URL, image, keywords, dates (meta, JSON-LD, microdata, <time>) and
// the language declarations. Read before Readability runs, because Readability
// removes scripts (JSON-LD) and rewrites the document.
import type { DeclaredLanguage } from './language.js';

interface PageMeta {
  title?: string;
  description?: string;
  site_name?: string;
  canonical_url?: string;
  image?: string;
  type?: string;
  keywords?: string[];
  published_time?: string;
  modified_time?: string;
  /** An author named in the markup (microdata, rel=author, hCard): Readability looks at meta and JSON-LD only. */
  author?: string;
  /** The article's text as the page's JSON-LD states it (schema.org articleBody), for blocks.ts. */
  article_body?: string;
  /** The headline of the JSON-LD object that states articleBody, to check the two belong to this page. */
  article_headline?: string;
  /** The page's <h1> texts, for title.ts. */
  headings: string[];
  declared_language: DeclaredLanguage;
}

const AUTHOR_MARKUP = [
  '[itemprop="author"] [itemprop="name"]', '[itemprop="author"]', 'a[rel="author"]', '.author.vcard .fn', '.vcard .fn',
  '.p-author', '.byline .author', '.author-name',
];

function markupAuthor(doc: Document): string | undefined {
  for (const selector of AUTHOR_MARKUP) {
    const text = doc.querySelector(selector)?.textContent?.replace(/\s+/g, ' ').trim();
    if (text && text.length < 100) return text;
  }
  return undefined;
}

type JsonObject = Record<string, unknown>;

function meta(doc: Document, ...names: string[]): string | undefined {
  for (const name of names) {
    const el = doc.querySelector(`meta[property="${name}"], meta[name="${name}"], meta[itemprop="${name}"]`);
    const value = el?.getAttribute('content')?.trim();
    if (value) return value;
  }
  return undefined;
}

/** Every JSON-LD object on the page, @graph members included; broken JSON is skipped. */
function jsonLd(doc: Document): JsonObject[] {
  const found: JsonObject[] = [];
  const visit = (v: unknown) => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') {
      found.push(v as JsonObject);
      if ('@graph' in v) visit((v as JsonObject)['@graph']);
    }
  };
  for (const script of doc.querySelectorAll('script[type="application/ld+json"]')) {
    try {
      visit(JSON.parse(script.textContent ?? ''));
    } catch {
      // Sites ship invalid JSON-LD often enough; the other sources still count.
    }
  }
  return found;
}

function fromJsonLd(objects: JsonObject[], field: string): string | undefined {
  const hit = objects.find((o) => typeof o[field] === 'string' && o[field]);
  return hit?.[field] as string | undefined;
}

function headlineOfBody(objects: JsonObject[]): string | undefined {
  const hit = objects.find((o) => typeof o.articleBody === 'string' && o.articleBody);
  const headline = hit?.headline ?? hit?.name;
  return typeof headline === 'string' ? headline : undefined;
}

/** A date stated in the markup: microdata, else the first <time datetime> in the article or main. */
function markupDate(doc: Document, prop: string): string | undefined {
  const el = doc.querySelector(`[itemprop="${prop}"]`);
  const value = el?.getAttribute('content') ?? el?.getAttribute('datetime');
  if (value) return value;
  if (prop !== 'datePublished') return undefined;
  return doc.querySelector('article time[datetime], main time[datetime], [role="main"] time[datetime]')?.getAttribute('datetime') ?? undefined;
}

export function readMeta(doc: Document, contentLanguage?: string): PageMeta {
  const ld = jsonLd(doc);
  const keywords = meta(doc, 'keywords', 'news_keywords')?.split(',').map((k) => k.trim()).filter(Boolean);
  return {
    title: meta(doc, 'og:title', 'twitter:title') ?? (doc.querySelector('title')?.textContent?.trim() || undefined),
    description: meta(doc, 'description', 'og:description', 'twitter:description'),
    site_name: meta(doc, 'og:site_name', 'application-name'),
    canonical_url: doc.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? meta(doc, 'og:url'),
    image: meta(doc, 'og:image', 'twitter:image'),
    type: meta(doc, 'og:type'),
    keywords: keywords?.length ? keywords : undefined,
    published_time: meta(doc, 'article:published_time', 'datePublished', 'date', 'dc.date', 'DC.date.issued')
      ?? fromJsonLd(ld, 'datePublished') ?? markupDate(doc, 'datePublished'),
    modified_time: meta(doc, 'article:modified_time', 'og:updated_time', 'dateModified', 'last-modified')
      ?? fromJsonLd(ld, 'dateModified') ?? markupDate(doc, 'dateModified'),
    author: markupAuthor(doc),
    article_body: fromJsonLd(ld, 'articleBody'),
    article_headline: headlineOfBody(ld),
    headings: [...doc.querySelectorAll('h1')].map((h) => h.textContent ?? ''),
    declared_language: {
      html_lang: doc.documentElement?.getAttribute('lang'),
      content_language: contentLanguage,
      meta: doc.querySelector('meta[http-equiv="content-language" i]')?.getAttribute('content') ?? undefined,
      og_locale: meta(doc, 'og:locale'),
    },
  };
}

/** ISO 8601 (UTC) for a date a page states, or null when it is not a date. */
export function isoDate(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const ms = Date.parse(raw.trim());
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}
