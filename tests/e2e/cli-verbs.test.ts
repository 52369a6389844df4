// The short CLI verbs through the daemon: open, snapshot (its outline as text),
// fill, click, extract (text and --json), close — each the web.* call with its
// chain entry, the session carried per caller ($WEBCAP_CALLER) by the daemon,
// never shared with another caller; against a warm daemon a verb loads no host.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webcap } from '../helpers/cli.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir } from '../helpers/host.js';

let site: FixtureServer;
let dir: string;
const run = (caller: string, ...args: string[]) => webcap(['--config', join(dir, 'agent_config.toml'), ...args], dir, { WEBCAP_DAEMON: '1', WEBCAP_CALLER: caller });

beforeAll(async () => {
  site = await serve({
    '/': (_q, r) => send(r, html(`<h1>Hi</h1><label for="q">Query</label><input id="q">
      <button onclick="document.getElementById('o').textContent='got '+document.getElementById('q').value">Go</button><p id="o">none</p>`)),
  });
  dir = tempDir('webcap-verbs-');
  writeFileSync(join(dir, 'agent_config.toml'), '[capabilities.browser]\ndomains_allowlist = ["127.0.0.1"]\nrespect_robots = false\n\n[network]\nallow_private = ["127.0.0.1"]\n\n[chain]\npath = "chain.jsonl"\n');
});
afterAll(async () => {
  await webcap(['--config', join(dir, 'agent_config.toml'), 'daemon', 'stop'], dir, { WEBCAP_DAEMON: '1' });
  await site?.close();
});

describe('webcap open / snapshot / fill / click / extract / close', { timeout: 240_000 }, () => {
  it('drives one page from a shell, each verb a governed call in the chain', async () => {
    const opened = await run('a', 'open', site.url('127.0.0.1', '/'));
    expect(opened.code, opened.stderr).toBe(0);
    expect(opened.stdout).toMatch(/^s\d+ 200 http:\/\/127\.0\.0\.1:\d+\//);
    const snap = await run('a', 'snapshot');
    expect(snap.stdout).toMatch(/^- textbox "Query" \[ref=e\d+\]$/m); // the outline, not escaped JSON
    const ref = /textbox "Query" \[ref=(e\d+)\]/.exec(snap.stdout)![1];
    expect((await run('a', 'fill', ref, 'hello')).code).toBe(0);
    expect((await run('a', 'click', 'text=Go')).code).toBe(0);
    expect((await run('a', 'extract', '#o')).stdout.trim()).toBe('{"text":"got hello"}');
    expect(JSON.parse((await run('a', '--json', 'extract', '#o')).stdout)).toMatchObject({ items: [{ text: 'got hello' }] });

    // Another caller has no session of its own yet: it does not act in caller a's.
    const other = await run('b', 'extract', '#o');
    expect(other.code).not.toBe(0);
    expect(other.stderr).toMatch(/error: session_not_found: no session opened from this shell/);

    // Against the warm daemon the verb is answered by the thin client: no commander, no config loader, no host.
    const log = join(dir, 'imports.log');
    const traced = await webcap(['--config', join(dir, 'agent_config.toml'), 'extract', '#o'], dir,
      { WEBCAP_DAEMON: '1', WEBCAP_CALLER: 'a', WEBCAP_IMPORT_LOG: log, NODE_OPTIONS: `--import=${resolve('tests/helpers/record-imports.mjs')}` });
    expect(traced.stdout.trim()).toBe('{"text":"got hello"}');
    const loaded = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    expect(loaded.some((u) => u.endsWith('/dist/host/cli/thin-client.js'))).toBe(true);
    expect(loaded.filter((u) => /node_modules\/(commander|ajv|smol-toml)\/|\/dist\/host\/(host|cli|config\/load)\.js$/.test(u))).toEqual([]);

    expect((await run('a', 'close')).stdout.trim()).toBe('closed');
    // The session is the daemon's to remember per caller: no second session file in the workspace.
    expect(existsSync(join(dir, '.webcap', '.webcap-cli'))).toBe(false);

    // An edited config: the warm daemon serves the old one, so the thin client hands over to the full CLI, which restarts it.
    writeFileSync(join(dir, 'agent_config.toml'), `${readFileSync(join(dir, 'agent_config.toml'), 'utf8')}\n# edited\n`);
    const again = await run('a', 'open', site.url('127.0.0.1', '/'));
    expect([again.code, again.stderr]).toEqual([0, expect.stringMatching(/restarting it for this configuration/)]);
    const calls = readFileSync(join(dir, 'chain.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
      .filter((e) => e.kind === 'call' && e.result).map((e) => e.capability);
    expect(calls).toEqual(expect.arrayContaining(['web.open', 'web.snapshot', 'web.fill', 'web.click', 'web.extract', 'web.close']));
  });
});
