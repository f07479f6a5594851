import type { RegisteredGroup, RegisteredTool } from '../format/types.js';
import type { TextAnalyzer } from '../text/text-analyzer.js';
import { GrowableFloat64Array, GrowableInt32Array } from '../util/growable-array.js';
import { isTooShort } from './analyze-turn.js';
import type { TermVocabulary } from './term-vocabulary.js';
import {
  BM25_K1,
  DOCUMENT_FIELDS,
  type DocumentField,
  groupFieldTexts,
  toolFieldTexts,
} from './tool-document.js';

/** A ranking query: term ids and their weights. */
export interface RankingQuery {
  ids: readonly number[];
  weights: readonly number[];
  /** How many leading terms count in `maxScore` (the rest are related words). */
  own: number;
  /** Summed weight of the message words no tool contains (they count in `maxScore`). */
  unknown: number;
}

/** One scored tool: its catalog position and raw BM25F score. */
export interface ScoredDocument {
  doc: number;
  raw: number;
}

/**
 * A BM25F index over a registry's tools, in catalog order (document `i` is tool `i`).
 *
 * Each (tool, term) weight, `idf · (k1 + 1) · tf' / (k1 + tf')` with `tf'` the field-weighted,
 * length-normalized term frequency, is computed once at build time and stored by term (the
 * postings, in catalog order), so scoring a query costs the postings of its terms, never a
 * pass over the catalog: `search` walks them whole, `scoreRanges` enters each candidate range
 * by binary search. Each tool's sorted term ids are kept too, so results can say which query
 * words a tool contains.
 *
 * Invariant: `#accumulator` is all zeros between calls (each call zeroes what it touched).
 */
export class RelevanceIndex {
  readonly size: number;
  /** Per term `t`, its postings are entries `#termStarts[t]..#termStarts[t + 1]`. */
  readonly #termStarts: Int32Array;
  readonly #postingDocs: Int32Array;
  readonly #postingWeights: Float64Array;
  /** Per tool `d`, its sorted term ids are `#docTerms[#docStarts[d]..#docStarts[d + 1]]`. */
  readonly #docStarts: Int32Array;
  readonly #docTerms: Int32Array;
  readonly #idf: Float64Array;
  /** idf of a term no tool contains: as rare as the rarest indexed term. */
  readonly unknownIdf: number;
  readonly #accumulator: Float64Array;

  constructor(
    tools: readonly RegisteredTool[],
    groups: readonly RegisteredGroup[],
    analyzer: TextAnalyzer,
    vocabulary: TermVocabulary,
    fields: readonly DocumentField[] = DOCUMENT_FIELDS,
  ) {
    const count = tools.length;
    this.size = count;
    const fieldTerms = analyzeFields(tools, groups, analyzer, vocabulary, fields);

    // per field, the average length over the catalog, or over the tools that have a sparse
    // field (at least 1)
    const averages = fields.map(({ sparse }, field) => {
      let total = 0;
      let present = 0;
      for (let doc = 0; doc < count; doc++) {
        const length = fieldTerms.length(doc, field);
        total += length;
        if (length > 0) present++;
      }
      return Math.max(1, total / Math.max(1, sparse === true ? present : count));
    });

    // per tool: each distinct term's field-weighted, length-normalized frequency
    const vocabularySize = vocabulary.size;
    const frequency = new Float64Array(vocabularySize);
    const documentFrequency = new Int32Array(vocabularySize);
    const touched = new Int32Array(vocabularySize);
    const docTerms = new GrowableInt32Array(Math.max(1024, count * 64));
    const docFrequencies = new GrowableFloat64Array(Math.max(1024, count * 64));
    this.#docStarts = new Int32Array(count + 1);
    for (let doc = 0; doc < count; doc++) {
      this.#docStarts[doc] = docTerms.length;
      let distinct = 0;
      fields.forEach(({ weight, b }, field) => {
        const length = fieldTerms.length(doc, field);
        if (length === 0) return;
        const increment = weight / (1 - b + (b * length) / averages[field]!);
        fieldTerms.forEach(doc, field, (id) => {
          if (frequency[id] === 0) touched[distinct++] = id;
          frequency[id]! += increment;
        });
      });
      const sorted = touched.subarray(0, distinct).sort();
      for (const id of sorted) {
        docTerms.push(id);
        docFrequencies.push(frequency[id]!);
        frequency[id] = 0;
        documentFrequency[id]!++;
      }
    }
    this.#docStarts[count] = docTerms.length;
    this.#docTerms = docTerms.trimmed();

    this.#idf = new Float64Array(vocabularySize);
    for (let id = 0; id < vocabularySize; id++) {
      const df = documentFrequency[id]!;
      this.#idf[id] = df === 0 ? 0 : Math.log(1 + (count - df + 0.5) / (df + 0.5));
    }
    this.unknownIdf = Math.log(1 + (count - 1 + 0.5) / 1.5);

    // postings by term, in catalog order
    this.#termStarts = new Int32Array(vocabularySize + 1);
    for (let id = 0; id < vocabularySize; id++) {
      this.#termStarts[id + 1] = this.#termStarts[id]! + documentFrequency[id]!;
    }
    const total = docTerms.length;
    this.#postingDocs = new Int32Array(total);
    this.#postingWeights = new Float64Array(total);
    const next = this.#termStarts.slice(0, vocabularySize);
    const frequencies = docFrequencies.view();
    for (let doc = 0; doc < count; doc++) {
      for (let slot = this.#docStarts[doc]!; slot < this.#docStarts[doc + 1]!; slot++) {
        const id = this.#docTerms[slot]!;
        const at = next[id]!++;
        this.#postingDocs[at] = doc;
        this.#postingWeights[at] = termWeight(this.#idf[id]!, frequencies[slot]!);
      }
    }
    this.#accumulator = new Float64Array(count);
  }

