// The daemon's side of the native client (host/daemon/native-op.ts): an argv
// becomes exactly the call the Node thin client would send, or nothing at all
// (the native client then runs the full CLI), and the answer travels in frames
// printed as the Node thin client prints it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { callOfArgv, FALLBACK, helloFrames, nativeReplies } from '../../host/daemon/native-op.js';
import { parseVerb } from '../../host/cli/thin-args.js';
import { SESSION_OPTION, VERBS } from '../../host/cli/verb-table.js';
import { projectRoot } from '../../manifests/load.js';

const req = (argv: string[], over: Record<string, unknown> = {}) =>
  ({ op: 'argv' as const, argv, cwd: '/w', config: '/w/agent_config.toml', config_id: 'abc', caller: 'named:a', tty: false as const, ...over });

describe('an argv request', () => {
  it('becomes the Node thin client\'s call', () => {
    expect(callOfArgv(req(['fill', 'e3', 'hi "there"', '--session', 's2', '-y']))?.call).toEqual({
      op: 'call', id: 'web.fill', params: { ref: 'e3', text: 'hi "there"', session: 's2' }, caller: 'named:a', yes: true, tty: false,
      config: '/w/agent_config.toml', config_id: 'abc',
    });
    expect(callOfArgv(req(['--config', 'agent_config.toml', 'snapshot']))?.call.id).toBe('web.snapshot');
    expect(callOfArgv(req(['--config=', 'snapshot'], { config: null }))?.call.config).toBeNull();
  });

  it('runs nothing when the Node thin client would hand over, or the client\'s config is not the one its --config names', () => {
    for (const argv of [['call', 'web.open'], ['snapshot', '--help'], ['--mode', 'compact', 'snapshot'], ['click'], ['extract', '.a', '--schema', '{bad'], ['--config', 'other.toml', 'snapshot']]) {
      expect(callOfArgv(req(argv)), argv.join(' ')).toBeUndefined();
    }
    expect(callOfArgv(req(['snapshot'], { tty: true }))).toBeUndefined(); // a terminal's questions belong to the Node CLI
    expect(callOfArgv(req(['snapshot'], { argv: ['snapshot', 3] }))).toBeUndefined();
  });
});

describe('frames', () => {
  it('print a result, an error and a notice as the Node thin client does, and a refused config as FALLBACK', () => {
    const sent: string[] = [];
    const verb = parseVerb(['--json', 'snapshot'])!;
    const reply = nativeReplies((b) => sent.push(b.toString()), verb, 'named:a');
    reply({ type: 'notice', message: 'webcap console: é' });
    reply({ type: 'result', value: { snapshot: '- a' } });
    expect(sent.join('')).toBe('OUT 2 19\nwebcap console: é\nOUT 1 19\n{"snapshot":"- a"}\nEXIT 0\n');
    sent.length = 0;
    nativeReplies((b) => sent.push(b.toString()), parseVerb(['snapshot'])!, 'named:a')({ type: 'error', error: { code: 'session_not_found', message: 'x' } });
    expect(sent.join('')).toMatch(/^OUT 2 \d+\nerror: session_not_found: no session opened from this shell \(caller named:a\).*\nEXIT 1\n$/s);
    sent.length = 0;
    reply({ type: 'error', error: { code: 'invalid_params', message: 'serves another', details: { reason: 'daemon_config_differs' } } });
    expect(sent).toEqual([FALLBACK]);
    expect(helloFrames(['A_ENV', 'WEBCAP_CHROMIUM'], true).toString()).toBe('NAME 5\nA_ENVNAME 15\nWEBCAP_CHROMIUMHELLO 1\n');
  });
});

describe('the native client\'s copy of the verb table', () => {
  // native/webcap-thin.c keeps the verb names and the options that take a value as C lists. A verb or
  // option added here and not there only costs speed (it hands over to Node), but the lists must agree.
  const source = readFileSync(join(projectRoot(), 'native', 'webcap-thin.c'), 'utf8');
  const cList = (name: string) => [...(new RegExp(`static const char \\*${name}\\[\\] = \\{([^}]*)\\}`).exec(source)?.[1] ?? '')
    .matchAll(/"([^"]+)"/g)].map((m) => m[1]).sort();

  it('names the same verbs and the same valued options', () => {
    expect(cList('VERB_NAMES')).toEqual(VERBS.map((v) => v.name).sort());
    const valued = new Set(['config', SESSION_OPTION.flag, ...VERBS.flatMap((v) => v.options?.map((o) => o.flag) ?? [])]);
    expect(cList('VALUED')).toEqual([...valued].sort());
  });

  it('and bin/webcap.js tries the thin client for exactly these verbs', () => {
    const entry = readFileSync(join(projectRoot(), 'bin', 'webcap.js'), 'utf8');
    const listed = /word && \[([^\]]*)\]\.includes\(word\)/.exec(entry)?.[1] ?? '';
    expect([...listed.matchAll(/'([^']+)'/g)].map((m) => m[1]).sort()).toEqual(cList('VERB_NAMES'));
  });
});
