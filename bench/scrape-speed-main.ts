// The one-core speed rows of `npm run bench:scrape` (run under `taskset -c 0`).
import { speedBench } from './scrape-speed.js';

process.stdout.write(`\nweb.scrape static path speed, one core (bench/scrape-speed.ts)\n\n${await speedBench(Number(process.env.BENCH_ROUNDS ?? 3))}\n`);
process.exit(0);
