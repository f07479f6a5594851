/**
 * The reference lexical baseline selection is compared against, re-implemented: Okapi BM25
 * (k1 = 1.2, b = 0.75); tokens are camelCase-split, lowercased alphanumeric runs minus a small
 * stopword list, optionally with light suffix stemming (ing/ed/es/s). Ties keep catalog order.
 */

const STOPWORDS = new Set(
  'a an the and or of to in on for with by at from is are was were be been it this that these those i me my we you your can could would should will do does did please what which who how'.split(
    ' ',
  ),
);

function lightStem(word) {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 4 && word.endsWith('es')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** Tokens of `text` the way the reference baseline makes them. */
export function baselineTokens(text, stem) {
  const split = text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  const words = split.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const kept = words.filter((word) => !STOPWORDS.has(word));
  return stem ? kept.map(lightStem) : kept;
}

/** A BM25 index over `documents` (strings), searched with `rank(query)`. */
export function createBaselineIndex(documents, { stem = false, k1 = 1.2, b = 0.75 } = {}) {
  const docs = documents.map((text) => {
    const counts = new Map();
    const tokens = baselineTokens(text, stem);
    for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
    return { counts, length: tokens.length };
  });
  const average = docs.reduce((sum, doc) => sum + doc.length, 0) / Math.max(1, docs.length);
  const frequency = new Map();
  for (const doc of docs)
    for (const term of doc.counts.keys()) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const count = docs.length;
  const idf = (term) => {
    const df = frequency.get(term) ?? 0;
    return Math.log(1 + (count - df + 0.5) / (df + 0.5));
  };
  return {
    /** Document indices with a positive score, best first; ties in catalog order. */
    rank(query) {
      const terms = [...new Set(baselineTokens(query, stem))];
      const scored = [];
      docs.forEach((doc, index) => {
        let score = 0;
        for (const term of terms) {
          const tf = doc.counts.get(term);
          if (tf === undefined) continue;
          score += (idf(term) * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * doc.length) / average));
        }
        if (score > 0) scored.push({ index, score });
      });
      scored.sort((x, y) => y.score - x.score || x.index - y.index);
      return scored.map((entry) => entry.index);
    },
  };
}
