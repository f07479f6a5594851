import { ToolcapError } from '../errors/toolcap-error.js';
import { describeValue } from '../util/check-options.js';
import { suggestSimilar } from '../util/suggest-similar.js';
import { analyzeTurn } from './analyze-turn.js';
import { buildRankingQuery, queryWord } from './build-ranking-query.js';
import { correctTypos } from './correct-typos.js';
import { rankFused } from './rank-fused.js';
import { checkBoolean, checkPositiveInteger, checkScore } from './resolve-select-options.js';
import { roundScore } from './round-score.js';
import type { SelectionIndex } from './selection-index.js';
import type { SemanticTurn } from './semantic-index.js';
import type { SearchOptions, SearchResult } from './types.js';

/** Default number of search results. */
export const DEFAULT_SEARCH_K = 10;

const SEARCH_OPTIONS = new Set(['k', 'minScore', 'typoTolerance', 'groups']);

/**
 * Ranks every tool against `query` with BM25F (see `Registry.search`): the `k` best with a
 * positive score (at least `minScore`), best first, ties in catalog order. Cost grows with the
 * postings of the query's terms, not with a scan of the catalog. With `semantic`, the score is
 * the fused lexical and semantic score over every tool (see `rankFused`).
 */
export function searchTools(
  index: SelectionIndex,
  query: string,
  options: SearchOptions = {},
  semantic?: SemanticTurn,
): SearchResult[] {
  const { k, minScore, typoTolerance, groups } = resolveSearchOptions(
    query,
    options,
    index.groupByName,
  );
  const relevance = index.relevance();
  const analyzed = analyzeTurn(query, index.words());
  if (typoTolerance) correctTypos(index, query, analyzed);
  const ranking = buildRankingQuery(index, analyzed, [], index.ranking);
  const { ids } = ranking;

  let accept: ((doc: number) => boolean) | undefined;
  if (groups !== undefined) {
    const allowed = new Set(groups.map((name) => index.groupByName.get(name)));
    accept = (doc) => allowed.has(index.groupOfTool[doc]!);
  }
  const maxScore = semantic === undefined ? relevance.maxScore(ranking) : 1;
  const scored =
    semantic === undefined
      ? relevance.search(ranking, k, accept)
      : rankFused(index, ranking, semantic, k, accept);
  const results: SearchResult[] = [];
  for (const { doc, raw } of scored) {
    const score = roundScore(raw / maxScore);
    if (score < minScore || score === 0) continue;
    const tool = index.tools[doc]!;
    const matched: string[] = [];
    ids.forEach((id, slot) => {
      if (!relevance.hasTerm(doc, id)) return;
      const word = queryWord(index, ranking, slot);
      if (!matched.includes(word)) matched.push(word);
    });
    results.push({ name: tool.name, group: tool.group, score, matched, tool });
  }
  return results;
}

/** Groups named in an unknown-group message, at most. */
const LISTED_GROUPS = 20;

/**
 * Checks the query and `options` of one `search` call and applies the defaults; with
 * `knownGroups` (the registry's groups by name), a `groups` entry must name one of them.
 */
export function resolveSearchOptions(
  query: unknown,
  options: unknown,
  knownGroups?: ReadonlyMap<string, unknown>,
): { k: number; minScore: number; typoTolerance: boolean; groups: readonly string[] | undefined } {
  // every search option error has its own code and says it comes from search
  const invalid = (message: string) =>
    new ToolcapError('INVALID_SEARCH_OPTION', `search: ${message}`);
  if (typeof query !== 'string') {
    throw invalid(`the query must be a string, got ${describeValue(query)}`);
  }
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw invalid(`options must be an object such as { k: 5 }, got ${describeValue(options)}`);
  }
  for (const name of Object.keys(options)) {
    if (!SEARCH_OPTIONS.has(name)) {
      const similar = suggestSimilar(name, [...SEARCH_OPTIONS]);
      throw invalid(
        `unknown option "${name}"${similar.length > 0 ? `; did you mean "${similar[0]}"?` : ''} Options: ${[...SEARCH_OPTIONS].join(', ')}`,
      );
    }
  }
  const { k, minScore, typoTolerance, groups } = options as SearchOptions;
  if (groups !== undefined) {
    if (!Array.isArray(groups)) {
      throw invalid(`groups must be an array of group names, got ${describeValue(groups)}`);
    }
    groups.forEach((group: unknown, position) => {
      if (typeof group !== 'string') {
        throw invalid(
          `groups[${position}] must be a group name (a string), got ${describeValue(group)}`,
        );
      }
      if (knownGroups !== undefined && !knownGroups.has(group)) {
        const names = [...knownGroups.keys()];
        const similar = suggestSimilar(group, names);
        const listed = names.slice(0, LISTED_GROUPS).join(', ');
        const more =
          names.length > LISTED_GROUPS ? `, and ${names.length - LISTED_GROUPS} more` : '';
        throw invalid(
          `groups[${position}] ${describeValue(group)} is not a group of this registry${similar.length > 0 ? `; did you mean "${similar[0]}"?` : '.'} ${names.length === 0 ? 'The registry has no groups' : `Groups: ${listed}${more}`}`,
        );
      }
    });
  }
  return {
    k: k === undefined ? DEFAULT_SEARCH_K : checkPositiveInteger('k', k, invalid),
    minScore: minScore === undefined ? 0 : checkScore('minScore', minScore, invalid),
    typoTolerance:
      typoTolerance === undefined ? false : checkBoolean('typoTolerance', typoTolerance, invalid),
    groups,
  };
}
