// Writes bench/corpus/split.json from the pages in bench/corpus.
import { writeSplit, SPLIT_FILE } from './corpus-split.js';
import { loadCorpus } from './quality.js';

writeSplit(loadCorpus().map((p) => p.name));
process.stdout.write(`wrote ${SPLIT_FILE}\n`);
