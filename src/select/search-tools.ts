import { analyzeTurn } from './analyze-turn.js';
import { checkPositiveInteger, checkScore } from './resolve-select-options.js';
import { roundScore } from './select-tools.js';
import type { SelectionIndex } from './selection-index.js';
import type { SearchOptions, SearchResult } from './types.js';

/** Default number of search results. */
export const DEFAULT_SEARCH_K = 10;

/**
 * Ranks every tool against `query` with BM25F (see `Registry.search`). Cost grows with the
 * postings of the query's terms, not with a scan of the catalog.
 */
export function searchTools(
  index: SelectionIndex,
  query: string,
  options: SearchOptions = {},
): SearchResult[] {
  const k = options.k === undefined ? DEFAULT_SEARCH_K : checkPositiveInteger('k', options.k);
  const minScore = options.minScore === undefined ? 0 : checkScore('minScore', options.minScore);
  const relevance = index.relevance();
  const turn = analyzeTurn(query, index.words());
  const ids = [...turn.queryIds];
  const words = [...turn.queryWords];
  let unknown = turn.unknown.length;
  if (options.typoTolerance === true) unknown -= addTypoTerms(index, turn.unknown, ids, words);
  const weights = ids.map(() => 1);

  let accept: ((doc: number) => boolean) | undefined;
  if (options.groups !== undefined) {
    const allowed = new Set(
      options.groups
        .map((name) => index.groupIndex.get(name))
        .filter((group) => group !== undefined),
    );
    accept = (doc) => allowed.has(index.groupOfTool[doc]!);
  }
  const maxScore = relevance.maxScore(ids, weights, unknown);
  const results: SearchResult[] = [];
  for (const { doc, raw } of relevance.search(ids, weights, k, accept)) {
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
    fixed++;
    for (const entry of found) {
      if (ids.includes(entry.value)) continue;
      ids.push(entry.value);
      words.push(`${word}~${entry.word}`);
    }
  }
  return fixed;
}
