// The reader is bounded: it looks at each character a fixed number of times
// whatever the plan's shape (counted, not timed), refuses a plan over
// [plans] max_bytes before reading it, and points a missing closer at the
// form that opens it.
import { describe, expect, it } from 'vitest';
import { readCounting } from '../../../host/rtfs/reader.js';
import { parsePlan } from '../../../host/rtfs/index.js';

const SHAPES: Record<string, (n: number) => string> = {
  'one long string in a log form': (n) => `(log "${'x'.repeat(n)}")`,
  'a string of escapes': (n) => `(log "${'\\n\\"'.repeat(n / 4)}")`,
  'many short strings on one line': (n) => `[${'"ab" '.repeat(n / 5)}]`,
  'a string of {{placeholders}}': (n) => `(log "${'{{a}}\\{{b}}'.repeat(n / 12)}")`,
  'one long comment': (n) => `;; ${'c'.repeat(n)}\nnil`,
  'many comments': (n) => ';\n'.repeat(n / 2),
  'many atoms': (n) => `[${'ab '.repeat(n / 3)}]`,
  'many newlines in a string': (n) => `"${'\n'.repeat(n)}"`,
  'nested vectors': (n) => `${'[1 '.repeat(200)}${']'.repeat(200)} ${'[] '.repeat(n / 3)}`,
};

describe('reader: linear in its input', () => {
  for (const [shape, make] of Object.entries(SHAPES)) {
    it(`${shape}: 4× the input is at most 4× the characters looked at, and at most 2 looks per character`, () => {
      const small = make(50_000);
      const large = make(200_000);
      const a = readCounting(small).looked;
      const b = readCounting(large).looked;
      expect(b / a).toBeLessThan(4.2);
      expect(b).toBeLessThanOrEqual(2 * large.length);
    });
  }

  it('reads back the long string it was given', () => {
    const [node] = readCounting(`(log "${'x'.repeat(300_000)}")`).nodes;
    expect((node as { items: { value?: string }[] }).items[1]!.value).toHaveLength(300_000);
  });
});

describe('reader: [plans] max_bytes', () => {
  it('refuses a plan over the limit with invalid_params, counting UTF-8 bytes', () => {
    const euros = `"${'€'.repeat(400_000)}"`; // 400,002 UTF-16 units, 1.2 MB of UTF-8
    expect(() => parsePlan(euros)).toThrowError(expect.objectContaining({ code: 'invalid_params', details: expect.objectContaining({ limit: 'plans.max_bytes', max_bytes: 1048576 }) }));
    expect(() => parsePlan(euros, 2_000_000)).not.toThrow();
    expect(() => parsePlan('(do 1)', 5)).toThrowError(/more than \[plans\] max_bytes \(5\)/);
  });
});

describe('reader: where an unclosed form opens', () => {
  const at = (src: string) => { try { parsePlan(src); } catch (e) { return (e as Error).message; } return 'no error'; };

  it('a missing ) inside a body points at the form that lost it, not at the outer one', () => {
    expect(at('(do\n  (call :web.open {:url "http://a.test/"}\n  (call :web.wait {:time 1}))')).toMatch(/^plan:2:3: unclosed '\(': this form is never closed \(the form at 3:3 is indented as if a '\)' ended it before\)/);
  });

  it('with nothing indented wrong, the innermost unclosed form', () => {
    expect(at('(do\n  (log "a")\n  (log "b"')).toMatch(/^plan:3:3: unclosed '\('/);
    expect(at('(do (log "a")')).toMatch(/^plan:1:1: unclosed '\('/);
  });
});
