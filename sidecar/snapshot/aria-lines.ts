// One line of Playwright's "ai" aria snapshot, parsed: `- role "name" [attr]…: value`,
// possibly YAML-quoted as a whole when the name holds a colon or a quote.
// The compact view rewrites lines, so it needs their parts, not regexes per use.
export interface AriaLine {
  depth: number;
  role: string;        // "link", "heading", "text", "/url", …
  name: string | null;
  attrs: string[];     // "level=2", "checked", "cursor=pointer", … (ref kept apart)
  ref: string | null;
  value: string | null; // inline text after ": "
  opens: boolean;       // ends with ":" — children follow
}

const KEY = /^([a-z/]+)(?: "((?:[^"\\]|\\.)*)")?((?: \[[^\]]*\])*)$/;

export function parseAriaLines(yaml: string): AriaLine[] {
  const out: AriaLine[] = [];
  for (const raw of yaml.split('\n')) {
    const body = raw.trimStart();
    if (!body.startsWith('- ')) continue;
    const parsed = parseBody(body.slice(2));
    if (parsed) out.push({ depth: (raw.length - body.length) / 2, ...parsed });
  }
  return out;
}

function parseBody(body: string): Omit<AriaLine, 'depth'> | null {
  const { key, value, opens } = splitKey(body);
  const m = KEY.exec(key);
  if (!m) {
    // A bare text child: `- "some text"` or `- some text`.
    return { role: 'text', name: null, attrs: [], ref: null, value: unquote(body), opens: false };
  }
  const attrs = [...(m[3] ?? '').matchAll(/\[([^\]]*)\]/g)].map((a) => a[1]);
  const refAttr = attrs.find((a) => a.startsWith('ref='));
  return {
    role: m[1],
    name: m[2] === undefined ? null : unescapeName(m[2]),
    attrs: attrs.filter((a) => a !== refAttr),
    ref: refAttr ? refAttr.slice(4) : null,
    value,
    opens,
  };
}

/** Split `key: value` / `key:` / `'quoted key': value`, honouring YAML quoting of the key. */
function splitKey(body: string): { key: string; value: string | null; opens: boolean } {
  let key = body;
  let rest = '';
  if (body.startsWith("'") || body.startsWith('"')) {
    const end = closingQuote(body);
    key = unquote(body.slice(0, end + 1));
    rest = body.slice(end + 1);
  } else {
    const at = body.search(/:( |$)/);
    if (at >= 0) { key = body.slice(0, at); rest = body.slice(at); }
  }
  if (rest === ':') return { key, value: null, opens: true };
  if (rest.startsWith(': ')) return { key, value: unquote(rest.slice(2)), opens: false };
  return { key, value: null, opens: false };
}

function closingQuote(s: string): number {
  const q = s[0];
  for (let i = 1; i < s.length; i++) {
    if (q === "'" && s[i] === "'" ) { if (s[i + 1] === "'") { i++; continue; } return i; }
    if (q === '"' && s[i] === '\\') { i++; continue; }
    if (q === '"' && s[i] === '"') return i;
  }
  return s.length - 1;
}

function unquote(s: string): string {
  if (s.length >= 2 && s.startsWith("'") && s.endsWith("'")) return s.slice(1, -1).replace(/''/g, "'");
  if (s.length >= 2 && s.startsWith('"') && s.endsWith('"')) {
    try { return JSON.parse(s) as string; } catch { return s.slice(1, -1); }
  }
  return s;
}

function unescapeName(s: string): string {
  try { return JSON.parse(`"${s}"`) as string; } catch { return s; }
}
