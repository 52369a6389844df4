// Failures a person can act on, through the real CLI (in-process host).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formRoutes } from '../fixtures/form-pages.js';
import { send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir } from '../helpers/host.js';
import { webcap } from '../helpers/cli.js';

let site: FixtureServer;
let dir: string;
let config: string;
let closedPort: number;

beforeAll(async () => {
  site = await serve({ ...formRoutes, '/robots.txt': (req, res) => send(res, 'down for maintenance', req.headers.host?.startsWith('busy.test') ? 503 : 404, 'text/plain') });
  const nobody = createServer();
  await new Promise<void>((r) => nobody.listen(0, '127.0.0.1', r));
  closedPort = (nobody.address() as { port: number }).port;
  await new Promise((r) => nobody.close(r));
  dir = tempDir();
  config = join(dir, 'agent_config.toml');
  writeFileSync(config, `[capabilities.browser]
domains_allowlist = ["*.test"]
respect_robots = true

[network]
resolve = { "forms.test" = "127.0.0.1", "busy.test" = "127.0.0.1", "down.test" = "127.0.0.1:${closedPort}" }
allow_private = ["127.0.0.1"]

[chain]
path = "chain.jsonl"
`);
});
afterAll(async () => { await site?.close(); });

const plan = (name: string, text: string) => { const f = join(dir, name); writeFileSync(f, text); return f; };

describe('messages a person can act on', () => {
  it('an unreachable site is navigation_failed naming the host and reason, not a robots refusal; 5xx robots stays a disallow', async () => {
    const down = await webcap(['call', 'web.open', JSON.stringify({ url: 'http://down.test/' }), '--config', config]);
    expect([down.code, down.stderr]).toEqual([1, expect.stringMatching(/^error: navigation_failed: cannot reach down\.test: ECONNREFUSED/)]);
    const unknown = await webcap(['call', 'web.open', JSON.stringify({ url: 'http://nowhere.test/' }), '--config', config]);
    expect(unknown.stderr).toMatch(/^error: navigation_failed: .*nowhere\.test.*(ENOTFOUND|EAI_AGAIN|resolved)/);
    const busy = await webcap(['call', 'web.open', JSON.stringify({ url: site.url('busy.test', '/mixed') }), '--config', config]);
    expect(busy.stderr).toMatch(/^error: robots_disallowed:/);
  });

  it('a plan with an unknown symbol, a wrong arity or an unknown capability fails before any call, at plan:LINE:COL', async () => {
    const entries = () => (existsSync(join(dir, 'chain.jsonl')) ? readFileSync(join(dir, 'chain.jsonl'), 'utf8').split('\n').filter(Boolean).length : 0);
    const before = entries();
    const cases: Array<[string, string, RegExp]> = [
      ['(do\n  (call :web.open {:url "http://forms.test/"})\n  (prnt "x"))', 'invalid_params', /plan:3:4: unknown symbol 'prnt'/],
      ['(let [x 1]\n  (get x))', 'invalid_params', /plan:2:3: get expects 2 to 3 arguments, got 1/],
      ['(do (call :web.open {:url "http://forms.test/"})\n    (call :web.clik {:selector "#a"}))', 'unknown_capability', /plan:2:11: no capability "web.clik" \(did you mean web.click\?\)/],
    ];
    for (const [source, code, message] of cases) {
      const r = await webcap(['run', plan('bad.rtfs', source), '--config', config]);
      expect([r.code, r.stderr]).toEqual([1, expect.stringMatching(message)]);
      expect(r.stderr).not.toMatch(/✓|✗/);           // no step ran
      expect(r.stderr).toMatch(new RegExp(`^error: ${code}: plan:`));
    }
    expect(entries()).toBe(before); // nothing reached the host
  });

  it('a fill_form with success: false is a ✗ step and exit 1, listing the failed fields', async () => {
    const params = { url: site.url('forms.test', '/mixed'), fields: { customer: 'ACME', fax: '555' } };
    const call = await webcap(['call', 'web.fill_form', JSON.stringify(params), '--config', config, '--json']);
    expect(call.code).toBe(1);
    expect(JSON.parse(call.stdout)).toMatchObject({ success: false });
    expect(call.stderr).toMatch(/✗ web\.fill_form: fields failed: fax \(no field/);
    const run = await webcap(['run', plan('fill.rtfs', `(call :web.fill_form {:url "${params.url}" :fields {:customer "ACME" :fax "555"}})`), '--config', config]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/1\. ✗ web\.fill_form .*fields failed: fax/);
  });

  it('chain show: a header, the date, the main parameter and the deciding policy', async () => {
    const r = await webcap(['chain', 'show', join(dir, 'chain.jsonl')]);
    const [header, ...rows] = r.stdout.trim().split('\n');
    expect(header).toMatch(/^#\s+DATE\s+TIME \(UTC\)\s+PLAN\s+SESSION\s+CAPABILITY\s+TARGET\s+OUTCOME\s+DECIDED BY/);
    const busy = rows.find((l) => l.includes('busy.test'))!;
    expect(busy).toMatch(/\d{4}-\d\d-\d\d\s+\d\d:\d\d:\d\d\.\d{3}/);
    expect(busy).toMatch(/http:\/\/busy\.test:\d+\/mixed\s+✗ robots_disallowed\s+robots policy/);
  });
});
