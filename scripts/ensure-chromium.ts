// Makes sure a Chromium is there, in the README's order: the configured path
// (executable_path / WEBCAP_CHROMIUM), Playwright's own, the system's; when
// none is found and we are root with apt-get, install Debian's chromium.
import { execFileSync, execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadConfig } from '../host/config/load.js';
import { findChromium } from '../sidecar/browser/find-chromium.js';

function fail(sentence: string): never {
  process.stderr.write(`setup: ${sentence}\n`);
  process.exit(1);
}

function version(path: string): string {
  try {
    return execFileSync(path, ['--version'], { encoding: 'utf8', timeout: 20_000 }).trim();
  } catch {
    return 'version unknown';
  }
}

let configured: string | undefined;
try {
  configured = loadConfig().capabilities.browser.executable_path;
} catch (err) {
  fail(`agent_config.toml is invalid: ${(err as Error).message}`);
}

let found = await findChromium(configured);
if (!found && configured) fail(`the configured Chromium ${configured} does not exist; fix capabilities.browser.executable_path or WEBCAP_CHROMIUM`);
if (!found) {
  const canApt = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (!canApt) fail('no Chromium found: install Debian\'s chromium package (sudo apt-get install chromium) or set WEBCAP_CHROMIUM to a Chromium binary, then run npm run setup again.');
  process.stdout.write('setup: no Chromium found; installing Debian\'s chromium with apt-get…\n');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execSync('apt-get update -qq && apt-get install -y -qq chromium', { stdio: 'inherit', env });
  found = await findChromium(undefined);
  if (!found) fail('apt-get finished but no Chromium is at /usr/bin/chromium; install it by hand and set WEBCAP_CHROMIUM.');
}
process.stdout.write(`setup: Chromium ready: ${found.path} (${found.source}, ${version(found.path)})\n`);
