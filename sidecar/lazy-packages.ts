// Packages only a few tools need, loaded on first use instead of on every
// sidecar start (which every cold start and every test host pays for):
// linkedom (~200 ms; page_content's full_html, fill_form's result text),
// Readability (fill_form's result text) and otpauth ({{totp:NAME}} codes).
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

function onFirstUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load(name) as T);
}

export const linkedom = onFirstUse<typeof import('linkedom')>('linkedom');
export const readability = onFirstUse<typeof import('@mozilla/readability')>('@mozilla/readability');
export const otpauth = onFirstUse<typeof import('otpauth')>('otpauth');
