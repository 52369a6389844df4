// The encodings a secret travels in besides its raw form: percent (a URL, with
// upper- or lower-case hex), form (`+` for a space, `%40` for @), JSON string
// escapes (listed in manifests/secrets/forms.ts, shared with the sidecar's
// network guard). Used both ways: to list the forms of a known secret, and to decode
// a token of text so rules that look for names or values see it plainly.

export { encodedForms } from '../../manifests/secrets/forms.js';

/** A run of text that may hold percent- or form-encoded content (no whitespace or quotes inside). */
export const ENCODED_TOKEN = /[^\s"'<>`]*(?:%[0-9A-Fa-f]{2}|\+)[^\s"'<>`]*/g;
const HAS_ENCODING = /%[0-9A-Fa-f]{2}|\+/;

export function mayBeEncoded(text: string): boolean {
  return HAS_ENCODING.test(text);
}

/** Decodes every valid %XX run, leaving malformed ones as they are (decodeURIComponent alone would throw). */
export function percentDecode(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}
