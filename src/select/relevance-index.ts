import type { RegisteredGroup, RegisteredTool } from '../format/types.js';
import type { TextAnalyzer } from '../text/text-analyzer.js';
import { GrowableFloat64Array, GrowableInt32Array } from '../util/growable-array.js';
import { isTooShort } from './analyze-turn.js';
import type { TermVocabulary } from './term-vocabulary.js';
import { groupFieldTexts, toolFieldTexts } from './tool-document.js';

/** Weight and length normalization of one BM25F field. */
export interface FieldWeight {
  weight: number;
  /** 0: ignore field length; 1: full normalization. */
  b: number;
}

/** BM25F parameters. */
export interface RelevanceParameters {
  k1: number;
  name: FieldWeight;
  title: FieldWeight;
  tags: FieldWeight;
  description: FieldWeight;
  parameterNames: FieldWeight;
  parameterTexts: FieldWeight;
  keywords: FieldWeight;
  group: FieldWeight;
}

/**
 * Default BM25F weights: the tool name counts most, then the group's keywords, title and tags,
 * then the description; parameter text and the group description are weaker evidence.
 */
export const DEFAULT_RELEVANCE_PARAMETERS: Readonly<RelevanceParameters> = Object.freeze({
  k1: 1.2,
  name: Object.freeze({ weight: 3, b: 0.5 }),
  title: Object.freeze({ weight: 2, b: 0.5 }),
  tags: Object.freeze({ weight: 1.5, b: 0.5 }),
  description: Object.freeze({ weight: 1, b: 0.75 }),
  parameterNames: Object.freeze({ weight: 0.6, b: 0.75 }),
  parameterTexts: Object.freeze({ weight: 0.2, b: 0.75 }),
  keywords: Object.freeze({ weight: 1.5, b: 0.5 }),
  group: Object.freeze({ weight: 0.5, b: 0.5 }),
});

const FIELD_COUNT = 8;
/** Postings up to this long are scanned from their start; longer ones get a skip directory. */
const SHORT_POSTINGS = 16;
/** Average postings per skip-directory bucket. */
const POSTINGS_PER_BUCKET = 4;
/**
 * Which of a tool's own fields (name, title, tags, description, parameter names, parameter
 * texts) have texts that repeat across tools, so are worth looking up before analyzing.
 */
const REPEATING_FIELDS = [false, true, true, false, true, false];

/** One scored tool: its catalog position and raw BM25F score. */
export interface ScoredDocument {
  doc: number;
  raw: number;
}

/**
 * A BM25F index over the registry's tools, in catalog order (document `i` is tool `i`). Each
 * (tool, term) weight, idf times the saturated, field-weighted term frequency, is computed once
 * at build time and stored by term in typed arrays, each term's postings in catalog order (a
 * few candidates are scored by entering them through a skip directory, without touching the
 * rest of the catalog; search walks them whole). Each tool's sorted term ids are kept too, so
 * results can say which query words a tool contains.
 */
export class RelevanceIndex {
  readonly size: number;
  readonly k1: number;
  readonly #docStarts: Int32Array;
  readonly #docTerms: Int32Array;
  /**
   * Per term `t`, four integers at `4t`: where its postings start and end (entries of
   * `#postingDocs`), and its skip directory's start in `#skips` (-1 for short postings) and
   * bucket shift. Kept side by side so a query term costs one cache line, not three arrays.
   */
  readonly #termInfo: Int32Array;
  /**
   * Postings, by term in catalog order: entry `i` is the doc at `#postingDocs[2i]` and its
   * weight at `#postingWeights[2i + 1]` (two views of one buffer, so a doc and its weight share
   * a cache line).
   */
  readonly #postingDocs: Int32Array;
  readonly #postingWeights: Float32Array;
  /**
   * Skip directories of long postings: term `t`'s entries for docs of at least `k << shift`
   * start at `#skips[base + k]`, with buckets sized to hold a few entries, so one read finds
   * where a candidate range starts instead of a binary search's chain of probes.
   */
  readonly #skips: Int32Array;
  readonly #idf: Float64Array;
  /** idf of a term no tool contains: as rare as the rarest indexed term. */
  readonly unknownIdf: number;
  #accumulator: Float64Array;

