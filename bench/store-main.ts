// `node dist/bench/store-main.js`: the shared-store row alone (npm run bench prints it with the rest).
import { storeRows } from './store.js';
import { table } from './stats.js';

const rows = await storeRows(Number(process.env.BENCH_N ?? 100));
process.stdout.write(`${table(rows)}\n`);
