// Writes bench/corpus/split.json from the pages in bench/corpus.
import { writeSplit, SPLIT_FILE } from './corpus-split.js';
import { loadCorpus } from './quality.js';
import { trafilaturaNames } from './trafilatura-snippets.js';

writeSplit([...loadCorpus().map((p) => p.name), ...trafilaturaNames()]);
process.stdout.write(`wrote ${SPLIT_FILE}\n`);
