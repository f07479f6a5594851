import { CliUsageError } from '../cli-usage-error.js';
import { formatTable } from '../format-table.js';
import { type CliIo, writeJson } from '../io.js';
import { parseCliArgs, positiveInteger } from '../parse-cli-args.js';
import { printDiagnostics } from '../print-diagnostics.js';
import {
  loadCliRegistry,
  REGISTRY_OPTIONS,
  REGISTRY_OPTIONS_USAGE,
  requireSchemaDirs,
} from '../registry-options.js';
import {
  cliSemanticOptions,
  SEMANTIC_OPTIONS,
  SEMANTIC_OPTIONS_USAGE,
} from '../semantic-options.js';

/** One-line summary for `toolcap search`. */
export const summary = 'rank tools by relevance to a query';

/** Usage text. */
export const usage = `toolcap search [--schemas PATH]... [--k N] [--typos] [--vectors SOURCE] [--json] QUERY

Ranks every loaded tool against QUERY with BM25F over tool names (split into words),
descriptions, parameter names and descriptions, and group keywords and descriptions.
Scores are 0-1: how much of the query a tool covers, weighted by how rare each word is.

Options:
${REGISTRY_OPTIONS_USAGE}
  --k N                    at most N results (default 10)
  --typos                  correct words one typo away (words of 5+ letters), as select --typos does
${SEMANTIC_OPTIONS_USAGE}
  --json                   print {"results": [{"name", "group", "score", "matched"}]}`;

/** Runs `toolcap search`. */
export async function run(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCliArgs(
    'search',
    args,
    {
      ...REGISTRY_OPTIONS,
      ...SEMANTIC_OPTIONS,
      k: { type: 'string' },
      typos: { type: 'boolean' },
      json: { type: 'boolean' },
    },
    { min: 1, max: 1, names: 'QUERY' },
  );
  const query = positionals[0]!;
  if (query.trim() === '') {
    throw new CliUsageError(
      'QUERY is empty; give the words to look for, e.g. toolcap search "create a task"',
      'search',
    );
  }
  const k = positiveInteger('search', 'k', values.k) ?? 10;
  const semantic = await cliSemanticOptions('search', values, io);
  const registry = await loadCliRegistry('search', values, io, { semantic });
  requireSchemaDirs(registry.diagnostics);
  printDiagnostics(io, registry.diagnostics);
  const searchOptions = { k, ...(values.typos === true ? { typoTolerance: true } : {}) };
  const results =
    semantic === undefined
      ? registry.search(query, searchOptions)
      : await registry.searchAsync(query, searchOptions);
  if (values.json === true) {
    writeJson(io, {
      results: results.map((result) => ({
        name: result.name,
        group: result.group,
        score: result.score,
        matched: result.matched,
      })),
    });
    return 0;
  }
  if (results.length === 0) {
    io.stdout('no matching tools\n');
    return 0;
  }
  const rows = results.map((result, rank) => [
    String(rank + 1),
    result.name,
    result.group,
    result.score.toFixed(4),
    result.matched.join(', '),
  ]);
  io.stdout(`${formatTable(['#', 'TOOL', 'GROUP', 'SCORE', 'MATCHED'], rows)}\n`);
  return 0;
}
