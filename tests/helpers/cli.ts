// Runs the `webcap` command as a user would: a real process, its exit code,
// stdout and stderr. Async on purpose: fixture servers live in the test
// process and must keep answering while the command runs.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const bin = resolve('bin/webcap.js');

export interface CliRun { code: number | null; stdout: string; stderr: string; ms: number }

// WEBCAP_DAEMON=0 (like --no-daemon) unless a test passes env to use the daemon:
// one process per command, nothing left running after the test.
export function webcap(args: string[], cwd = process.cwd(), env: Record<string, string> = {}): Promise<CliRun> {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, WEBCAP_CONFIG: '', WEBCAP_DAEMON: '0', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (code) => done({ code, stdout, stderr, ms: Date.now() - started }));
  });
}
