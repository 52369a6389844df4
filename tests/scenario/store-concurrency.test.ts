// Exact under concurrency: four host processes share one redis-server and
// call one domain (per_domain = 30 per minute) as fast as they can for 70 s.
// In any 60 s window at most 30 calls are admitted (no burst: the buckets are
// exact sliding windows), read back from the four causal chains, where each
// admitted call carries the store's admission time.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempDir, testConfig } from '../helpers/host.js';
import { startRedis, type TestRedis } from '../helpers/redis-server.js';

const HOSTS = 4;
const PER_MINUTE = 30;
const DURATION_MS = 70_000;
let redis: TestRedis;

beforeAll(async () => { redis = await startRedis(); });
afterAll(async () => { await redis?.stop(); });

function runHost(config: object, startAt: number): Promise<{ admitted: number; refused: number; other: Record<string, number> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['tests/helpers/store-hammer.mjs', JSON.stringify(config), String(startAt), String(DURATION_MS)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`host exited ${code}: ${err}`))));
  });
}

it(`${HOSTS} hosts, one domain at ${PER_MINUTE}/min, ${DURATION_MS / 1000} s flat out: ≤ ${PER_MINUTE} admitted in any 60 s`, async () => {
  const configs = Array.from({ length: HOSTS }, () => {
    const c = testConfig({
      dir: tempDir(),
      browser: { domains_allowlist: ['127.0.0.1'] },
      budgets: { per_domain: { '127.0.0.1': PER_MINUTE } },
      consent: { non_interactive: 'deny', require: ['web.scrape'] },
    });
    return { ...c, logging: { ...c.logging, level: 'warn' }, store: { url: redis.url, prefix: 'concurrency:' } };
  });
  const startAt = Date.now() + 2_000; // all four begin together, after their start-up
  const tallies = await Promise.all(configs.map((c) => runHost(c, startAt)));

  const admittedAt: number[] = [];
  for (const c of configs) {
    for (const line of readFileSync(join(c.workspace.path, 'chain.jsonl'), 'utf8').split('\n')) {
      if (!line.includes('"consent_denied"')) continue;
      const entry = JSON.parse(line) as { kind: string; decisions?: Array<{ policy: string; details?: { admitted_at?: number } }> };
      const at = entry.decisions?.find((d) => d.policy === 'budget')?.details?.admitted_at;
      if (entry.kind === 'call' && at) admittedAt.push(at);
    }
  }
  admittedAt.sort((a, b) => a - b);
  const admitted = tallies.reduce((s, t) => s + t.admitted, 0);
  const refused = tallies.reduce((s, t) => s + t.refused, 0);
  expect(tallies.map((t) => t.other)).toEqual(tallies.map(() => ({})));
  expect(admittedAt).toHaveLength(admitted); // every admission is in a chain, with its time
  let busiest = 0;
  for (let i = 0, j = 0; j < admittedAt.length; j++) {
    while (admittedAt[j] - admittedAt[i] >= 60_000) i++;
    busiest = Math.max(busiest, j - i + 1);
  }
  console.log(`store concurrency: ${admitted} admitted, ${refused} refused in ${DURATION_MS / 1000} s over ${HOSTS} hosts; busiest 60 s window: ${busiest}`);
  expect(busiest).toBeLessThanOrEqual(PER_MINUTE);
  // The budget was reached (not an idle test) and refilled after the minute: 30 + the next minute's first.
  expect(busiest).toBe(PER_MINUTE);
  expect(admitted).toBeGreaterThan(PER_MINUTE);
  expect(refused).toBeGreaterThan(100 * HOSTS);
}, DURATION_MS + 60_000);
