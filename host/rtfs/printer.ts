// RTFS printer: a small syntax tree → plan text. Everything webcap writes as a
// plan (exports of recorded runs, discovery's plans, healed selectors) is built
// as a tree and printed here, never concatenated: a string is always quoted
// and escaped, a keyword or symbol must match a strict name pattern or the
// print fails, and a comment cannot contain a line break. So a page's text or
// a caller's name can only ever become a string value, never a form.
import { WebcapError } from '../../manifests/errors.js';

/** `{{name}}` in a string: filled from `webcap run --input name=value`. */
export class InputRef {
  constructor(readonly name: string) {
    if (!INPUT_NAME.test(name)) throw refused('input name', name);
  }
}

export type TextPart = string | InputRef;

export type Code =
  | { kind: 'list'; items: Code[]; inline?: number }
  | { kind: 'vector'; items: Code[]; pairs?: boolean }
  | { kind: 'map'; entries: [Code, Code][] }
  | { kind: 'keyword'; name: string }
  | { kind: 'symbol'; name: string }
  | { kind: 'text'; parts: TextPart[] }
  | { kind: 'number'; value: number }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'nil' };

const NAME = /^[A-Za-z_][\w.-]*$/;
const SYMBOL = /^[A-Za-z_][\w-]*[?!]?$/;
const RESERVED = new Set(['nil', 'true', 'false']);
const INPUT_NAME = /^\w+$/;

function refused(what: string, name: string): WebcapError {
  return new WebcapError('invalid_params', `cannot write ${what} ${JSON.stringify(name.slice(0, 80))} into a plan: it must match ${what === 'symbol' ? SYMBOL : what === 'input name' ? INPUT_NAME : NAME}`, { field: what });
}

// Nodes made by the functions below; anything else handed to data() is data, even with a `kind` key.
const made = new WeakSet<object>();
const node = (c: Code): Code => { made.add(c); return c; };

export const kw = (name: string): Code => {
  if (!NAME.test(name)) throw refused('keyword', name);
  return node({ kind: 'keyword', name });
};
export const sym = (name: string): Code => {
  if (!SYMBOL.test(name) || RESERVED.has(name)) throw refused('symbol', name);
  return node({ kind: 'symbol', name });
};
export const str = (...parts: TextPart[]): Code => node({ kind: 'text', parts });
/** A list on one line, or with `inline` items on the first line and each further item on its own line. */
export const list = (items: Code[], inline?: number): Code => node({ kind: 'list', items, inline });
export const vec = (items: Code[], pairs = false): Code => node({ kind: 'vector', items, pairs });
const nil = (): Code => node({ kind: 'nil' });
export const call = (capability: string, params: unknown, options?: unknown): Code =>
  list([sym('call'), kw(capability), data(params), ...(options === undefined ? [] : [data(options)])]);

/** JSON-like data (InputRef and text parts allowed inside) as code: keys become keywords when they can. */
export function data(v: unknown): Code {
  if (v === null || v === undefined) return nil();
  if (v instanceof InputRef) return str(v);
  if (typeof v === 'string') return str(v);
  if (typeof v === 'number') return Number.isFinite(v) ? node({ kind: 'number', value: v }) : nil();
  if (typeof v === 'boolean') return node({ kind: 'boolean', value: v });
  if (Array.isArray(v)) return vec(v.map(data));
  if (typeof v === 'object' && made.has(v)) return v as Code;
  if (typeof v !== 'object') return nil();
  return node({ kind: 'map', entries: Object.entries(v as Record<string, unknown>).map(([k, x]) => [NAME.test(k) ? kw(k) : str(k), data(x)]) });
}

/** One plan: `;;` comment lines (each text made safe by comment()), then the forms. */
export function printPlan(comments: string[], forms: Code[]): string {
  return [...comments.map(comment), ...forms.map((f) => print(f, 0))].join('\n') + '\n';
}

/** A `;;` comment line: every line break, control or separator becomes a space, so it ends where it should. */
export function comment(text: string): string {
  return `;; ${text.replace(/[\p{Cc}\p{Zl}\p{Zp}]/gu, ' ')}`;
}

export function print(code: Code, column: number): string {
  switch (code.kind) {
    case 'nil': return 'nil';
    case 'number': return Number.isFinite(code.value) ? String(code.value) : 'nil';
    case 'boolean': return String(code.value);
    case 'keyword': return `:${kw(code.name) && code.name}`;
    case 'symbol': return sym(code.name) && code.name;
    case 'text': return quote(code.parts);
    case 'map': return `{${code.entries.map(([k, v]) => `${print(k, 0)} ${print(v, 0)}`).join(' ')}}`;
    case 'vector': {
      if (!code.pairs) return `[${code.items.map((x) => print(x, 0)).join(' ')}]`;
      const rows: string[] = [];
      for (let i = 0; i < code.items.length; i += 2) {
        const name = print(code.items[i]!, 0);
        rows.push(`${name} ${print(code.items[i + 1] ?? nil(), column + 1 + name.length + 1)}`);
      }
      return `[${rows.join(`\n${' '.repeat(column + 1)}`)}]`;
    }
    case 'list': {
      const n = code.inline ?? code.items.length;
      let out = '(';
      code.items.slice(0, n).forEach((x, i) => {
        if (i) out += ' ';
        out += print(x, column + out.length);
      });
      for (const x of code.items.slice(n)) out += `\n${' '.repeat(column + 2)}${print(x, column + 2)}`;
      return `${out})`;
    }
  }
}

/**
 * A quoted string the reader reads back to the same text. Line breaks and
 * other invisible characters are escapes; a `{{` webcap did not put there as
 * an input is written `\{{`, so it stays text and is never filled.
 */
export function quote(parts: TextPart[]): string {
  let out = '"';
  for (const part of parts) {
    if (part instanceof InputRef) { out += `{{${part.name}}}`; continue; }
    for (let i = 0; i < part.length; i++) {
      const ch = part[i]!;
      const code = ch.charCodeAt(0);
      if (ch === '"' || ch === '\\') out += `\\${ch}`;
      else if (ch === '\n') out += '\\n';
      else if (ch === '\t') out += '\\t';
      else if (ch === '\r') out += '\\r';
      else if (ch === '{' && part[i + 1] === '{') out += '\\{';
      else if (highSurrogate(code) && lowSurrogate(part.charCodeAt(i + 1))) { out += ch + part[i + 1]!; i++; } // a pair: one character
      else if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029 || (code >= 0xd800 && code <= 0xdfff)) {
        out += `\\u${code.toString(16).padStart(4, '0')}`;
      } else out += ch;
    }
  }
  return `${out}"`;
}

const highSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
const lowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;
