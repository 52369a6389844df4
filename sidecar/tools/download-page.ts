// web.download_page: the page as it is now (the rendered DOM, serialised) saved
// as HTML under <workspace>/pages, with a JSON file of metadata beside it (URL,
// title, status, language, description, canonical link, when and from which
// session/tab), so a saved page can be found and cited later.
import { WebcapError } from '../../manifests/errors.js';
import { eventsOf } from '../page-events.js';
import { pageTool } from '../tool.js';
import { outputPath, safeFileName } from '../workspace.js';
import { writeBytesInWorkspace } from '../workspace-write.js';

/** A file name from the page's host and path, e.g. forum.test_post_42. */
function nameFor(url: string): string {
  try {
    const u = new URL(url);
    return safeFileName(`${u.hostname}${u.pathname}`.replace(/[/.]+/g, '_').replace(/_+$/, ''), 'page').slice(0, 120);
  } catch {
    return 'page';
  }
}

export const downloadPage = pageTool('web.download_page', async ({ page, session, ctx }, params) => {
  const wanted = params.path;
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const htmlPath = outputPath(ctx.init.workspace, 'pages', wanted, `${nameFor(page.url())}-${stamp}.html`, ['html', 'htm'], 'web.download_page');
  const metadataPath = htmlPath.replace(/\.html?$/i, '') + '.json';
  const html = await page.content();
  const facts = await page.evaluate(() => {
    const meta = (name: string) => document.querySelector(`meta[name="${name}"], meta[property="${name}"]`)?.getAttribute('content') ?? null;
    const nav = performance.getEntriesByType('navigation')[0] as (PerformanceNavigationTiming & { responseStatus?: number }) | undefined;
    return {
      lang: document.documentElement.lang || null,
      description: meta('description') ?? meta('og:description'),
      canonical: document.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? null,
      charset: document.characterSet,
      status: nav?.responseStatus || null,
      links: document.links.length,
    };
  });
  const metadata = {
    url: page.url(), title: await page.title(), ...facts,
    saved_at: new Date().toISOString(), session: session.name, tab: eventsOf(session).tabId(page),
    html_file: htmlPath, bytes: Buffer.byteLength(html),
  };
  // Fresh files renamed into place: never through a link (workspace-write.ts).
  await writeBytesInWorkspace(ctx.init.workspace, htmlPath, 'web.download_page', html);
  await writeBytesInWorkspace(ctx.init.workspace, metadataPath, 'web.download_page', `${JSON.stringify(metadata, null, 2)}\n`);
  return { html_path: htmlPath, metadata_path: metadataPath, url: metadata.url, title: metadata.title, bytes: metadata.bytes };
});
