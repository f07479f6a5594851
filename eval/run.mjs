/**
 * `npm run eval`: retrieval quality of `registry.search` on public data (eval/data, see the
 * SOURCE.md files), next to a plain BM25 baseline computed in the same run.
 *
 * - MetaTool/ToolE: one registry of 199 tools; recall@1/5/10 and MRR over 20,614 single-tool
 *   queries; recall@5/10 and all-gold@5 over 497 multi-tool queries.
 * - BFCL v4 multiple / live_multiple: one registry per question holding its candidate
 *   functions; top-1 accuracy (nothing scoring counts as the first candidate, for both systems).
 * - BFCL v4 irrelevance: how often the top candidate stays below the fallback's minimum score
 *   (abstention); the same rule's false abstentions on multiple + live_multiple are shown too.
 */
import { createBaselineIndex } from './baseline-bm25.mjs';
import { readBfcl, readToolE } from './datasets.mjs';

const library = await import('../dist/src/index.js');
const { createRegistry, DEFAULT_FALLBACK_MIN_SCORE } = library;

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
// MetaTool / ToolE
{
  const data = readToolE();
  const { registry, names } = buildRegistry(data.tools);
  const position = new Map(data.tools.map((tool, index) => [tool.name, index]));
  const byName = new Map(names.map((name, index) => [name, index]));
  const documents = data.tools.map((tool) => `${tool.name} ${tool.description}`);
  const systems = [
    {
      label: 'toolcap search',
      rank: (query) =>
        registry.search(query, { k: data.tools.length }).map((result) => byName.get(result.name)),
    },
    { label: 'BM25 baseline', rank: createBaselineIndex(documents).rank },
    {
      label: 'BM25 baseline + light stem',
      rank: createBaselineIndex(documents, { stem: true }).rank,
    },
  ];
  for (const system of systems) {
    let r1 = 0;
    let r5 = 0;
    let r10 = 0;
    let reciprocal = 0;
    for (const { query, tool } of data.single) {
      const gold = position.get(tool);
      const rank = system.rank(query).indexOf(gold);
      if (rank < 0) continue;
      if (rank < 1) r1++;
      if (rank < 5) r5++;
      if (rank < 10) r10++;
      reciprocal += 1 / (rank + 1);
    }
    const n = data.single.length;
    let multi5 = 0;
    let multi10 = 0;
    let all5 = 0;
    for (const { query, tools } of data.multi) {
      const ranked = system.rank(query);
      const golds = tools.map((name) => position.get(name));
      const found5 = golds.filter((gold) => ranked.slice(0, 5).includes(gold)).length;
      const found10 = golds.filter((gold) => ranked.slice(0, 10).includes(gold)).length;
      multi5 += found5 / golds.length;
      multi10 += found10 / golds.length;
      if (found5 === golds.length) all5++;
    }
    const m = data.multi.length;
    rows.push({
      dataset: 'ToolE single (20,614)',
      system: system.label,
      metrics: `R@1 ${fmt(r1 / n)}  R@5 ${fmt(r5 / n)}  R@10 ${fmt(r10 / n)}  MRR ${fmt(reciprocal / n)}`,
    });
    rows.push({
      dataset: 'ToolE multi (497)',
      system: system.label,
      metrics: `R@5 ${fmt(multi5 / m)}  R@10 ${fmt(multi10 / m)}  all-gold@5 ${fmt(all5 / m)}`,
    });
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
console.log(
  `\n${skippedTools} tool(s) skipped as invalid; ${((performance.now() - started) / 1000).toFixed(1)} s (node ${process.version})`,
);
