import { ToolcapError } from '../errors/toolcap-error.js';
import { describeValue } from '../util/check-options.js';
import { analyzeTurn } from './analyze-turn.js';
import { compareStrings } from './keyword-index.js';
import { checkPositiveInteger, checkScore } from './resolve-select-options.js';
import { roundScore } from './round-score.js';
import type { SelectionIndex } from './selection-index.js';
import type { SearchOptions, SearchResult } from './types.js';

/** Default number of search results. */
export const DEFAULT_SEARCH_K = 10;

const SEARCH_OPTIONS = new Set(['k', 'minScore', 'typoTolerance', 'groups']);

/**
 * Ranks every tool against `query` with BM25F (see `Registry.search`): the `k` best with a
 * positive score (at least `minScore`), best first, ties in catalog order. Cost grows with the
 * postings of the query's terms, not with a scan of the catalog.
 */
export function searchTools(
  index: SelectionIndex,
  query: string,
  options: SearchOptions = {},
): SearchResult[] {
  const { k, minScore, typoTolerance, groups } = resolveSearchOptions(query, options);
  const relevance = index.relevance();
  const turn = analyzeTurn(query, index.words());
  const ids = [...turn.queryIds];
  const words = [...turn.queryWords];
  let unknown = turn.unknown.length;
  if (typoTolerance) unknown -= addTypoTerms(index, turn.unknown, ids, words);
  const ranking = { ids, weights: ids.map(() => 1), unknown };

  let accept: ((doc: number) => boolean) | undefined;
  if (groups !== undefined) {
    const allowed = new Set(groups.map((name) => index.groupByName.get(name)));
    accept = (doc) => allowed.has(index.groupOfTool[doc]!);
  }
  const maxScore = relevance.maxScore(ranking);
  const results: SearchResult[] = [];
  for (const { doc, raw } of relevance.search(ranking, k, accept)) {
    const score = roundScore(raw / maxScore);
    if (score < minScore || score === 0) continue;
    const tool = index.tools[doc]!;
    const matched: string[] = [];
    ids.forEach((id, slot) => {
      if (relevance.hasTerm(doc, id) && !matched.includes(words[slot]!)) matched.push(words[slot]!);
    });
    results.push({ name: tool.name, group: tool.group, score, matched, tool });
  }
  return results;
}

function resolveSearchOptions(
  query: unknown,
  options: unknown,
): { k: number; minScore: number; typoTolerance: boolean; groups: readonly string[] | undefined } {
  const invalid = (message: string) => new ToolcapError('INVALID_SEARCH_OPTION', message);
  if (typeof query !== 'string') {
    throw invalid(`the search query must be a string, got ${describeValue(query)}`);
  }
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw invalid(`options must be an object such as { k: 5 }, got ${describeValue(options)}`);
  }
  for (const name of Object.keys(options)) {
    if (!SEARCH_OPTIONS.has(name)) {
      throw invalid(`unknown option "${name}"; options: ${[...SEARCH_OPTIONS].join(', ')}`);
    }
  }
  const { k, minScore, typoTolerance, groups } = options as SearchOptions;
  if (
    groups !== undefined &&
    (!Array.isArray(groups) || !groups.every((group) => typeof group === 'string'))
  ) {
    throw invalid(`groups must be an array of group names, got ${describeValue(groups)}`);
  }
  return {
    k: k === undefined ? DEFAULT_SEARCH_K : checkPositiveInteger('k', k),
    minScore: minScore === undefined ? 0 : checkScore('minScore', minScore),
    typoTolerance: typoTolerance === true,
    groups,
  };
}

/** Adds indexed terms one edit away from the unknown query words; returns how many words it fixed. */
function addTypoTerms(
  index: SelectionIndex,
  unknownWords: readonly { word: string; term: string }[],
  ids: number[],
  words: string[],
): number {
  const typos = index.vocabularyTypos();
  let fixed = 0;
  for (const { word, term } of unknownWords) {
    const found = typos.lookup(term);
    for (const entry of typos.lookup(word)) {
      if (!found.some((other) => other.value === entry.value)) found.push(entry);
    }
    if (found.length === 0) continue;
    // in term order, so results never depend on the typo index's internal order
    found.sort((a, b) => compareStrings(a.word, b.word));
    fixed++;
    for (const entry of found) {
      if (ids.includes(entry.value)) continue;
      ids.push(entry.value);
      words.push(`${word}~${entry.word}`);
    }
  }
  return fixed;
}
