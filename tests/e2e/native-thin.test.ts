// The native client (native/webcap-thin, run by the bin/webcap sh entry): a
// verb against a warm daemon prints the same output, exits with the same code
// and leaves the same chain entries as the Node thin client; and whenever it
// must not answer (a socket that is not ours alone, something at the socket
// that is not our daemon, an argument that is not UTF-8, a config changed
// since the daemon started) it hands the command line to the Node CLI.
import { spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webcap, type CliRun } from '../helpers/cli.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir } from '../helpers/host.js';
import { findChromium } from '../../sidecar/browser/find-chromium.js';

const built = existsSync(resolve('native/webcap-thin'));
const entry = resolve('bin/webcap');

/** The sh entry as an agent's shell runs it: no terminal, the same environment as helpers/cli.ts gives the Node CLI. */
function webcapSh(args: string[], cwd: string, env: Record<string, string>): Promise<CliRun> {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(entry, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, WEBCAP_CONFIG: '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (code) => done({ code, stdout, stderr, ms: Date.now() - started }));
  });
}

let site: FixtureServer;
let dir: string;
const config = () => join(dir, 'agent_config.toml');
// A value for one of the variables the config's digest covers, so the native client's hashing of it is exercised.
const ENV = { WEBCAP_DAEMON: '1', WEBCAP_CALLER: 'native-a', WEBCAP_CHROMIUM: (await findChromium())!.path };
const viaNode = (args: string[], env: Record<string, string> = {}) => webcap(['--config', config(), ...args], dir, { ...ENV, ...env });
// strict: a fall-back exits 125 with its reason, so a verb here is known to be the native client's answer.
const viaNative = (args: string[], env: Record<string, string> = {}) => webcapSh(['--config', config(), ...args], dir, { ...ENV, WEBCAP_THIN_TRACE: 'strict', ...env });
const traced = (args: string[], env: Record<string, string> = {}) => webcapSh(['--config', config(), ...args], dir, { ...ENV, WEBCAP_THIN_TRACE: '1', ...env });
const calls = () => readFileSync(join(dir, 'chain.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>)
  .filter((e) => e.kind === 'call').map((e) => ({ kind: e.kind, capability: e.capability, params: e.params }));
const same = (a: CliRun, b: CliRun) => expect({ code: a.code, stdout: a.stdout, stderr: a.stderr }).toEqual({ code: b.code, stdout: b.stdout, stderr: b.stderr });
const socket = () => join(dir, '.webcap', 'daemon.sock');

beforeAll(async () => {
  site = await serve({
    '/': (_q, r) => send(r, html(`<h1>Hi</h1><label for="q">Query</label><input id="q">
      <button onclick="document.getElementById('o').textContent='got '+document.getElementById('q').value">Go</button><p id="o">none</p>`)),
  });
  dir = tempDir('webcap-native-');
  // Quotes, a backslash, a tab and a non-ASCII letter: the native client hashes the contents as JSON text.
  writeFileSync(config(), '# café "quoted" \\ and\ta tab\n[capabilities.browser]\ndomains_allowlist = ["127.0.0.1"]\nrespect_robots = false\n\n[network]\nallow_private = ["127.0.0.1"]\n\n[chain]\npath = "chain.jsonl"\n');
});
afterAll(async () => {
  await webcap(['--config', config(), 'daemon', 'stop'], dir, { WEBCAP_DAEMON: '1' });
  await site?.close();
});

describe.skipIf(!built)('the native client against a warm daemon (skipped when native/webcap-thin is not built: npm run setup builds it)', { timeout: 300_000 }, () => {
  it('prints, exits and records each verb as the Node thin client does', async () => {
    const first = await viaNode(['open', site.url('127.0.0.1', '/')]); // starts the daemon
    expect(first.code, first.stderr).toBe(0);
    const opened = await viaNative(['open', site.url('127.0.0.1', '/')]);
    expect(opened.code, opened.stderr).toBe(0);
    expect(opened.stdout.replace(/^s\d+/, 'S')).toBe(first.stdout.replace(/^s\d+/, 'S'));

    const snapNative = await viaNative(['snapshot']);
    const snapNode = await viaNode(['snapshot']);
    same(snapNative, snapNode);
    expect(snapNative.stdout).toMatch(/^- textbox "Query" \[ref=e\d+\]$/m); // the outline, not JSON
    const ref = /textbox "Query" \[ref=(e\d+)\]/.exec(snapNative.stdout)![1];

    const text = 'text with "quotes", \\ \n and é';
    same(await viaNative(['fill', ref, text]), await viaNode(['fill', ref, text]));
    same(await viaNative(['click', 'text=Go']), await viaNode(['click', 'text=Go']));
    const json = await viaNative(['--json', 'extract', '#o']);
    same(json, await viaNode(['--json', 'extract', '#o']));
    expect(JSON.parse(json.stdout).items[0].text).toContain('"quotes", \\');
    expect(json.stdout).toContain('é');
    same(await viaNative(['snapshot', '--json']), await viaNode(['snapshot', '--json']));

    // Errors: another caller has no session here; a named session that does not exist; --json's error object.
    const noSession = await viaNative(['snapshot'], { WEBCAP_CALLER: 'native-b' });
    same(noSession, await viaNode(['snapshot'], { WEBCAP_CALLER: 'native-b' }));
    expect([noSession.code, noSession.stderr]).toEqual([1, expect.stringMatching(/^error: session_not_found: no session opened from this shell \(caller named:native-b\)/)]);
    const named = await viaNative(['--json', 'click', 'e1', '--session', 'nope']);
    same(named, await viaNode(['--json', 'click', 'e1', '--session', 'nope']));
    expect(named.code).toBe(1);
    expect(JSON.parse(named.stdout).error.code).toBe('session_not_found');

    // Each native verb above sat next to the same Node one: the chain holds them in pairs, entry for entry.
    const entries = calls().slice(-14);
    expect(entries).toHaveLength(14);
    for (let i = 0; i < entries.length; i += 2) expect(entries[i]).toEqual(entries[i + 1]);
    expect(entries.map((e) => e.capability)).toEqual(expect.arrayContaining(['web.snapshot', 'web.fill', 'web.click', 'web.extract']));
  });

  it('never uses a socket others may use or that another user owns: the Node CLI refuses it', async () => {
    const before = calls().length;
    chmodSync(socket(), 0o666);
    try {
      const loose = await traced(['snapshot']);
      expect(loose.stderr).toContain('webcap-thin: falling back to node: a daemon socket that is not ours alone');
      expect([loose.code, loose.stderr]).toEqual([1, expect.stringMatching(/error: invalid_params: refusing the daemon socket .*its mode 666/)]);
    } finally {
      chmodSync(socket(), 0o600);
    }
    if (process.getuid?.() === 0) { // only root can hand the socket to another uid
      chownSync(socket(), 4242, 4242);
      try {
        const foreign = await traced(['snapshot']);
        expect(foreign.stderr).toContain('webcap-thin: falling back to node: a daemon socket that is not ours alone');
        expect([foreign.code, foreign.stderr]).toEqual([1, expect.stringMatching(/refusing the daemon socket .*belongs to uid 4242/)]);
      } finally {
        chownSync(socket(), 0, 0);
      }
    }
    expect(calls().length).toBe(before); // no call reached the daemon
  });

  it('falls back on an argument that is not UTF-8, sending nothing', async () => {
    const before = calls().length;
    // A byte 0xff only a shell can pass; Node reads it as U+FFFD, so only the Node CLI may say what it means.
    const run = await new Promise<CliRun>((done) => {
      const child = spawn('/bin/sh', ['-c', `exec "$0" --config "$1" click "$(printf '\\377')" --session nope`, entry, config()],
        { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...ENV, WEBCAP_CONFIG: '', WEBCAP_THIN_TRACE: '1' } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => { stdout += d; });
      child.stderr.on('data', (d) => { stderr += d; });
      child.on('close', (code) => done({ code, stdout, stderr, ms: 0 }));
    });
    expect(run.stderr).toContain('webcap-thin: falling back to node: a string that is not valid UTF-8');
    expect([run.code, run.stderr]).toEqual([1, expect.stringMatching(/error: session_not_found/)]); // the Node CLI's answer
    expect(calls().slice(before).map((e) => (e.params as { selector?: string }).selector)).toEqual(['\ufffd']);
  });

  it('falls back when the config changed since the daemon started, and the Node CLI restarts the daemon', async () => {
    writeFileSync(config(), `${readFileSync(config(), 'utf8')}\n# edited\n`);
    const run = await traced(['open', site.url('127.0.0.1', '/')]);
    expect(run.stderr).toContain('webcap-thin: falling back to node: the daemon says the Node CLI must answer');
    expect([run.code, run.stderr]).toEqual([0, expect.stringMatching(/restarting it for this configuration/)]);
    // The restarted daemon serves the edited config: the native client answers again.
    const again = await viaNative(['snapshot']);
    expect(again.code, again.stderr).toBe(0);
  });
});

describe.skipIf(!built)('something at the socket that is not our daemon (skipped when native/webcap-thin is not built)', { timeout: 120_000 }, () => {
  // Each fake answers once and closes (the Node CLI then reports the lost daemon), or keeps the first peer (the
  // native client) waiting in silence: the native client must hand over, not hang or act.
  for (const [what, answer] of [['garbage', 'HTTP/1.1 200 OK\r\n\r\n{"type":"hello"}\n'], ['nothing (closes at once)', ''], ['an oversized frame', 'NAME 99999999999\n'], ['nothing and stays open', null]] as const) {
    it(`falls back when it answers ${what}`, async () => {
      const fakeDir = tempDir('webcap-native-fake-');
      writeFileSync(join(fakeDir, 'agent_config.toml'), '[logging]\nlevel = "warn"\n');
      const { mkdirSync } = await import('node:fs');
      mkdirSync(join(fakeDir, '.webcap'));
      let connections = 0;
      const fake = createServer((s) => {
        connections++;
        s.on('error', () => undefined);
        if (answer === null && connections === 1) return; // heard nothing, kept open
        s.end(answer ?? '');
      });
      const path = join(fakeDir, '.webcap', 'daemon.sock');
      await new Promise<void>((done) => fake.listen(path, done));
      chmodSync(path, 0o600);
      try {
        const env = { WEBCAP_DAEMON: '1', WEBCAP_CALLER: 'fake' };
        const native = await webcapSh(['snapshot'], fakeDir, { ...env, WEBCAP_THIN_TRACE: '1' });
        const node = await webcap(['snapshot'], fakeDir, env);
        const [trace, ...rest] = native.stderr.split('\n');
        expect(trace).toMatch(/^webcap-thin: falling back to node: (no hello from the daemon|a hello that is not the daemon's|the daemon hung up)$/);
        if (answer === null) expect(trace).toContain('no hello from the daemon');
        expect({ code: native.code, stdout: native.stdout, stderr: rest.join('\n') }).toEqual({ code: node.code, stdout: node.stdout, stderr: node.stderr });
        expect(connections).toBeGreaterThan(1); // the native client's, then the Node CLI's own
      } finally {
        fake.close();
      }
    });
  }
});
