/**
 * ToolE (MetaTool) on its fixed test split (eval/data/splits): single-tool recall@1/5/10 and
 * MRR, multi-tool recall@5/10 and all-gold@5, for any ranking function; and the ToolE tools as
 * a group file, before and after `learnFromTranscripts` on the train-side transcripts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toolEName } from './prepare-data.mjs';

const DATA = join(dirname(fileURLToPath(import.meta.url)), 'data');
export const TRANSCRIPTS = join(DATA, 'transcripts/toole-train.jsonl');

/** The test side of ToolE: `{ single: [{ query, tool }], multi: [{ query, tools }] }`. */
export function toolETestSplit(data) {
  const split = JSON.parse(readFileSync(join(DATA, 'splits/toole.json'), 'utf8'));
  if (split.single.total !== data.single.length || split.multi.total !== data.multi.length) {
    throw new Error('eval/data/splits/toole.json does not match the ToolE files; see SOURCE.md');
  }
  return {
    single: split.single.test.map((index) => data.single[index]),
    multi: split.multi.test.map((index) => data.multi[index]),
  };
}

/**
 * Recall and MRR of `rank(query)` (tool indices, best first) against gold tool indices
 * (`position` maps a tool name to its index).
 */
export function measureToolE(rank, test, position) {
  let r1 = 0;
  let r5 = 0;
  let r10 = 0;
  let reciprocal = 0;
  for (const { query, tool } of test.single) {
    const found = rank(query).indexOf(position.get(tool));
    if (found < 0) continue;
    if (found < 1) r1++;
    if (found < 5) r5++;
    if (found < 10) r10++;
    reciprocal += 1 / (found + 1);
  }
  let multi5 = 0;
  let multi10 = 0;
  let all5 = 0;
  for (const { query, tools } of test.multi) {
    const ranked = rank(query);
    const golds = tools.map((name) => position.get(name));
    const found5 = golds.filter((gold) => ranked.slice(0, 5).includes(gold)).length;
    const found10 = golds.filter((gold) => ranked.slice(0, 10).includes(gold)).length;
    multi5 += found5 / golds.length;
    multi10 += found10 / golds.length;
    if (found5 === golds.length) all5++;
  }
  const n = test.single.length;
  const m = test.multi.length;
  return {
    single: { r1: r1 / n, r5: r5 / n, r10: r10 / n, mrr: reciprocal / n, n },
    multi: { r5: multi5 / m, r10: multi10 / m, allGold5: all5 / m, n: m },
  };
}

/**
 * ToolE's 199 tools as one group file document, exactly as eval/run.mjs registers them for the
 * default row (group `eval`, names as the registry needs them), so the two rows differ only by
 * what `learnFromTranscripts` adds.
 */
export function toolEGroup(data) {
  return {
    group: 'eval',
    version: '1.0.0',
    description: 'Tools',
    selection: { strategy: 'always' },
    tools: data.tools.map((tool) => ({
      name: toolEName(tool.name),
      description: tool.description.trim() || tool.name,
      category: 'retrieval',
      input_schema: { type: 'object', properties: {} },
      metadata: {
        executor: 'eval',
        requires_context: [],
        cost_estimate: 'low',
        latency_estimate: 'fast',
      },
    })),
  };
}

/**
 * Writes the ToolE group into a temporary directory, runs `learnFromTranscripts` there on the
 * train transcripts (default options: at most 20 requests a tool, redaction on), and loads the
 * directory: the registry a user has after `toolcap learn`. Returns it with the learn report.
 */
export async function learnToolE(library, learnFromTranscripts, data) {
  const dir = mkdtempSync(join(tmpdir(), 'toolcap-eval-learn-'));
  try {
    writeFileSync(join(dir, 'eval_tools.json'), `${JSON.stringify(toolEGroup(data), null, 2)}\n`);
    const report = await learnFromTranscripts({
      from: 'openai',
      file: TRANSCRIPTS,
      schemas: [dir],
      cwd: dir,
    });
    const registry = await library.loadRegistry({ dirs: [dir], cwd: dir });
    const errors = registry.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
    if (errors.length > 0)
      throw new Error(`learned ToolE group does not load: ${errors[0].message}`);
    return { registry, report };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The ToolE group with five example requests per tool, written from the tool descriptions alone
 * (data/metatool/example-requests.json, see SOURCE.md), loaded as a registry: what a user has
 * after `toolcap examples`.
 */
export async function exampleToolE(library, data) {
  const requests = JSON.parse(readFileSync(join(DATA, 'metatool/example-requests.json'), 'utf8'));
  const group = toolEGroup(data);
  group.tools.forEach((tool, index) => {
    const written = requests[data.tools[index].name];
    if (written === undefined) throw new Error(`no example requests for ${data.tools[index].name}`);
    tool.example_requests = written;
  });
  const dir = mkdtempSync(join(tmpdir(), 'toolcap-eval-examples-'));
  try {
    writeFileSync(join(dir, 'eval_tools.json'), `${JSON.stringify(group, null, 2)}\n`);
    const registry = await library.loadRegistry({ dirs: [dir], cwd: dir });
    const errors = registry.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
    if (errors.length > 0)
      throw new Error(`ToolE group with examples does not load: ${errors[0].message}`);
    return registry;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
