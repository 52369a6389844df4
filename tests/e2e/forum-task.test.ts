// The forum evaluation task, rebuilt offline: on the forum's tag page, go to
// page 3 with the indexed elements, find the post titled "OAI 面试挂经", open it
// and download it; then check the final URL and the saved file. The steps are
// the ones an agent takes through the tools, with no selector written by hand.
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Host } from '../../host/host.js';
import { tempDir, testConfig, testHost } from '../helpers/host.js';
import { FORUM_BASE, FORUM_HOST, TARGET, startForum, type ForumSite } from '../fixtures/forum-site.js';

interface Element { web_agent_id: string; tag: string; text: string; attributes: Record<string, unknown>; url?: string }
type Matches = { matches: Element[]; count: number; total: number; interpretation?: string };

let forum: ForumSite;
let host: Host;
const workspace = tempDir('webcap-forum-');

beforeAll(async () => {
  forum = await startForum();
  host = testHost(testConfig({
    dir: workspace,
    browser: { domains_allowlist: [FORUM_HOST], ignore_https_errors: true },
    network: { resolve: forum.resolve },
  }));
});
afterAll(async () => {
  await host?.close();
  await forum?.close();
});

it('goes to page 3, finds "OAI 面试挂经", opens it and saves it', async () => {
  // 1. Navigate.
  const opened = await host.call('web.open', { url: `${FORUM_BASE}tag/openai-9407-1.html` });
  expect(opened).toMatchObject({ status: 200, title: 'openai 标签 第1页 - 一亩三分地' });

  // 2. Read the page as indexed elements: only what one can act on, no hidden menu.
  const content = await host.call('web.page_content', { format: 'indexed' });
  expect(content.content).toContain('<a href="tag/openai-9407-3.html">3</a>');
  expect(content.content).not.toContain('手机版菜单');
  expect(content.element_count as number).toBeGreaterThan(60);

  // 3. The 3rd page button, read by the deterministic query, clicked by its id.
  const third = await host.call('web.query_elements', { query: 'Find the 3rd page button' }) as Matches;
  expect(third.matches).toHaveLength(2); // Discuz prints the pager above and below the list
  expect(third.matches.map((m) => m.url)).toEqual([`${FORUM_BASE}tag/openai-9407-3.html`, `${FORUM_BASE}tag/openai-9407-3.html`]);
  const onPage3 = await host.call('web.click', { ref: third.matches[0].web_agent_id, wait_until: 'load' });
  expect(onPage3.url).toBe(`${FORUM_BASE}tag/openai-9407-3.html`);

  // 4. Post links by filter: title links and reply-count links both point at threads.
  const posts = await host.call('web.query_elements', { filters: { tag: 'a', href_pattern: 'thread-*' }, limit: 100 }) as Matches;
  expect(posts.total).toBe(40);
  expect(posts.matches.filter((m) => (m.attributes.class as string[] | undefined)?.includes('xst'))).toHaveLength(20);

  // 5. The post by its title: the reference query finds it and its look-alike; exact text finds it alone.
  const seedQuery = await host.call('web.query_elements', { query: "Find link with text 'OAI 面试挂经'" }) as Matches;
  expect(seedQuery.matches.map((m) => m.text)).toEqual(['OAI 面试挂经', 'OAI 面试挂经总结贴']);
  const exact = await host.call('web.find_by_text', { text: TARGET.title, exact: true }) as Matches;
  expect(exact.matches).toHaveLength(1);
  expect(exact.matches[0]).toMatchObject({ tag: 'a', text: TARGET.title, attributes: { href: `thread-${TARGET.id}-1-1.html` } });

  // 6. Click it.
  const clicked = await host.call('web.click', { ref: exact.matches[0].web_agent_id, wait_until: 'load' });
  const finalUrl = `https://${FORUM_HOST}/bbs/thread-${TARGET.id}-1-1.html`;
  expect(clicked.url).toBe(finalUrl);

  // 7. Download the page; 8. check the URL and the saved file.
  const saved = await savePage();
  expect(saved.url).toBe(finalUrl);
  const html = readFileSync(saved.file, 'utf8');
  expect(html).toContain(`<h1 id="thread_subject">${TARGET.title}</h1>`);
  expect(html).toContain(TARGET.body);
  expect(saved.file.startsWith(workspace)).toBe(true);
  expect(forum.hits).toEqual(expect.arrayContaining([`/bbs/tag/openai-9407-3.html`, `/bbs/thread-${TARGET.id}-1-1.html`]));
  expect(forum.hits).not.toContain('/bbs/tag/openai-9407-2.html'); // went straight to page 3
});

/** web.download_page when the build has it; otherwise the sanitised HTML from web.page_content, saved by hand. */
async function savePage(): Promise<{ file: string; url: string }> {
  if (host.capabilities().some((m) => m.id === 'web.download_page')) {
    const r = await host.call('web.download_page', { path: 'oai-post.html' });
    const meta = JSON.parse(readFileSync(r.metadata_path as string, 'utf8')) as { url: string; title: string };
    expect(meta.title).toBe(`${TARGET.title} - 一亩三分地`);
    expect(existsSync(r.html_path as string)).toBe(true);
    return { file: r.html_path as string, url: meta.url };
  }
  const page = await host.call('web.page_content', { format: 'full_html', max_chars: 5_000_000 });
  mkdirSync(join(workspace, 'pages'), { recursive: true });
  const file = join(workspace, 'pages', 'oai-post.html');
  writeFileSync(file, page.content as string);
  return { file, url: page.url as string };
}
