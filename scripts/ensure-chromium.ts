// Makes sure a Chromium is there, in the README's order: the configured path
// (executable_path / WEBCAP_CHROMIUM), Playwright's own, the system's; when
// none is found and we are root with apt-get, install Debian's chromium, and
// beside a system Chromium its light headless build, chromium-headless-shell.
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
const canApt = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
const aptEnv = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
if (!found) {
  if (!canApt) fail('no Chromium found: install Debian\'s chromium package (sudo apt-get install chromium) or set WEBCAP_CHROMIUM to a Chromium binary, then run npm run setup again.');
  process.stdout.write('setup: no Chromium found; installing Debian\'s chromium and chromium-headless-shell with apt-get…\n');
  execSync('apt-get update -qq && apt-get install -y -qq chromium', { stdio: 'inherit', env: aptEnv });
  addHeadlessShell();
  found = await findChromium(undefined);
  if (!found) fail('apt-get finished but no Chromium is at /usr/bin/chromium; install it by hand and set WEBCAP_CHROMIUM.');
} else if (found.source === 'system' && !found.path.endsWith('headless-shell') && canApt) {
  // The full browser is there but not the light one headless runs prefer: add it when apt can.
  process.stdout.write('setup: adding Debian\'s chromium-headless-shell (headless runs start it at a third of the CPU)…\n');
  addHeadlessShell('apt-get update -qq && ');
  found = (await findChromium(undefined)) ?? found;
}
process.stdout.write(`setup: Chromium ready: ${found.path} (${found.source}, ${version(found.path)})\n`);

/** The light headless build; without it headless runs use the full browser, so a failure here is only a note. */
function addHeadlessShell(update = ''): void {
  try {
    execSync(`${update}apt-get install -y -qq chromium-headless-shell`, { stdio: 'inherit', env: aptEnv });
  } catch {
    process.stdout.write('setup: chromium-headless-shell could not be installed; headless runs use the full Chromium\n');
  }
}
