// What a capability can do to the world, as its manifest declares it. The MCP
// annotations are read from these, so a client's "may I run this without
// asking?" rests on the same declaration the host governs by.
export const EFFECTS = {
  /** Uses a browser session: reads the page it shows. */
  browser: 'looks',
  /** Fetches from web sites (GET-like reads). */
  network: 'looks',
  /** Asks the user a question. */
  user: 'looks',
  /** Changes what a page shows or holds: navigates, types, scrolls, hovers, opens a session or tab. */
  page: 'changes',
  /** Writes a file in the workspace. */
  filesystem: 'changes',
  /** Can submit a form, send a state-changing request, run page code or upload: acts for the user on a site. */
  submit: 'destructive',
  /** Discards state: closes a session or tab, overwrites cookies. */
  delete: 'destructive',
  /** Can spend money or another metered resource. */
  spend: 'destructive',
} as const;

export type Effect = keyof typeof EFFECTS;

export function isKnownEffect(e: string): e is Effect {
  return Object.hasOwn(EFFECTS, e);
}

/** Changes nothing: every declared effect only looks (an unknown effect counts as a change). */
export function changesNothing(effects: readonly string[]): boolean {
  return effects.every((e) => isKnownEffect(e) && EFFECTS[e] === 'looks');
}

/**
 * Only reads the page a session already shows: connects to no site, asks no one, changes nothing
 * (every effect is "browser"). Such a call's intent need not be durable before it runs (policies/write-ahead.ts).
 */
export function readsOpenPageOnly(effects: readonly string[] | undefined): boolean {
  return !!effects?.length && effects.every((e) => e === 'browser');
}

/** Can submit, delete or spend (an unknown effect counts as destructive: fail closed). */
export function canDestroy(effects: readonly string[]): boolean {
  return effects.some((e) => !isKnownEffect(e) || EFFECTS[e] === 'destructive');
}
