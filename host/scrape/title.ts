// Titles as pages write them often carry the site's name ("Story – Site",
// "Page — Project 3.2 documentation"). Readability cuts some separators but
// not all (not "–" or "—"), so the cut is finished here, and only on evidence
// from the page: the part kept must be the page's own <h1>, or the part cut
// must be the site's declared name.
const SEPARATOR = /\s+(?:[|\-–—·»]|::)\s+/g;

function normalise(s: string): string {
  return s.replace(/\s+/g, ' ').replace(/[\s¶#§🔗]+$/u, '').trim().toLowerCase();
}

export function trimTitle(title: string, headings: string[], siteName?: string): string {
  const known = new Set(headings.map(normalise));
  for (const m of title.matchAll(SEPARATOR)) {
    const head = title.slice(0, m.index).trim();
    const tail = title.slice(m.index! + m[0].length).trim();
    if (known.has(normalise(head))) return head;
    if (siteName && normalise(tail) === normalise(siteName)) return head;
  }
  return title;
}
