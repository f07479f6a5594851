import { normalizeVector } from '../embeddings/vector-math.js';
import { ToolcapError } from '../errors/toolcap-error.js';
import { describeValue } from '../util/check-options.js';
import { resolveSelectOptions } from './resolve-select-options.js';
import { resolveSearchOptions, searchTools } from './search-tools.js';
import { selectTools } from './select-tools.js';
import type { SelectionIndex } from './selection-index.js';
import type { SemanticIndex } from './semantic-index.js';
import type { SearchOptions, SearchResult, Selection, SelectOptions } from './types.js';

/** Options of `registry.selectAsync`: those of `select`, and an abort signal. */
export interface SelectAsyncOptions extends SelectOptions {
  /** Aborts embedding the turn (and preparing the tool vectors); the call then rejects. */
  signal?: AbortSignal;
}

/** Options of `registry.searchAsync`: those of `search`, and an abort signal. */
export interface SearchAsyncOptions extends SearchOptions {
  /** Aborts embedding the query (and preparing the tool vectors); the call then rejects. */
  signal?: AbortSignal;
}

/** `select` options with a query vector computed beforehand (the synchronous semantic path). */
export interface SelectVectorOptions extends SelectOptions {
  /**
   * The turn's vector from the registry's embedder (needs `semantic` in the registry options
   * and `await registry.prepareSemantic()` first). Used as given: history is not embedded.
   */
  queryVector?: ArrayLike<number>;
}

/** `search` options with a query vector computed beforehand. */
export interface SearchVectorOptions extends SearchOptions {
  /** The query's vector from the registry's embedder (see `SelectVectorOptions.queryVector`). */
  queryVector?: ArrayLike<number>;
}

/** The semantic scorer of a registry: its index and the fusion weight. */
export interface SemanticScorer {
  index: SemanticIndex;
  weight: number;
}

/** The registry's semantic scorer, prepared on first use (`signal` aborts preparing it). */
export type SemanticScorerSource = (signal: AbortSignal | undefined) => Promise<SemanticScorer>;

/**
 * `select` with semantic scores: the message and the history messages in the window are
 * embedded (one call, cached per text), combined by `combineTurnVectors`, and the selection is
 * made with the fused scores. Options are checked before anything is prepared or embedded.
 */
export async function selectToolsAsync(
  index: SelectionIndex,
  source: SemanticScorerSource,
  message: string,
  options: SelectAsyncOptions = {},
): Promise<Selection> {
  const { value: signal, rest } = takeOption<AbortSignal>(options, 'signal');
  const settings = resolveSelectOptions(message, rest);
  checkSignal(signal, 'INVALID_SELECT_OPTION');
  const scorer = await source(signal);
  const history: string[] = [];
  for (const entry of settings.history) {
    if (typeof entry === 'string') history.push(entry);
    else if ('message' in entry && typeof entry.message === 'string') history.push(entry.message);
  }
  const [messageVector, ...historyVectors] = await scorer.index.embedQueries(
    [message, ...history],
    signal,
  );
  const vector = combineTurnVectors(messageVector!, historyVectors, index.ranking.historyWeight);
  return selectTools(
    index,
    message,
    rest as SelectOptions,
    scorer.index.turn(vector, scorer.weight),
  );
}

/** `search` with semantic scores: the query is embedded (cached per text), then ranked fused. */
export async function searchToolsAsync(
  index: SelectionIndex,
  source: SemanticScorerSource,
  query: string,
  options: SearchAsyncOptions = {},
): Promise<SearchResult[]> {
  const { value: signal, rest } = takeOption<AbortSignal>(options, 'signal');
  // checked before preparing or embedding: a bad option fails without a request
  resolveSearchOptions(query, rest, index.groupByName);
  checkSignal(signal, 'INVALID_SEARCH_OPTION');
  const scorer = await source(signal);
  const [vector] = await scorer.index.embedQueries([query], signal);
  return searchTools(
    index,
    query,
    rest as SearchOptions,
    scorer.index.turn(vector!, scorer.weight, 'INVALID_SEARCH_OPTION'),
  );
}

/**
 * The query vector of a turn: the message's unit vector plus `historyWeight` times the mean
 * of the history messages' unit vectors (the history counts like its words do in the lexical
 * query), normalized. Messages without a vector (zero) count for nothing.
 */
export function combineTurnVectors(
  message: ArrayLike<number>,
  history: readonly ArrayLike<number>[],
  historyWeight: number,
): Float32Array {
  const sum = Float64Array.from(normalizeVector(message));
  const units = history.map(normalizeVector).filter((unit) => unit.some((value) => value !== 0));
  for (const unit of units) {
    for (let index = 0; index < sum.length; index++) {
      sum[index]! += (historyWeight * unit[index]!) / units.length;
    }
  }
  return normalizeVector(sum);
}

function checkSignal(signal: unknown, code: string): void {
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new ToolcapError(
      code,
      `${code === 'INVALID_SEARCH_OPTION' ? 'searchAsync' : 'selectAsync'}: signal must be an AbortSignal (such as AbortSignal.timeout(5000)), got ${describeValue(signal)}`,
    );
  }
}

/**
 * `options` without its `name` member, and that member; anything that is not a plain object is
 * passed on unchanged, so `select` and `search` report it as they always do.
 */
export function takeOption<T>(
  options: unknown,
  name: string,
): { value: T | undefined; rest: unknown } {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    return { value: undefined, rest: options };
  }
  if (!Object.hasOwn(options, name)) return { value: undefined, rest: options };
  const { [name]: value, ...rest } = options as Record<string, unknown>;
  return { value: value as T | undefined, rest };
}
