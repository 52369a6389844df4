// The encodings a secret travels in besides its raw form: percent (a URL, with
// upper- or lower-case hex), form (`+` for a space, `%40` for @), JSON string
// escapes, and base64. The host's redactor hides the first ones in what it
// records; the sidecar's network guard looks for all of them in what leaves.

/** Every form a known secret can take in a URL, a form body or a JSON string. */
export function encodedForms(value: string): string[] {
  const percent = encodeURIComponent(value);
  const form = new URLSearchParams({ v: value }).toString().slice(2); // application/x-www-form-urlencoded
  const forms = [value, percent, form, encodeURI(value), percent.replace(/%20/g, '+'), JSON.stringify(value).slice(1, -1)];
  return [...new Set([...forms, ...forms.map(lowerHex)])];
}

const lowerHex = (s: string) => s.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase());

/**
 * The base64 (and base64url) text a value shows inside any base64 blob: the
 * value may start at any of three byte offsets (`btoa("user:" + pw)`), so for
 * each the characters that depend on the value's bits alone are kept.
 */
export function base64Forms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8');
  const out = new Set<string>();
  for (let k = 0; k < 3; k++) {
    const padded = Buffer.concat([Buffer.alloc(k), bytes, Buffer.alloc(3)]);
    const text = padded.toString('base64');
    const core = text.slice(Math.ceil((8 * k) / 6), Math.floor((8 * (k + bytes.length)) / 6));
    if (core.length < 4) continue;
    out.add(core);
    out.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  return [...out];
}

/** Everything the network guard looks for: the text forms, their base64, and the base64 of the percent form. */
export function leakForms(value: string): string[] {
  return [...new Set([...encodedForms(value), ...base64Forms(value), ...base64Forms(encodeURIComponent(value))])];
}
