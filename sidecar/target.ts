// Which element an action means. Today: a selector (CSS, xpath=, role=, text=,
// @name) or role + name. Snapshot refs and wa-N ids plug in here, so every
// action that takes an element accepts the same ways of naming one.
import type { Locator } from 'playwright';
import { WebcapError } from '../manifests/errors.js';
import type { PageCall, Params } from './tool.js';

export interface Target {
  locator: Locator;
  /** How the caller named it, for messages, consent prompts and the chain. */
  label: string;
}

type AriaRole = Parameters<PageCall['page']['getByRole']>[0];

export function locateTarget(call: PageCall, params: Params): Target {
  if (typeof params.selector === 'string') {
    const sel = call.selector(params.selector);
    return { locator: call.page.locator(sel).first(), label: sel };
  }
  if (typeof params.role === 'string') {
    const name = typeof params.name === 'string' ? params.name : undefined;
    return {
      locator: call.page.getByRole(params.role as AriaRole, name === undefined ? {} : { name, exact: false }).first(),
      label: `role=${params.role}${name === undefined ? '' : `[name="${name}"]`}`,
    };
  }
  throw new WebcapError('invalid_params', 'say which element: selector, or role (+ name)', { field: 'selector' });
}
