// What a plan step acted on, for the step log `webcap run` prints on stderr:
// a URL, a selector, a question. Never what it typed: web.fill / web.type
// text is left out and the character keys of web.keypress show as • (named
// keys such as Enter or Tab stay), whatever field they went to.
import { typesText } from './typed-text.js';

function keysShown(keys: unknown): string {
  if (!Array.isArray(keys)) return '';
  return keys.map((k) => (typeof k === 'string' && !typesText(k) ? k : '•')).join(' ');
}

export function stepTarget(params: Record<string, unknown>): string | undefined {
  const t = params.url ?? params.selector ?? params.ref ?? (params.keys !== undefined ? keysShown(params.keys) : undefined)
    ?? params.question ?? params.policy ?? params.by ?? params.time;
  if (t === undefined) return undefined;
  const s = typeof t === 'string' ? t : JSON.stringify(t);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}
