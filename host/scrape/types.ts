// What web.scrape passes between its steps: a fetched page (from the browser
// or the plain-HTTP fallback) and the ScrapedContent it becomes.

export interface FetchedPage {
  /** Final URL, after redirects. */
  url: string;
  status: number | null;
  /** Lower-case names; only the few the pipeline reads. */
  headers: Record<string, string>;
  html: string;
  /** true: the DOM after JavaScript ran in the browser; false: the HTTP body as served. */
  rendered: boolean;
}

export type ScrapeFormat = 'markdown' | 'text' | 'html';

export interface ScrapeOptions {
  format: ScrapeFormat;
  /** Readability's article only (true) or the whole body (false). */
  mainContent: boolean;
  /** Readability's article as it returns it, without boilerplate removal or a second opinion (the quality baseline). */
  readabilityOnly?: boolean;
  /** Which refinement steps past Readability run (benches compare them in one run); each defaults to the pipeline's choice. */
  steps?: Partial<RefineSteps>;
}

/** The refinement steps around Readability's answer; all off is Readability alone. */
export interface RefineSteps {
  /** Mark widgets and hidden blocks by their class or id before Readability strips the classes (cleaning removes what is marked). */
  marks: boolean;
  /** Remove navigation, link lists and marked widgets from Readability's answer. */
  clean: boolean;
  /** With `clean`: a link list between paragraphs of the answer's text stays (only lists at its edges go). */
  keepListsInText: boolean;
  /** With `clean`: a widget named by its class or id stays when it reads as the article's prose (paragraphs of sentences, few links). */
  proseWidgetsStay: boolean;
  /** Take the page's own main container instead when Readability's answer is thin or dropped whole paragraphs of it. */
  secondOpinion: boolean;
  /** With `secondOpinion`: for a thin answer, only a container that is one article and adds an article's worth of prose (sentences). */
  thinSecondOpinionAddsArticle: boolean;
  /** With `secondOpinion`: never a container that holds several <article> elements (a feed of stories). */
  secondOpinionOneArticle: boolean;
  /** Drop trailing empty headings and, by the page's JSON-LD articleBody, foreign edge blocks. */
  sharpen: boolean;
  /** Remove blocks the whole-page block scorer calls boilerplate with confidence. */
  vote: boolean;
  /** Remove the answer's blocks that a jusText reading of the whole page calls boilerplate (unless JSON-LD articleBody holds them). */
  justext: boolean;
  /** With `justext`: every such block of the answer, not only the runs at its edges. */
  justextInside: boolean;
  /** Add back blocks outside Readability's answer that both readings call the article's. */
  addBack: boolean;
  /** Use the page's structured data (JSON-LD articleBody) as a reading, when consistent. */
  structured: boolean;
  /** Remove the date and byline lines printed before the article's first paragraph. */
  dateline: boolean;
}

export interface ScrapedContent {
  url: string;
  title: string;
  author: string | null;
  publish_date: string | null;
  content_markdown: string;
  content_text: string;
  content_html?: string;
  word_count: number;
  language: string;
  metadata: Record<string, unknown>;
  rendered: boolean;
  /** Which path read the page (plain HTTP or the browser), under which render mode, and why. */
  render?: { mode: 'auto' | 'always' | 'never'; path: 'http' | 'browser'; reason: string };
}
