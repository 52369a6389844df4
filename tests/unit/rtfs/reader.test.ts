import { describe, expect, it } from 'vitest';
import { parsePlan } from '../../../host/rtfs/index.js';
import { WebcapError } from '../../../manifests/errors.js';

describe('RTFS reader', () => {
  it('reads atoms with positions', () => {
    const nodes = parsePlan('42 -7 3.5 -0.25 1e3 true false nil :foo :web.open :ccos.user.ask sym - "hi"');
    expect(nodes).toMatchObject([
      { kind: 'number', value: 42 },
      { kind: 'number', value: -7 },
      { kind: 'number', value: 3.5 },
      { kind: 'number', value: -0.25 },
      { kind: 'number', value: 1000 },
      { kind: 'boolean', value: true },
      { kind: 'boolean', value: false },
      { kind: 'nil' },
      { kind: 'keyword', name: 'foo' },
      { kind: 'keyword', name: 'web.open' },
      { kind: 'keyword', name: 'ccos.user.ask' },
      { kind: 'symbol', name: 'sym' },
      { kind: 'symbol', name: '-' },
      { kind: 'string', value: 'hi' },
    ]);
    expect(nodes[1]).toMatchObject({ line: 1, column: 4 });
  });

  it('decodes string escapes', () => {
    const [node] = parsePlan(String.raw`"a\nb\tc\"d\\e"`);
    expect(node).toMatchObject({ kind: 'string', value: 'a\nb\tc"d\\e' });
  });

  it('reads nested collections, skipping comments and commas', () => {
    const src = '(do ; comment (not read\n  [1, 2,3] {:a 1, :b "x;y"})';
    const [root] = parsePlan(src);
    expect(root).toMatchObject({
      kind: 'list', line: 1, column: 1,
      items: [
        { kind: 'symbol', name: 'do' },
        { kind: 'vector', line: 2, column: 3, items: [{ value: 1 }, { value: 2 }, { value: 3 }] },
        { kind: 'map', line: 2, column: 12, entries: [[{ name: 'a' }, { value: 1 }], [{ name: 'b' }, { value: 'x;y' }]] },
      ],
    });
  });

  it('accepts a comment on the last line without a newline, and blank input', () => {
    expect(parsePlan('(do 1) ;; done')).toHaveLength(1);
    expect(parsePlan('  ;; only a comment')).toEqual([]);
    expect(parsePlan('')).toEqual([]);
  });

  it('tracks columns after multi-line strings', () => {
    const [, second] = parsePlan('"a\nbc" :k');
    expect(second).toMatchObject({ kind: 'keyword', line: 2, column: 5 });
  });

  it.each([
    ['unclosed list', '(do\n  (call :web.open {:url "x"})', 1, 1, /unclosed '\('/],
    ['unclosed vector', '(let [a 1\n', 1, 6, /unclosed '\['/],
    ['stray closer', '(do 1))', 1, 7, /unexpected '\)'/],
    ['mismatched closer', '(do\n  [1 2)', 2, 7, /expected '\]' to close '\[' at 2:3, found '\)'/],
    ['unterminated string', '(log\n  "abc)', 2, 3, /unterminated string/],
    ['unterminated escape', '"abc\\', 1, 1, /unterminated string/],
    ['unknown escape', '"a\\qb"', 1, 3, /unknown escape '\\q'/],
    ['odd map entries', '(call :web.open\n   {:url})', 2, 4, /even number of forms/],
    ['empty keyword', '(get m :)', 1, 8, /invalid keyword ':'/],
  ])('%s → invalid_params at line:column', (_name, src, line, column, message) => {
    let err: unknown;
    try { parsePlan(src); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(WebcapError);
    const w = err as WebcapError;
    expect(w.code).toBe('invalid_params');
    expect(w.message.startsWith(`plan:${line}:${column}: `)).toBe(true);
    expect(w.message).toMatch(message);
    expect(w.details).toEqual({ line, column });
  });
});
