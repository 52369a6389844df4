// A headed browser without a display: the error names the setting and the way
// out (headless, xvfb-run) instead of a closed-target message from Playwright.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { webcap } from '../helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'webcap-display-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('headless = false with no DISPLAY fails with browser_crashed naming headless and xvfb-run', async () => {
  writeFileSync(join(dir, 'agent_config.toml'), '[capabilities.browser]\nheadless = false\nrespect_robots = false\ndomains_allowlist = ["*.test"]\n[network]\nresolve = { "a.test" = "127.0.0.1:9" }\nallow_private = ["127.0.0.1"]\n');
  const res = await webcap(['call', 'web.open', '{"url":"http://a.test/"}', '--config', join(dir, 'agent_config.toml'), '--no-daemon', '--json'], dir, { DISPLAY: '', WAYLAND_DISPLAY: '' });
  expect(res.code).toBe(1);
  const { error } = JSON.parse(res.stdout) as { error: { code: string; message: string } };
  expect(error.code, error.message).toBe('browser_crashed');
  expect(error.message).toContain('headless = false');
  expect(error.message).toContain('xvfb-run');
  expect(error.message).not.toContain('has been closed');
});
