// A capability id as the chain, the log and error messages show it. Ids are
// caller input: `web.open?token=…`, a pasted URL or garbage must not carry a
// secret anywhere, so only a well-formed id (dotted lower-case words, as the
// manifests use) is shown as given; anything else is named by its shape only.
const WELL_FORMED = /^[a-z][a-z0-9_]{0,31}(?:\.[a-z][a-z0-9_]{0,31}){0,4}$/;

export function shownCapabilityId(id: unknown): string {
  if (typeof id === 'string' && WELL_FORMED.test(id)) return id;
  return `(malformed capability id, ${typeof id === 'string' ? `${[...id].length} characters` : typeof id})`;
}
