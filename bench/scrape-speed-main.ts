// The one-core speed rows of `npm run bench:scrape` (run under `taskset -c 0`); `--steps <combination>`
// (names as in bench/scrape-steps.ts) measures a candidate instead of the default.
import { speedBench } from './scrape-speed.js';
import { stepsOf } from './scrape-steps.js';

const at = process.argv.indexOf('--steps');
const name = at === -1 ? undefined : process.argv[at + 1];
const table = await speedBench(Number(process.env.BENCH_ROUNDS ?? 3), name ? stepsOf(name) : undefined);
process.stdout.write(`\nweb.scrape static path speed, one core (bench/scrape-speed.ts)${name ? `, steps ${name}` : ''}\n\n${table}\n`);
process.exit(0);
