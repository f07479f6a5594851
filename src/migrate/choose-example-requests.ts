import { getDefaultTextAnalyzer } from '../text/text-analyzer.js';

/** Options of `chooseExampleRequests`. */
export interface ChooseExampleRequestsOptions {
  /** Most requests the tool keeps, counting the ones it has. */
  max: number;
  /**
   * Two requests whose word sets have a Jaccard similarity at least this high say the same
   * thing; only the first is kept. Default 0.8.
   */
  similarity?: number;
}

/** What `chooseExampleRequests` added and why it left the rest out. */
export interface ChosenExampleRequests {
  /** New requests to append, in the order they were first seen. */
  added: string[];
  /** Candidates equal to a kept request or an earlier candidate (case, spacing, punctuation). */
  duplicates: number;
  /** Candidates too similar to a kept request. */
  nearDuplicates: number;
  /** Distinct candidates left out because the tool reached `max`. */
  overCap: number;
}

/** The default near-duplicate threshold: Jaccard similarity of the word sets. */
export const NEAR_DUPLICATE_SIMILARITY = 0.8;

interface Candidate {
  text: string;
  terms: ReadonlySet<string>;
  /** 1 - the highest similarity to any kept request (1 when nothing is kept yet). */
  distance: number;
}

/**
 * Picks which `candidates` to add to a tool's `existing` example requests so the set stays
 * varied: exact repeats (ignoring case, spacing and punctuation) are dropped, then requests are
 * added greedily, each time the candidate least similar to everything kept so far (the
 * max-min rule; ties go to the one seen first), until `max` is reached or every candidate left
 * is a near-duplicate of a kept one. Similarity is the Jaccard index of the stemmed words
 * without stopwords. Existing requests are always kept. Deterministic.
 */
export function chooseExampleRequests(
  existing: readonly string[],
  candidates: readonly string[],
  options: ChooseExampleRequestsOptions,
): ChosenExampleRequests {
  const threshold = options.similarity ?? NEAR_DUPLICATE_SIMILARITY;
  const seen = new Set(existing.map(comparisonKey));
  const kept = existing.map(termSet);
  const pool: Candidate[] = [];
  let duplicates = 0;
  for (const text of candidates) {
    const key = comparisonKey(text);
    if (seen.has(key)) {
      duplicates++;
      continue;
    }
    seen.add(key);
    const terms = termSet(text);
    let distance = 1;
    for (const other of kept) distance = Math.min(distance, 1 - jaccard(terms, other));
    pool.push({ text, terms, distance });
  }

  const chosen = new Set<Candidate>();
  let count = existing.length;
  while (count < options.max) {
    let best: Candidate | undefined;
    for (const candidate of pool) {
      if (chosen.has(candidate) || 1 - candidate.distance >= threshold) continue;
      if (best === undefined || candidate.distance > best.distance) best = candidate;
    }
    if (best === undefined) break;
    chosen.add(best);
    count++;
    for (const candidate of pool) {
      if (chosen.has(candidate)) continue;
      candidate.distance = Math.min(candidate.distance, 1 - jaccard(candidate.terms, best.terms));
    }
  }

  let nearDuplicates = 0;
  let overCap = 0;
  for (const candidate of pool) {
    if (chosen.has(candidate)) continue;
    if (1 - candidate.distance >= threshold) nearDuplicates++;
    else overCap++;
  }
  return {
    added: pool.filter((candidate) => chosen.has(candidate)).map((candidate) => candidate.text),
    duplicates,
    nearDuplicates,
    overCap,
  };
}

/** Lowercase letters and digits with single spaces: `Book a room!` → `book a room`. */
function comparisonKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The stemmed words of `text` without stopwords (all of them if only stopwords remain). */
function termSet(text: string): ReadonlySet<string> {
  const analyzer = getDefaultTextAnalyzer();
  const tokens = analyzer.analyze(text);
  const content = new Set<string>();
  for (const token of tokens) if (!analyzer.isStopword(token.word)) content.add(token.term);
  return content.size > 0 ? content : new Set(tokens.map((token) => token.term));
}

/** |a ∩ b| / |a ∪ b|; two empty sets are identical. */
function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const term of small) if (large.has(term)) shared++;
  return shared / (a.size + b.size - shared);
}
