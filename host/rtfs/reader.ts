// RTFS reader: source text → syntax tree. Every node keeps its line and column
// so evaluation errors can point at the exact form a plan author wrote.
import { WebcapError, type ErrorCode } from '../../manifests/errors.js';

export interface Where { line: number; column: number }

export type Node = Where & (
  | { kind: 'list'; items: Node[] }
  | { kind: 'vector'; items: Node[] }
  | { kind: 'map'; entries: [Node, Node][] }
  | { kind: 'keyword' | 'symbol'; name: string }
  | { kind: 'string'; value: string }
  | { kind: 'number'; value: number }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'nil' }
);

export function planError(where: Where, message: string, code: ErrorCode = 'invalid_params', details: Record<string, unknown> = {}): WebcapError {
  return new WebcapError(code, `plan:${where.line}:${where.column}: ${message}`,
    { line: where.line, column: where.column, ...details });
}

/** Deepest nesting of ( [ { the reader accepts: deeper is a parse error, never a stack overflow. */
export const MAX_NESTING = 256;

const CLOSERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
const DELIMITERS = new Set(['(', ')', '[', ']', '{', '}', '"', ';']);
const NUMBER = /^[+-]?\d+(\.\d+)?([eE][+-]?\d+)?$/;
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\' };

function isSpace(ch: string): boolean {
  return ch === ',' || /\s/.test(ch);
}

class Reader {
  private pos = 0;
  private depth = 0;
  private line = 1;
  private column = 1;

  constructor(private readonly src: string) {}

  readAll(): Node[] {
    const nodes: Node[] = [];
    for (;;) {
      this.skipBlank();
      if (this.pos >= this.src.length) return nodes;
      nodes.push(this.readForm());
    }
  }

  private here(): Where {
    return { line: this.line, column: this.column };
  }

  private advance(): string {
    const ch = this.src[this.pos++]!;
    if (ch === '\n') { this.line++; this.column = 1; } else { this.column++; }
    return ch;
  }

  private skipBlank(): void {
    while (this.pos < this.src.length) {
      const ch = this.src[this.pos]!;
      if (ch === ';') {
        while (this.pos < this.src.length && this.src[this.pos] !== '\n') this.advance();
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
      if (this.pos >= this.src.length) throw planError(at, `unclosed '${open}': expected '${close}' before end of plan`);
      const ch = this.src[this.pos]!;
      if (ch === close) { this.advance(); break; }
      if (ch === ')' || ch === ']' || ch === '}') {
        throw planError(this.here(), `expected '${close}' to close '${open}' at ${at.line}:${at.column}, found '${ch}'`);
      }
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
    for (;;) {
      if (this.pos >= this.src.length) throw planError(at, 'unterminated string');
      const ch = this.advance();
      if (ch === '"') return { kind: 'string', value, ...at };
      if (ch !== '\\') { value += ch; continue; }
      const escAt = { line: this.line, column: this.column - 1 };
      if (this.pos >= this.src.length) throw planError(at, 'unterminated string');
      const esc = this.advance();
      const mapped = ESCAPES[esc];
      if (mapped === undefined) throw planError(escAt, `unknown escape '\\${esc}' in string`);
      value += mapped;
    }
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

/** Parses a whole plan; throws `invalid_params` with `plan:LINE:COL:` on bad syntax. */
export function read(source: string): Node[] {
  return new Reader(source).readAll();
}
