// A fetched page → ScrapedContent: linkedom DOM, CAPTCHA/block/HTTP checks,
// page metadata, Readability for the main content, turndown for Markdown.
// The same for a browser-rendered page and for the plain-HTTP fallback.
import { readShellSigns, renderReason } from './app-shell.js';
import { classifyPage, verdictError } from './classify.js';
import { parseDocument } from './dom.js';
import { pageLanguage } from './language.js';
import { toMarkdown } from './markdown.js';
import { isoDate, readMeta } from './metadata.js';
import { cleanByline, readArticle } from './readable.js';
import { sharpen } from './blocks.js';
import { dropBoilerplateBlocks, scorePage } from './block-vote.js';
import { addAgreedBlocks } from './block-add.js';
import { takeStructuredBody } from './structured-body.js';
import { dropDatelines } from './dateline.js';
import { readJusText } from './justext.js';
import { dropJusTextBad } from './justext-agree.js';
import { stopwordsFor } from './stopwords.js';
import { clearMarks, mainContainers, markBoilerplate, refineArticle } from './refine.js';
import { trimTitle } from './title.js';
import { countWords, plainText } from './text.js';
import type { FetchedPage, RefineSteps, ScrapedContent, ScrapeOptions } from './types.js';

// The steps the pipeline runs by default: widget marks, cleaning, the second opinion, sharpening and the
// page's JSON-LD articleBody, with the rules as first tuned. Each step was measured against the pipeline
// without it on every corpus set (docs/benchmarks.md, Extraction); a change is on only when it lowered
// no held-out or unseen set. Datelines, the block vote, add-back, link lists kept inside the text and the
// stricter second opinions each lowered one, so they are options.
export const DEFAULT_STEPS: RefineSteps = { marks: true, clean: true, keepListsInText: false, proseWidgetsStay: false, secondOpinion: true, thinSecondOpinionAddsArticle: false, secondOpinionOneArticle: false, sharpen: true, vote: false, justext: false, justextInside: false, addBack: false, structured: true, dateline: false };
export const READABILITY_ALONE: RefineSteps = { marks: false, clean: false, keepListsInText: false, proseWidgetsStay: false, secondOpinion: false, thinSecondOpinionAddsArticle: false, secondOpinionOneArticle: false, sharpen: false, vote: false, justext: false, justextInside: false, addBack: false, structured: false, dateline: false };

export function scrapePage(page: FetchedPage, opts: ScrapeOptions): ScrapedContent {
  return scrapeWithSigns(page, opts).content;
}

