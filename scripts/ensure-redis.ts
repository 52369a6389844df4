// Makes sure a redis-server is there for the shared store ([store] url) and
// its tests: when none is on PATH and we are root with apt-get, install
// Debian's redis-server (like Chromium in ensure-chromium.ts). The tests
// only need the binary: they start their own server on a free loopback port.
// Without root or apt-get it says what to install and carries on: a
// single-host webcap needs no Redis.
import { execSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const which = () => spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim();
const version = (path: string) => spawnSync(path, ['--version'], { encoding: 'utf8' }).stdout.trim().split(' ').find((w) => w.startsWith('v=')) ?? 'version unknown';

let found = which();
if (!found) {
  const canApt = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (!canApt) {
    process.stdout.write('setup: no redis-server found; the shared store and its tests need one: install Debian\'s redis-server package (sudo apt-get install redis-server).\n');
    process.exit(0);
  }
  process.stdout.write('setup: no redis-server found; installing Debian\'s redis-server with apt-get…\n');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execSync('apt-get update -qq && apt-get install -y -qq redis-server', { stdio: 'inherit', env });
  found = which();
  if (!found) {
    process.stderr.write('setup: apt-get finished but no redis-server is on PATH; install it by hand.\n');
    process.exit(1);
  }
}
process.stdout.write(`setup: redis-server ready: ${found} (${version(found)})\n`);
