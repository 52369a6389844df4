// npm run bench:scrape: auto vs never vs Readability alone on both halves of bench/corpus.
import { autoVsNeverBench } from './scrape-auto.js';

process.stdout.write(`\nweb.scrape extraction, auto vs never (bench/corpus, split by bench/corpus/split.json)\n\n${await autoVsNeverBench()}\n`);
process.exit(0);