  /** Number of tools containing term `id` (0 for ids added after the index was built). */
  documentFrequency(id: number): number {
    if (id < 0 || id >= this.#idf.length) return 0;
    return this.#termStarts[id + 1]! - this.#termStarts[id]!;
  }

  /**
   * The score a tool containing every own query term with unbounded frequency would approach:
   * dividing by it turns raw scores into 0-1 relevance comparable across queries. Terms no
   * tool contains count with the rarest term's idf; related words do not count.
   */
  maxScore(query: RankingQuery): number {
    let sum = query.unknown * this.unknownIdf;
    for (let index = 0; index < query.own; index++) {
      const id = query.ids[index]!;
      const idf = this.documentFrequency(id) > 0 ? this.#idf[id]! : this.unknownIdf;
      sum += idf * query.weights[index]!;
    }
    return sum * (BM25_K1 + 1);
  }

  /**
   * Raw scores of the tools of `ranges` (flattened `[start, end)` catalog ranges): `out[i]` for
   * `docs[i]`, `from <= i < to`, where those docs are exactly the tools of the ranges. Each
   * query term's postings are entered at each range by binary search, so the cost is (query
   * terms × ranges × log postings) plus the matches, not the size of the catalog.
   */
  scoreRanges(
    query: RankingQuery,
    ranges: readonly number[],
    docs: ArrayLike<number>,
    from: number,
    to: number,
    out: { [slot: number]: number },
  ): void {
    const accumulator = this.#accumulator;
    const ascending = inAscendingOrder(ranges);
    for (let index = 0; index < query.ids.length; index++) {
      const id = query.ids[index]!;
      if (this.documentFrequency(id) === 0) continue;
      const weight = query.weights[index]!;
      const last = this.#termStarts[id + 1]!;
      // ranges in catalog order: each search starts where the previous range ended
      let entry = this.#termStarts[id]!;
      for (let range = 0; range < ascending.length; range += 2) {
        const end = ascending[range + 1]!;
        for (entry = this.#seek(entry, last, ascending[range]!); entry < last; entry++) {
          const doc = this.#postingDocs[entry]!;
          if (doc >= end) break;
          accumulator[doc]! += weight * this.#postingWeights[entry]!;
        }
      }
    }
    for (let index = from; index < to; index++) {
      const doc = docs[index]!;
      out[index] = accumulator[doc]!;
      accumulator[doc] = 0;
    }
  }

  /**
   * The `k` best tools for the query, best first (ties: catalog order), over the whole catalog
   * or the tools `accept` allows; only tools with a positive score. Cost: the query's postings.
   */
  search(query: RankingQuery, k: number, accept?: (doc: number) => boolean): ScoredDocument[] {
    const accumulator = this.#accumulator;
    const touched: number[] = [];
    for (let index = 0; index < query.ids.length; index++) {
      const id = query.ids[index]!;
      if (this.documentFrequency(id) === 0) continue;
      const weight = query.weights[index]!;
      const end = this.#termStarts[id + 1]!;
      for (let entry = this.#termStarts[id]!; entry < end; entry++) {
        const doc = this.#postingDocs[entry]!;
        if (accumulator[doc] === 0) touched.push(doc);
        accumulator[doc]! += weight * this.#postingWeights[entry]!;
      }
    }
    const best = new TopK(k);
    for (const doc of touched) {
      const raw = accumulator[doc]!;
      accumulator[doc] = 0;
      if (raw > 0 && (accept === undefined || accept(doc))) best.offer(doc, raw);
    }
    return best.results();
  }

  /** Whether tool `doc` contains term `id`. */
  hasTerm(doc: number, id: number): boolean {
    return binarySearch(this.#docTerms, this.#docStarts[doc]!, this.#docStarts[doc + 1]!, id) >= 0;
  }

  /**
   * The first postings entry in `entry..last` whose doc is `doc` or later, by galloping from
   * `entry` (steps of 1, 2, 4, ...) and then a binary search: the nearer the answer, the fewer
   * (and more local) the reads.
   */
  #seek(entry: number, last: number, doc: number): number {
    const docs = this.#postingDocs;
    if (entry >= last || docs[entry]! >= doc) return entry;
    let low = entry; // docs[low] < doc
    let step = 1;
    let high = entry + 1;
    while (high < last && docs[high]! < doc) {
      low = high;
      step *= 2;
      high = low + step;
    }
    if (high > last) high = last;
    low++;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (docs[middle]! < doc) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

/** `[start, end, start, end, ...]` pairs sorted by start (the same array when they already are). */
function inAscendingOrder(ranges: readonly number[]): readonly number[] {
  let sorted = true;
  for (let range = 2; range < ranges.length && sorted; range += 2) {
    sorted = ranges[range - 2]! <= ranges[range]!;
  }
  if (sorted) return ranges;
  // insertion sort of the pairs: a turn has a few ranges
  const copy = [...ranges];
  for (let range = 2; range < copy.length; range += 2) {
    const start = copy[range]!;
    const end = copy[range + 1]!;
    let at = range;
    while (at > 0 && copy[at - 2]! > start) {
      copy[at] = copy[at - 2]!;
      copy[at + 1] = copy[at - 1]!;
      at -= 2;
    }
    copy[at] = start;
    copy[at + 1] = end;
  }
  return copy;
}

/** BM25's saturated term weight for a tool whose field-weighted frequency of the term is `tf`. */
export function termWeight(idf: number, tf: number): number {
  return (idf * (BM25_K1 + 1) * tf) / (BM25_K1 + tf);
}

/** Up to this many results are kept by insertion as they come; beyond it they are sorted once. */
const INSERTION_LIMIT = 32;

/**
 * The `k` best of the documents offered (raw descending, then catalog order), best first. A
 * small `k` keeps them by insertion, so a query that touches most of the catalog costs one
 * comparison per document instead of a sort of all of them.
 */
export class TopK {
  readonly #k: number;
  readonly #kept: ScoredDocument[] = [];

  constructor(k: number) {
    this.#k = k;
  }

  offer(doc: number, raw: number): void {
    const kept = this.#kept;
    const k = this.#k;
    if (k > INSERTION_LIMIT) {
      kept.push({ doc, raw });
      return;
    }
    if (kept.length === k && !isBetter(raw, doc, kept[k - 1]!)) return;
    let at = kept.length;
    while (at > 0 && isBetter(raw, doc, kept[at - 1]!)) at--;
    kept.splice(at, 0, { doc, raw });
    if (kept.length > k) kept.pop();
  }

  /** The kept documents, best first. */
  results(): ScoredDocument[] {
    const kept = this.#kept;
    if (this.#k > INSERTION_LIMIT) {
      kept.sort((a, b) => b.raw - a.raw || a.doc - b.doc);
      if (kept.length > this.#k) kept.length = this.#k;
    }
    return kept;
  }
}

function isBetter(raw: number, doc: number, than: ScoredDocument): boolean {
  return raw > than.raw || (raw === than.raw && doc < than.doc);
}

function binarySearch(values: Int32Array, start: number, end: number, value: number): number {
  let low = start;
  let high = end - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const found = values[middle]!;
    if (found === value) return middle;
    if (found < value) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** The term ids of every field of every tool, in one pool. */
interface FieldTerms {
  length(doc: number, field: number): number;
  forEach(doc: number, field: number, visit: (id: number) => void): void;
}

/**
 * Analyzes every field of every tool into term ids (stopwords and single ASCII characters left
 * out; a compound's joined word and its parts both count), appended to one pool: a field is a
 * run `[start, end)` of it. A text that recurs (titles, tags, parameter names, group fields) is
 * analyzed once and its run shared.
 */
function analyzeFields(
  tools: readonly RegisteredTool[],
  groups: readonly RegisteredGroup[],
  analyzer: TextAnalyzer,
  vocabulary: TermVocabulary,
  fields: readonly DocumentField[],
): FieldTerms {
  const wordIds = new Map<string, number>();
  const idOfWord = (word: string): number => {
    let id = wordIds.get(word);
    if (id === undefined) {
      if (analyzer.isStopword(word)) id = -1;
      else {
        const term = analyzer.stem(word);
        id = isTooShort(term) ? -1 : vocabulary.add(term, word);
      }
      wordIds.set(word, id);
    }
    return id;
  };
  const pool = new GrowableInt32Array(Math.max(1024, tools.length * 64));
  const runStarts = new GrowableInt32Array(1024);
  const runEnds = new GrowableInt32Array(1024);
  runStarts.push(0);
  runEnds.push(0); // run 0: the empty text
  const runOfText = new Map<string, number>();
  const runOf = (text: string, repeats: boolean): number => {
    if (text === '') return 0;
    const known = repeats ? runOfText.get(text) : undefined;
    if (known !== undefined) return known;
    const start = pool.length;
    for (const token of analyzer.tokenize(text)) {
      const id = idOfWord(token.text);
      if (id >= 0) pool.push(id);
      for (const part of token.parts) {
        const partId = idOfWord(part);
        if (partId >= 0) pool.push(partId);
      }
    }
    const run = runStarts.length;
    runStarts.push(start);
    runEnds.push(pool.length);
    if (repeats) runOfText.set(text, run);
    return run;
  };
  const groupFields = fields.filter((field) => field.scope === 'group');
  const groupRuns = new Map(
    groups.map((group) => [
      group.group,
      groupFieldTexts(group).map((text, index) => runOf(text, groupFields[index]!.repeats)),
    ]),
  );
  const noGroup = groupFields.map(() => 0);
  const fieldCount = fields.length;
  const runOfField = new Int32Array(tools.length * fieldCount);
  tools.forEach((tool, doc) => {
    const toolTexts = toolFieldTexts(tool);
    const ofGroup = groupRuns.get(tool.group) ?? noGroup;
    let toolField = 0;
    let groupField = 0;
    fields.forEach((field, index) => {
      runOfField[doc * fieldCount + index] =
        field.scope === 'tool'
          ? runOf(toolTexts[toolField++] ?? '', field.repeats)
          : (ofGroup[groupField++] ?? 0);
    });
  });
  const ids = pool.view();
  return {
    length: (doc, field) => {
      const run = runOfField[doc * fieldCount + field]!;
      return runEnds.at(run) - runStarts.at(run);
    },
    forEach: (doc, field, visit) => {
      const run = runOfField[doc * fieldCount + field]!;
      for (let slot = runStarts.at(run); slot < runEnds.at(run); slot++) visit(ids[slot]!);
    },
  };
}
