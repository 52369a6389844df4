// linkedom takes ~200 ms to load, and only a few tools (page_content's
// full_html, fill_form's result text) need it: load it on first use instead
// of on every sidecar start, which every cold start would pay for.
import { createRequire } from 'node:module';

type Linkedom = typeof import('linkedom');
let loaded: Linkedom | undefined;

export function linkedom(): Linkedom {
  loaded ??= createRequire(import.meta.url)('linkedom') as Linkedom;
  return loaded;
}