/** The content, and for a page read over HTTP why it would need the browser (undefined: it reads fine as served). */
export function scrapeWithSigns(page: FetchedPage, opts: ScrapeOptions): { content: ScrapedContent; renderReason?: string } {
  const doc = parseDocument(page.html, page.url);
  const title = doc.querySelector('title')?.textContent?.trim() ?? '';
  const bodyText = doc.body ? plainText(doc.body) : '';
  const verdict = classifyPage(page, `${title}\n${bodyText}`, doc);
  if (!verdict.ok) throw verdictError(verdict, page);
  // Read before Readability rewrites the document: the served markup is the evidence.
  const signs = page.rendered ? undefined : readShellSigns(doc, bodyText);

  const meta = readMeta(doc, page.headers['content-language']);
  // Readability rewrites the document: keep the whole body first when the caller wants it.
  const wholeBody = opts.mainContent ? undefined : (doc.body?.cloneNode(true) as Element | undefined);
  const steps: RefineSteps = opts.readabilityOnly ? READABILITY_ALONE : { ...DEFAULT_STEPS, ...opts.steps };
  const refining = opts.mainContent;
  if (refining && steps.marks) markBoilerplate(doc);
  // Copied before Readability rewrites the document: the second opinion's candidates.
  const containers = refining && steps.secondOpinion ? mainContainers(doc) : [];
  // The whole page, block by block, scored before Readability rewrites it: the second reading the answer is voted against.
  const pageVerdicts = refining && (steps.vote || steps.addBack) && doc.body ? scorePage(doc.body) : undefined;
  // jusText's reading of the whole page, with the stopwords of its declared (else most likely) language.
  const stopwords = refining && steps.justext && doc.body ? stopwordsFor(declaredTag(meta), bodyText) : undefined;
  const jusText = stopwords ? readJusText(doc.body!, stopwords) : undefined;
  const article = readArticle(doc);
  const shellReason = signs && renderReason(signs, article ? countWords(plainText(article.content)) : 0);
  // Readability's answer, cleaned, or a second opinion when it is thin or mostly links (refine.ts).
  const refined = refining && article ? refineArticle(article.content, () => containers, steps) : undefined;
  const root = (opts.mainContent ? refined?.root ?? article?.content : wholeBody) ?? wholeBody ?? doc.body ?? doc.documentElement;
  const sharpened = refined && steps.sharpen ? sharpen(root, meta.article_body) : 0;
  const voted = refined && pageVerdicts && steps.vote ? dropBoilerplateBlocks(root, pageVerdicts) : 0;
  const jusTextDropped = refined && jusText ? dropJusTextBad(root, jusText, meta.article_body, steps.justextInside) : 0;
  const added = refined && pageVerdicts && steps.addBack ? addAgreedBlocks(root, pageVerdicts) : 0;
  const datelines = refined && steps.dateline ? dropDatelines(root) : 0;
  const structured = refined && steps.structured && meta.article_body
    ? takeStructuredBody(root, plainText(root), meta.title || title, { text: meta.article_body, headline: meta.article_headline })
    : false;
  if (refining) clearMarks(root);
  const html = root.innerHTML;
  const text = plainText(root);
  const { language, source } = pageLanguage(meta.declared_language, text);
  const published = article?.publishedTime ?? meta.published_time;

  const result: ScrapedContent = {
    url: page.url,
    title: trimTitle(article?.title || meta.title || page.url, meta.headings, article?.siteName ?? meta.site_name),
    author: pickAuthor(article?.byline, meta.author),
    publish_date: isoDate(published),
    content_markdown: toMarkdown(html),
    content_text: text,
    word_count: countWords(text),
    language,
    metadata: compact({
      site_name: article?.siteName ?? meta.site_name,
      description: meta.description,
      excerpt: article?.excerpt,
      canonical_url: absolute(meta.canonical_url, page.url),
      image: absolute(meta.image, page.url),
      type: meta.type,
      keywords: meta.keywords,
      published_time: published,
      modified_time: meta.modified_time,
      modified_date: isoDate(meta.modified_time) ?? undefined,
      dir: article?.dir,
      language_source: source,
      extraction: opts.mainContent ? (article ? `${refined?.how ?? 'readability'}${sharpened ? `, ${sharpened} block(s) sharpened away` : ''}${voted ? `, ${voted} block(s) the page scorer calls boilerplate removed` : ''}${jusTextDropped ? `, ${jusTextDropped} block(s) jusText calls boilerplate removed` : ''}${added ? `, ${added} block(s) both readings call the article's added back` : ''}${datelines ? `, ${datelines} dateline/byline line(s) before the first paragraph removed` : ''}${structured ? ', the page\'s JSON-LD articleBody taken (the printed text was a part of it)' : ''}` : 'body (no article found)') : 'body',
      status: page.status,
      content_type: page.headers['content-type'],
    }),
    rendered: page.rendered,
  };
  if (opts.format === 'html') result.content_html = html;
  return { content: result, renderReason: shellReason };
}

/**
 * Readability's byline is sometimes the whole byline line ("Von Katrin Bauer · 20. Februar 2024");
 * when the markup names the author inside it, the name alone is the better answer.
 */
function pickAuthor(byline: string | null | undefined, markup: string | undefined): string | null {
  const fromReadability = cleanByline(byline);
  const fromMarkup = cleanByline(markup);
  if (fromReadability && fromMarkup && fromReadability !== fromMarkup && fromReadability.includes(fromMarkup)) return fromMarkup;
  return fromReadability ?? fromMarkup;
}

/** The language the page declares (html lang, Content-Language, …), not a guess from its text. */
function declaredTag(meta: { declared_language: Parameters<typeof pageLanguage>[0] }): string | undefined {
  const { language, source } = pageLanguage(meta.declared_language, '');
  return source === 'none' ? undefined : language;
}

function absolute(value: string | undefined, base: string): string | undefined {
  if (!value) return undefined;
  try {
    return new URL(value, base).href;
  } catch {
    return value;
  }
}

/** Drops empty fields, so metadata lists what the page actually states. */
function compact(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}
