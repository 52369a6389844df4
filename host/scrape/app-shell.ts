// Does a page served over plain HTTP need its JavaScript to show its text?
// Read on the DOM as served (before Readability rewrites it): the signs of a
// client-rendered app (an empty mount point, a "please enable JavaScript"
// notice, a body of scripts and little text) and too little readable text.
// Each sign is a reason the result can quote.
import { countWords } from './text.js';

// Where single-page-app frameworks mount (React/Vite, Vue, Next.js, Nuxt, Angular, Svelte, Ember, Gatsby).
const MOUNT_POINTS = ['#root', '#app', '#__next', '#__nuxt', 'app-root', '#svelte', '#ember-app', '#___gatsby', '[data-reactroot]', '#main-app'];
const ENABLE_JS = /(enable|activate|turn on|aktivieren|activer|activa|attiva|schakel)\b[^.]{0,60}\bjavascript|javascript\b[^.]{0,60}\b(required|needed|disabled|nötig|erforderlich|requis|necesario)/i;
/** Fewer words than this in the article is "little readable text". */
export const THIN_ARTICLE_WORDS = 120;
// A mount point with fewer words than this is empty, or holds a spinner.
const SHELL_WORDS = 25;

/** What the served markup shows, read before Readability rewrites (and strips scripts and noscript from) the document. */
interface ShellSigns { emptyMount?: string; noscriptNotice: boolean; scripts: number }

export function readShellSigns(doc: Document, bodyText: string): ShellSigns {
  const thinBody = countWords(bodyText) < THIN_ARTICLE_WORDS * 2;
  const emptyMount = thinBody ? MOUNT_POINTS.find((selector) => {
    const mount = doc.querySelector(selector);
    return mount !== null && countWords(mount.textContent ?? '') < SHELL_WORDS;
  }) : undefined;
  const noscriptNotice = [...doc.querySelectorAll('noscript')].some((n) => ENABLE_JS.test(n.textContent ?? ''));
  return { emptyMount, noscriptNotice, scripts: doc.querySelectorAll('script[src], script[type="module"]').length };
}

/** Why the page needs the browser, given the words the pipeline extracted; undefined when its HTTP body reads fine. */
export function renderReason(signs: ShellSigns, articleWords: number): string | undefined {
  if (signs.emptyMount) return `app shell: ${signs.emptyMount} is empty until a script fills it`;
  if (signs.noscriptNotice && articleWords < THIN_ARTICLE_WORDS * 2) return 'app shell: a <noscript> notice asks for JavaScript';
  if (articleWords < THIN_ARTICLE_WORDS) {
    return signs.scripts > 0
      ? `little readable text (${articleWords} words) and ${signs.scripts} script(s) that may write more`
      : `little readable text (${articleWords} words)`;
  }
  return undefined;
}
