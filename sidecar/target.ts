// Which element an action means, named one of four ways (checked in this order):
//   ref       — e12 / f1e3 from web.snapshot, or wa-12 from web.page_content
//   selector  — CSS, xpath=, role=, text=, @name
//   role (+ name) — ARIA role and accessible name, as a snapshot prints them
// Every action that takes an element calls this, so they all accept the same.
import type { Locator } from 'playwright';
import { WebcapError } from '../manifests/errors.js';
import { locateRef } from './refs/locate.js';
import type { PageCall, Params } from './tool.js';

export interface Target {
  locator: Locator;
  /** How the caller named it, for messages, consent prompts and the chain. */
  label: string;
}

type AriaRole = Parameters<PageCall['page']['getByRole']>[0];

/** Resolves the element an action names. A stale ref throws stale_ref at once (no waiting). */
export async function locateTarget(call: PageCall, params: Params): Promise<Target> {
  const ways = (['ref', 'selector', 'role'] as const).filter((k) => params[k] !== undefined);
  if (ways.length > 1) {
    throw new WebcapError('invalid_params', `name the element one way, not ${ways.join(' and ')}`, { fields: ways });
  }
  if (params.name !== undefined && params.role === undefined) {
    throw new WebcapError('invalid_params', '`name` goes with `role` (e.g. {"role":"button","name":"Save"})', { field: 'name' });
  }
  if (params.frame !== undefined && params.ref !== undefined) {
    throw new WebcapError('invalid_params', '`frame` goes with `selector` or `role`; a ref already knows its frame', { field: 'frame' });
  }
  if (typeof params.ref === 'string') {
    return { locator: (await locateRef(call.page, params.ref)).first(), label: `ref=${params.ref}` };
  }
  // `frame`: the element is inside this iframe of the top document (an exported plan records it).
  const frame = typeof params.frame === 'string' ? params.frame : undefined;
  const root = frame === undefined ? call.page : call.page.frameLocator(frame);
  const inFrame = frame === undefined ? '' : ` in iframe ${frame}`;
  if (typeof params.selector === 'string') {
    const sel = call.selector(params.selector);
    return { locator: root.locator(sel).first(), label: `${sel}${inFrame}` };
  }
  if (typeof params.role === 'string') {
    const name = typeof params.name === 'string' ? params.name : undefined;
    return {
      locator: root.getByRole(params.role as AriaRole, name === undefined ? {} : { name, exact: false }).first(),
      label: `role=${params.role}${name === undefined ? '' : `[name="${name}"]`}${inFrame}`,
    };
  }
  throw new WebcapError('invalid_params', 'say which element: ref (e12 from web.snapshot, wa-12 from web.page_content), selector, or role (+ name)', { field: 'ref' });
}
