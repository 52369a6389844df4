// The one pattern every caller-chosen identifier must match, wherever it is
// accepted: session names, plan ids, profile names, plan input names (in the
// manifests' input schemas, the CLI and the host). Names end up in chain
// entries, file names, exported plans and terminal lines: letters, digits,
// "_", "-" and "." (not first), at most 64, so none can carry a line break, a
// quote, a path separator or plan code.
import { WebcapError } from './errors.js';

export const IDENTIFIER_SOURCE = '^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}$';
const IDENTIFIER = new RegExp(IDENTIFIER_SOURCE);

/** Returns the name, or throws invalid_params naming the field (the name itself is shown only quoted and cut). */
export function checkIdentifier(name: unknown, field: string): string {
  if (typeof name === 'string' && IDENTIFIER.test(name)) return name;
  const shown = typeof name === 'string' ? JSON.stringify(name.length > 40 ? `${name.slice(0, 39)}…` : name) : typeof name;
  throw new WebcapError('invalid_params', `${field} ${shown}: use 1-64 letters, digits, "_", "-" or "." (not first)`, { field });
}