  constructor(
    tools: readonly RegisteredTool[],
    groups: readonly RegisteredGroup[],
    analyzer: TextAnalyzer,
    vocabulary: TermVocabulary,
    parameters: RelevanceParameters = DEFAULT_RELEVANCE_PARAMETERS,
  ) {
    const fields = [
      parameters.name,
      parameters.title,
      parameters.tags,
      parameters.description,
      parameters.parameterNames,
      parameters.parameterTexts,
      parameters.keywords,
      parameters.group,
    ];
    this.k1 = parameters.k1;
    this.size = tools.length;
    // word → term id, or -1 for a stopword or a too-short term: one Map read per word
    const wordIds = new Map<string, number>();
    const idOfWord = (word: string): number => {
      let id = wordIds.get(word);
      if (id === undefined) {
        if (analyzer.isStopword(word)) id = -1;
        else {
          const term = analyzer.stem(word);
          id = isTooShort(term) ? -1 : vocabulary.add(term);
        }
        wordIds.set(word, id);
      }
      return id;
    };
    // pass 1: the term ids of every field, appended to one pool (a typed array per text or
    // per tool costs ~1 µs to allocate, tens of milliseconds over a large catalog); a field is
    // a [start, end) run of the pool. Titles, tags and parameter names repeat: each distinct
    // one is analyzed once and its run shared. Names are unique and descriptions and parameter
    // texts nearly so: looking those up would hash ~5 MB of text at 10,000 tools for no hit.
    const count = tools.length;
    // initial sizes for ~64 term ids a tool (the buffers double when that is short)
    const capacity = Math.max(1 << 10, count * 64);
    const pool = new GrowableInt32Array(capacity);
    const runOfText = new Map<string, number>();
    const runStarts = new GrowableInt32Array(1 << 10);
    const runEnds = new GrowableInt32Array(1 << 10);
    runStarts.push(0);
    runEnds.push(0); // run 0: the empty text
    const runOf = (text: string, shared = true): number => {
      if (text === '') return 0;
      let run = shared ? runOfText.get(text) : undefined;
      if (run !== undefined) return run;
      const start = pool.length;
      for (const token of analyzer.tokenize(text)) {
        const id = idOfWord(token.text);
        if (id >= 0) pool.push(id);
        for (const part of token.parts) {
          const partId = idOfWord(part);
          if (partId >= 0) pool.push(partId);
        }
      }
      run = runStarts.length;
      runStarts.push(start);
      runEnds.push(pool.length);
      if (shared) runOfText.set(text, run);
      return run;
    };
    // group fields are analyzed once per group
    const groupRuns = new Map<string, number[]>();
    for (const group of groups) {
      groupRuns.set(
        group.group,
        groupFieldTexts(group).map((text) => runOf(text)),
      );
    }
    const noGroup = groupFieldTexts(undefined).map((text) => runOf(text));
    // the run of field `f` of tool `d` is fieldRuns[d * FIELD_COUNT + f]
    const fieldRuns = new Int32Array(count * FIELD_COUNT);
    const averages = new Float64Array(FIELD_COUNT);
    tools.forEach((tool, doc) => {
      const runs = [
        ...toolFieldTexts(tool).map((text, field) => runOf(text, REPEATING_FIELDS[field])),
        ...(groupRuns.get(tool.group) ?? noGroup),
      ];
      for (let field = 0; field < FIELD_COUNT; field++) {
        const run = runs[field]!;
        fieldRuns[doc * FIELD_COUNT + field] = run;
        averages[field]! += runEnds.at(run) - runStarts.at(run);
      }
    });
    for (let field = 0; field < FIELD_COUNT; field++) {
      averages[field] = Math.max(1, averages[field]! / Math.max(1, count));
    }

    // pass 2: field-weighted, length-normalized term frequencies per tool, its terms sorted
    const vocabularySize = vocabulary.size;
    const pseudoFrequency = new Float64Array(vocabularySize);
    const documentFrequency = new Int32Array(vocabularySize);
    const touched = new Int32Array(vocabularySize);
    const ids = pool.view();
    const docTerms = new GrowableInt32Array(capacity);
    const frequencies = new GrowableFloat64Array(capacity);
    this.#docStarts = new Int32Array(count + 1);
    for (let doc = 0; doc < count; doc++) {
      this.#docStarts[doc] = docTerms.length;
      let distinct = 0;
      for (let field = 0; field < FIELD_COUNT; field++) {
        const run = fieldRuns[doc * FIELD_COUNT + field]!;
        const start = runStarts.at(run);
        const end = runEnds.at(run);
        if (start === end) continue;
        const { weight, b } = fields[field]!;
        const increment = weight / (1 - b + (b * (end - start)) / averages[field]!);
        for (let slot = start; slot < end; slot++) {
          const id = ids[slot]!;
          if (pseudoFrequency[id] === 0) touched[distinct++] = id;
          pseudoFrequency[id]! += increment;
        }
      }
      const sorted = touched.subarray(0, distinct).sort();
      for (let position = 0; position < distinct; position++) {
        const id = sorted[position]!;
        docTerms.push(id);
        frequencies.push(pseudoFrequency[id]!);
        pseudoFrequency[id] = 0;
        documentFrequency[id]!++;
      }
    }
    const total = docTerms.length;
    this.#docStarts[count] = total;
    this.#docTerms = docTerms.trimmed();

    this.#idf = new Float64Array(vocabularySize);
    for (let id = 0; id < vocabularySize; id++) {
      const frequency = documentFrequency[id]!;
      this.#idf[id] =
        frequency === 0 ? 0 : Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5));
    }
    this.unknownIdf = Math.log(1 + (count - 1 + 0.5) / 1.5);

    // by term: each (tool, term) weight, idf times the saturated term frequency
    const termInfo = new Int32Array(vocabularySize * 4);
    let skipTotal = 0;
    for (let id = 0, start = 0; id < vocabularySize; id++) {
      const frequency = documentFrequency[id]!;
      termInfo[id * 4] = start;
      termInfo[id * 4 + 1] = start + frequency;
      termInfo[id * 4 + 2] = -1;
      start += frequency;
      if (frequency <= SHORT_POSTINGS) continue;
      // buckets of 2^shift docs holding about POSTINGS_PER_BUCKET entries each
      let shift = 0;
      while ((1 << (shift + 1)) * frequency <= POSTINGS_PER_BUCKET * count) shift++;
      termInfo[id * 4 + 2] = skipTotal;
      termInfo[id * 4 + 3] = shift;
      skipTotal += (count >> shift) + 2;
    }
    const buffer = new ArrayBuffer(total * 8);
    const postingDocs = new Int32Array(buffer);
    const postingWeights = new Float32Array(buffer);
    const fill = new Int32Array(vocabularySize);
    for (let id = 0; id < vocabularySize; id++) fill[id] = termInfo[id * 4]!;
    const k1 = this.k1;
    const terms = this.#docTerms;
    const frequencyOf = frequencies.view();
    for (let doc = 0; doc < count; doc++) {
      for (let slot = this.#docStarts[doc]!; slot < this.#docStarts[doc + 1]!; slot++) {
        const id = terms[slot]!;
        const frequency = frequencyOf[slot]!;
        const at = fill[id]!++;
        postingDocs[at * 2] = doc;
        postingWeights[at * 2 + 1] = (this.#idf[id]! * (k1 + 1) * frequency) / (k1 + frequency);
      }
    }
    const skips = new Int32Array(skipTotal);
    for (let id = 0; id < vocabularySize; id++) {
      const base = termInfo[id * 4 + 2]!;
      if (base < 0) continue;
      const shift = termInfo[id * 4 + 3]!;
      const buckets = (count >> shift) + 2;
      const last = termInfo[id * 4 + 1]!;
      let entry = termInfo[id * 4]!;
      for (let bucket = 0; bucket < buckets; bucket++) {
        while (entry < last && postingDocs[entry * 2]! < bucket << shift) entry++;
        skips[base + bucket] = entry;
      }
    }
    this.#termInfo = termInfo;
    this.#postingDocs = postingDocs;
    this.#postingWeights = postingWeights;
    this.#skips = skips;
    this.#accumulator = new Float64Array(count);
  }

  /** Number of tools containing term `id` (0 for ids added after the index was built). */
  documentFrequency(id: number): number {
    if (id < 0 || id >= this.#idf.length) return 0;
    return this.#termInfo[id * 4 + 1]! - this.#termInfo[id * 4]!;
  }

  /**
   * The score a tool containing every query term with unbounded frequency would approach:
   * dividing by it turns raw scores into 0-1 relevance comparable across queries.
   */
  maxScore(queryIds: readonly number[], weights: readonly number[], unknownTerms: number): number {
    let sum = unknownTerms * this.unknownIdf;
    for (let index = 0; index < queryIds.length; index++) {
      const id = queryIds[index]!;
      const idf = this.documentFrequency(id) > 0 ? this.#idf[id]! : this.unknownIdf;
      sum += idf * weights[index]!;
    }
    return sum * (this.k1 + 1);
  }

  /**
   * Raw scores of the tools in `ranges` (flattened `[start, end)` pairs of catalog positions),
   * written to `out[i]` for each `docs[i]` with `from <= i < to`; those docs must be exactly
   * the tools of the ranges.
   * Each query term's postings are entered at each range through the term's skip directory
   * (short postings from their start), so the cost is (query terms × ranges) plus the matches:
   * it does not grow with the catalog.
   */
  scoreRanges(
    queryIds: readonly number[],
    weights: readonly number[],
    ranges: readonly number[],
    docs: ArrayLike<number>,
    from: number,
    to: number,
    out: { [index: number]: number },
  ): void {
    const accumulator = this.#accumulator;
    const termInfo = this.#termInfo;
    const postingDocs = this.#postingDocs;
    const postingWeights = this.#postingWeights;
    const skips = this.#skips;
    const vocabularySize = this.#idf.length;
    for (let index = 0; index < queryIds.length; index++) {
      const id = queryIds[index]!;
      if (id < 0 || id >= vocabularySize) continue;
      const weight = weights[index]!;
      const first = termInfo[id * 4]!;
      const last = termInfo[id * 4 + 1]!;
      if (first === last) continue;
      const skipBase = termInfo[id * 4 + 2]!;
      const skipShift = termInfo[id * 4 + 3]!;
      for (let range = 0; range < ranges.length; range += 2) {
        const start = ranges[range]!;
        const end = ranges[range + 1]!;
        // the first entry at or after `start`: from its skip bucket, or the list's start
        let entry = skipBase >= 0 ? skips[skipBase + (start >> skipShift)]! : first;
        while (entry < last && postingDocs[entry * 2]! < start) entry++;
        for (; entry < last; entry++) {
          const doc = postingDocs[entry * 2]!;
          if (doc >= end) break;
          accumulator[doc]! += weight * postingWeights[entry * 2 + 1]!;
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
   * The `k` best tools for the query, best first (ties: catalog order), over the whole
   * catalog or the tools `accept` allows. Cost: the postings of the query terms.
   */
  search(
    queryIds: readonly number[],
    weights: readonly number[],
    k: number,
    accept?: (doc: number) => boolean,
  ): ScoredDocument[] {
    const accumulator = this.#accumulator;
    const touched: number[] = [];
    for (let index = 0; index < queryIds.length; index++) {
      const id = queryIds[index]!;
      if (id < 0 || id >= this.#idf.length) continue;
      const weight = weights[index]!;
      const end = this.#termInfo[id * 4 + 1]!;
      for (let entry = this.#termInfo[id * 4]!; entry < end; entry++) {
        const doc = this.#postingDocs[entry * 2]!;
        if (accumulator[doc] === 0) touched.push(doc);
        accumulator[doc]! += weight * this.#postingWeights[entry * 2 + 1]!;
      }
    }
    const best: ScoredDocument[] = [];
    for (const doc of touched) {
      const raw = accumulator[doc]!;
      accumulator[doc] = 0;
      if (raw <= 0 || (accept !== undefined && !accept(doc))) continue;
      if (best.length === k) {
        const last = best[k - 1]!;
        if (raw < last.raw || (raw === last.raw && doc > last.doc)) continue;
      }
      const entry = { doc, raw };
      let at = best.length;
      if (at < k) best.push(entry);
      else best[--at] = entry;
      while (at > 0) {
        const previous = best[at - 1]!;
        if (previous.raw > raw || (previous.raw === raw && previous.doc < doc)) break;
        best[at] = previous;
        at--;
      }
      best[at] = entry;
    }
    return best;
  }

  /** Whether tool `doc` contains term `id` (binary search over its sorted terms). */
  hasTerm(doc: number, id: number): boolean {
    let low = this.#docStarts[doc]!;
    let high = this.#docStarts[doc + 1]! - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const value = this.#docTerms[middle]!;
      if (value === id) return true;
      if (value < id) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }
}
