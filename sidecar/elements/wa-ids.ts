// The wa-N rule, written once for every in-page script that numbers elements
// (web.page_content's collector, the compact snapshot's off-tree elements): an
// element keeps the id it carries if this session issued it (a number below
// the counter) and no other element took it in this pass; otherwise it gets
// the next number. One id names one element, whatever a page copies.
import type { Frame, Page } from 'playwright';

interface IdCounter { attr: string; next: number; seen: Set<string> }
export type ClaimId = (el: Element, ids: IdCounter) => string;

/** Runs in the page (self-contained: its source is sent along with the script that calls it). */
const claimElementId: ClaimId = (el, ids) => {
  let id = el.getAttribute(ids.attr) ?? '';
  const n = /^wa-(\d+)$/.exec(id)?.[1];
  if (n === undefined || Number(n) >= ids.next || ids.seen.has(id)) {
    id = `wa-${ids.next++}`;
    el.setAttribute(ids.attr, id);
  }
  ids.seen.add(id);
  return id;
};

/**
 * frame.evaluate for a script that numbers elements: the script gets its
 * (JSON) args and claimElementId, both printed into the source it runs.
 */
export function evaluateWithIds<A, R>(where: Page | Frame, script: (args: A, claim: ClaimId) => R, args: A): Promise<Awaited<R>> {
  return where.evaluate(idsExpression(script, args)) as Promise<Awaited<R>>;
}

/** The source evaluateWithIds runs (for a caller with its own way to evaluate it). It may run twice: the same ids come out. */
export function idsExpression<A, R>(script: (args: A, claim: ClaimId) => R, args: A): string {
  return `(${script.toString()})(${JSON.stringify(args)}, ${claimElementId.toString()})`;
}
