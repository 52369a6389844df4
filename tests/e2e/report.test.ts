// The run report: `webcap report` writes one self-contained HTML
// file; opened in headless Chromium with every network request refused, its
// steps (✓/✗, capability, target, deciding policy), the consent question, the
// blocked request, the heal and a screenshot per step all render.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '../../sidecar/browser/find-chromium.js';
import { html, send, serve, type FixtureServer } from '../helpers/fixture-server.js';
import { tempDir } from '../helpers/host.js';
import { webcap } from '../helpers/cli.js';

let site: FixtureServer;
let dir: string;
let renamed = false;

beforeAll(async () => {
  site = await serve({
    '/': (_req, res) => send(res, html(renamed
      ? '<h1>Login</h1><img src="http://tracker.test/pixel.gif"><label for="u2">User</label><input id="u2"><label for="p2">Password</label><input id="p2" type="password"><button id="go2">Sign in</button>'
      : '<h1>Login</h1><img src="http://tracker.test/pixel.gif"><label for="u">User</label><input id="u"><label for="p">Password</label><input id="p" type="password"><button id="go">Sign in</button>')),
  });
  dir = tempDir('webcap-report-');
  writeFileSync(join(dir, 'agent_config.toml'), `[capabilities.browser]
domains_allowlist = ["login.test"]
respect_robots = false
default_timeout_ms = 3000

[network]
resolve = { "login.test" = "127.0.0.1:${site.port}", "tracker.test" = "127.0.0.1:${site.port}" }
allow_private = ["127.0.0.1"]

[chain]
path = "chain.jsonl"

[workspace]
path = "ws"

[report]
screenshots = "each_step"
`);
});

afterAll(async () => { await site?.close(); });

describe('webcap report', () => {
  it('writes one HTML file whose steps, consent, blocked request, heal and screenshots render offline', async () => {
    const plan = `(do (call :web.open {:url "http://login.test/" :timeout 20000})
      (call :web.fill {:selector "#u" :text "ada"} {:heal true})
      (call :web.fill {:selector "#p" :text "hunter2-secret"} {:heal true})
      (call :web.click {:selector "#missing"}))`;
    writeFileSync(join(dir, 'login.rtfs'), plan);
    const cli = (...a: string[]) => webcap([...a, '--config', 'agent_config.toml', '--yes'], dir);
    await cli('run', 'login.rtfs');            // records #u's fingerprint; ends with a failed step
    renamed = true;
    const failed = await cli('run', 'login.rtfs');
    expect(failed.code).toBe(1);
    const made = await cli('report', '--last', '-o', 'report.html');
    expect(made.code, made.stderr).toBe(0);
    const file = join(dir, 'report.html');
    expect(made.stdout.trim()).toBe(file);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('hunter2-secret');
    expect(text).not.toMatch(/<script|<link|src="http/);

    const browser = await chromium.launch({ executablePath: (await findChromium())!.path });
    try {
      const page = await browser.newPage();
      const requests: string[] = [];
      page.on('request', (r) => { if (!r.url().startsWith('file:') && !r.url().startsWith('data:')) requests.push(r.url()); });
      await page.goto(`file://${file}`);
      const rows = page.locator('tr.step');
      // open; fill #u fails, then heals; fill #p fails, then heals; click fails; the plan's sessions are closed.
      await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(7);
      const cells = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 4).map((td) => td.textContent!.trim())));
      expect(cells.map((c) => c.slice(0, 3))).toEqual([
        ['1', '✓', 'web.open'], ['2', '✗', 'web.fill'], ['3', '✓', 'web.fill'], ['4', '✗', 'web.fill'], ['5', '✓', 'web.fill'], ['6', '✗', 'web.click'], ['7', '✓', 'web.close'],
      ]);
      expect(cells[5]![3]).toBe('#missing');
      const body = await page.locator('body').innerText();
      expect(body).toMatch(/healed: #u → role=textbox\[name="User"s\] \(role\+name\)/);
      expect(body).toMatch(/asked: web\.fill password_field/);
      expect(body).toMatch(/blocked requests: .*tracker\.test/);
      expect(body).toMatch(/selector_not_found/);
      const images = await page.locator('img.shot').evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).naturalWidth));
      expect(images.length).toBe(6);   // every step but the final close
      expect(images.every((w) => w > 100)).toBe(true);
      expect(requests).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 180_000);
});
