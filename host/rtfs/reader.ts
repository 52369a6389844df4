// RTFS reader: source text → syntax tree. Every node keeps its line and column
// so evaluation errors can point at the exact form a plan author wrote. One
// pass, each character looked at a bounded number of times (strings and
// comments are taken in runs, not char by char concatenation), and plans
// larger than [plans] max_bytes are refused before the first character.
import { WebcapError, type ErrorCode } from '../../manifests/errors.js';

export interface Where { line: number; column: number }

export type Node = Where & (
  | { kind: 'list'; items: Node[] }
  | { kind: 'vector'; items: Node[] }
  | { kind: 'map'; entries: [Node, Node][] }
  | { kind: 'keyword' | 'symbol'; name: string }
  | { kind: 'string'; value: string; parts?: StringPart[] }
  | { kind: 'number'; value: number }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'nil' }
);

/** A string holding `{{name}}` placeholders: text runs and the names to fill (webcap run --input). */
export type StringPart = string | { input: string };

export function planError(where: Where, message: string, code: ErrorCode = 'invalid_params', details: Record<string, unknown> = {}): WebcapError {
  return new WebcapError(code, `plan:${where.line}:${where.column}: ${message}`,
    { line: where.line, column: where.column, ...details });
}

/** Deepest nesting of ( [ { the reader accepts: deeper is a parse error, never a stack overflow. */
export const MAX_NESTING = 256;

const CLOSERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
const DELIMITERS = new Set(['(', ')', '[', ']', '{', '}', '"', ';']);
const NUMBER = /^[+-]?\d+(\.\d+)?([eE][+-]?\d+)?$/;
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\', '{': '{' };
const PLACEHOLDER = /\{\{(\w+)\}\}/g;

/** Default for [plans] max_bytes: far above any plan a person or an export writes. */
export const DEFAULT_MAX_BYTES = 1024 * 1024;

function isSpace(ch: string): boolean {
  return ch === ' ' || ch === '\n' || ch === ',' || (ch > ' ' && ch < '\u0080' ? false : /\s/.test(ch));
}

class Reader {
  private pos = 0;
  private depth = 0;
  private line = 1;
  private column = 1;
  /** The first form whose contents are indented as if it were closed earlier: where a missing closer most likely belongs. */
  private suspect: { at: Where; open: string; close: string; next: Where } | undefined;
  /** Characters looked at, counted so a test can show the reader is linear without a clock. */
  looked = 0;

  constructor(private readonly src: string) {}

  readAll(): Node[] {
    const nodes: Node[] = [];
    for (;;) {
      this.skipBlank();
      if (this.pos >= this.src.length) return nodes;
      nodes.push(this.readForm());
    }
  }

  private unclosed(at: Where, open: string, close: string): WebcapError {
    const s = this.suspect;
    if (s) {
      return planError(s.at, `unclosed '${s.open}': this form is never closed (the form at ${s.next.line}:${s.next.column} is indented as if a '${s.close}' ended it before)`);
    }
    return planError(at, `unclosed '${open}': expected '${close}' before end of plan`);
  }

  private here(): Where {
    return { line: this.line, column: this.column };
  }

  private advance(): string {
    this.looked++;
    const ch = this.src[this.pos++]!;
    if (ch === '\n') { this.line++; this.column = 1; } else { this.column++; }
    return ch;
  }

  private skipBlank(): void {
    while (this.pos < this.src.length) {
      const ch = this.src[this.pos]!;
      if (ch === ';') {
        let nl = this.pos;
        while (nl < this.src.length && this.src.charCodeAt(nl) !== 10) nl++;
        this.skipTo(nl);
      } else if (isSpace(ch)) {
        this.advance();
      } else {
        return;
      }
    }
  }

  private readForm(): Node {
    const at = this.here();
    const ch = this.src[this.pos]!;
    if (ch in CLOSERS) return this.readCollection(at, ch);
    if (ch === ')' || ch === ']' || ch === '}') throw planError(at, `unexpected '${ch}'`);
    if (ch === '"') return this.readString(at);
    return this.readAtom(at);
  }

  private readCollection(at: Where, open: string): Node {
    const close = CLOSERS[open]!;
    if (++this.depth > MAX_NESTING) throw planError(at, `forms nested deeper than ${MAX_NESTING} levels`);
    this.advance();
    const items: Node[] = [];
    for (;;) {
      this.skipBlank();
      if (this.pos >= this.src.length) throw this.unclosed(at, open, close);
      const ch = this.src[this.pos]!;
      if (ch === close) { this.advance(); break; }
      if (ch === ')' || ch === ']' || ch === '}') {
        throw planError(this.here(), `expected '${close}' to close '${open}' at ${at.line}:${at.column}, found '${ch}'`);
      }
      // A form on a later line at or left of this one's opening reads as if this one had ended: remember the first.
      if (!this.suspect && this.line > at.line && this.column <= at.column) this.suspect = { at, open, close, next: this.here() };
      items.push(this.readForm());
    }
    this.depth--;
    if (open === '(') return { kind: 'list', items, ...at };
    if (open === '[') return { kind: 'vector', items, ...at };
    if (items.length % 2 !== 0) throw planError(at, 'map literal needs an even number of forms (key value pairs)');
    const entries: [Node, Node][] = [];
    for (let i = 0; i < items.length; i += 2) entries.push([items[i]!, items[i + 1]!]);
    return { kind: 'map', entries, ...at };
  }

  private readString(at: Where): Node {
    this.advance();
    let value = '';
    const escapedBraces: number[] = [];
    for (;;) {
      const runEnd = this.plainRun();
      if (runEnd > this.pos) value += this.src.slice(this.pos, runEnd);
      this.pos = runEnd;
      if (this.pos >= this.src.length) throw planError(at, 'unterminated string');
      const ch = this.advance();
      if (ch === '"') break;
      const escAt = { line: this.line, column: this.column - 1 };
      if (this.pos >= this.src.length) throw planError(at, 'unterminated string');
      const esc = this.advance();
      const mapped = esc === 'u' ? this.unicodeEscape(escAt) : ESCAPES[esc];
      if (mapped === undefined) throw planError(escAt, `unknown escape '\\${esc}' in string`);
      if (esc === '{') escapedBraces.push(value.length);
      value += mapped;
    }
    const parts = placeholders(value, escapedBraces);
    return parts ? { kind: 'string', value, parts, ...at } : { kind: 'string', value, ...at };
  }

  /** The end of the run of plain string characters from here (the next '"' or '\\'), line and column kept right. */
  private plainRun(): number {
    let end = this.pos;
    let line = this.line;
    let column = this.column;
    for (; end < this.src.length; end++) {
      const c = this.src.charCodeAt(end);
      if (c === 34 || c === 92) break;
      if (c === 10) { line++; column = 1; } else column++;
    }
    this.looked += end - this.pos;
    this.line = line;
    this.column = column;
    return end;
  }

  /** Moves to `end`, keeping line and column right. */
  private skipTo(end: number): void {
    for (let i = this.pos; i < end; i++) {
      if (this.src.charCodeAt(i) === 10) { this.line++; this.column = 1; } else this.column++;
    }
    this.looked += end - this.pos;
    this.pos = end;
  }

  private unicodeEscape(at: Where): string {
    const hex = this.src.slice(this.pos, this.pos + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw planError(at, "'\\u' in a string needs four hex digits, e.g. \\u00e9");
    this.skipTo(this.pos + 4);
    return String.fromCharCode(parseInt(hex, 16));
  }

  private readAtom(at: Where): Node {
    let text = '';
    while (this.pos < this.src.length) {
      const ch = this.src[this.pos]!;
      if (isSpace(ch) || DELIMITERS.has(ch)) break;
      text += this.advance();
    }
    if (text === 'nil') return { kind: 'nil', ...at };
    if (text === 'true' || text === 'false') return { kind: 'boolean', value: text === 'true', ...at };
    if (NUMBER.test(text)) return { kind: 'number', value: Number(text), ...at };
    if (text.startsWith(':')) {
      const name = text.slice(1);
      if (name === '' || name.startsWith(':')) throw planError(at, `invalid keyword '${text}'`);
      return { kind: 'keyword', name, ...at };
    }
    return { kind: 'symbol', name: text, ...at };
  }
}

/** `{{name}}` runs of a string, unless a brace of it was written `\\{` (then it is text). */
function placeholders(value: string, escapedBraces: number[]): StringPart[] | undefined {
  if (!value.includes('{{')) return undefined;
  const escaped = new Set(escapedBraces);
  const parts: StringPart[] = [];
  let from = 0;
  for (const m of value.matchAll(PLACEHOLDER)) {
    if (escaped.has(m.index) || escaped.has(m.index + 1)) continue;
    if (m.index > from) parts.push(value.slice(from, m.index));
    parts.push({ input: m[1]! });
    from = m.index + m[0].length;
  }
  if (!parts.length) return undefined;
  if (from < value.length) parts.push(value.slice(from));
  return parts;
}

/** Refuses a plan over `maxBytes` (UTF-8) before reading it: reading is bounded by configuration, not by luck. */
function checkPlanSize(source: string, maxBytes = DEFAULT_MAX_BYTES): void {
  // Each UTF-16 unit is at most 3 UTF-8 bytes: only a source near the limit needs counting.
  if (source.length * 3 <= maxBytes) return;
  const bytes = Buffer.byteLength(source, 'utf8');
  if (bytes > maxBytes) {
    throw new WebcapError('invalid_params', `plan: the plan is ${bytes} bytes, more than [plans] max_bytes (${maxBytes}); split it or raise the limit`, { limit: 'plans.max_bytes', bytes, max_bytes: maxBytes });
  }
}

/** Parses a whole plan; throws `invalid_params` with `plan:LINE:COL:` on bad syntax or a plan over max_bytes. */
export function read(source: string, maxBytes = DEFAULT_MAX_BYTES): Node[] {
  return readCounting(source, maxBytes).nodes;
}

/** read(), and how many characters the reader looked at (for the linearity test). */
export function readCounting(source: string, maxBytes = DEFAULT_MAX_BYTES): { nodes: Node[]; looked: number } {
  checkPlanSize(source, maxBytes);
  const reader = new Reader(source);
  return { nodes: reader.readAll(), looked: reader.looked };
}
