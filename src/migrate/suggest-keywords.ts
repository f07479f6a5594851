import { createRequire } from 'node:module';
import { findStopwordOfTerm } from '../text/stopword-terms.js';
import { ENGLISH_STOPWORDS } from '../text/stopwords.js';
import { getDefaultTextAnalyzer } from '../text/text-analyzer.js';
import { splitWords } from './infer-category.js';

const require = createRequire(import.meta.url);

interface TfIdfInstance {
  addDocument(document: string[]): void;
  tfidf(terms: string[], index: number): number;
}
type TfIdfConstructor = new () => TfIdfInstance;

// natural's submodules, loaded on first use: never the natural index (300 ms, DB drivers, dotenv)
let tfIdfClass: TfIdfConstructor | undefined;
let stopwords: ReadonlySet<string> | undefined;
let stem: ((word: string) => string) | undefined;

function loadNatural(): void {
  tfIdfClass ??= require('natural/lib/natural/tfidf/tfidf.js') as TfIdfConstructor;
  stopwords ??= new Set([
    ...(require('natural/lib/natural/util/stopwords.js') as { words: string[] }).words,
    // the words validate reports as too common to be a keyword (KEYWORD_TOO_COMMON)
    ...ENGLISH_STOPWORDS,
    ...TOOL_WORDS,
  ]);
  if (stem === undefined) {
    const porter = (
      require('natural/lib/natural/stemmers/porter_stemmer.js') as { stem(word: string): string }
    ).stem;
    const stems = new Map<string, string>();
    stem = (word) => {
      let result = stems.get(word);
      if (result === undefined) {
        result = porter(word);
        if (stems.size >= STEM_CACHE_SIZE) stems.clear();
        stems.set(word, result);
      }
      return result;
    };
  }
}

/**
 * Verbs and nouns of any domain ("create a new file" is not about a calendar): as a keyword,
 * one of them offers its group for messages about every other group's tools.
 */
const ACTION_WORDS = [
  'create',
  'get',
  'list',
  'find',
  'search',
  'read',
  'write',
  'update',
  'delete',
  'remove',
  'add',
  'set',
  'show',
  'make',
  'close',
  'open',
  'run',
  'check',
  'send',
  'edit',
  'complete',
  'record',
  'info',
  'data',
  'new',
  'fetch',
  'retrieve',
  'manage',
  'view',
  'change',
  'save',
  'load',
  'call',
  'execute',
  'perform',
  'handle',
  'process',
];

/** Words every tool list uses: they say nothing about what a group is for. */
const TOOL_WORDS = [
  'tool',
  'tools',
  'function',
  'functions',
  'parameter',
  'parameters',
  'param',
  'params',
  'value',
  'values',
  'given',
  'specified',
  'specific',
  'use',
  'used',
  'using',
  'returns',
  'return',
  'result',
  'results',
  'input',
  'output',
  'default',
  'optional',
  'required',
  'string',
  'number',
  'integer',
  'boolean',
  'array',
  'object',
  // type names of Python docstrings ("fromdate (str): Start date")
  'str',
  'int',
  'float',
  'bool',
  'dict',
  'tuple',
  'none',
  'arg',
  'args',
  'kwargs',
  'true',
  'false',
  'null',
  'e',
  'g',
  'eg',
  'etc',
  'mcp',
  'server',
  'will',
  'one',
  'two',
  'based',
  'provided',
  'provide',
  'provides',
  // the Chinese counterparts (bigrams): via, for, according to, return, get, can, use, ...
  '通过',
  '用于',
  '根据',
  '返回',
  '获取',
  '可以',
  '使用',
  '提供',
  '进行',
  '一个',
  '如果',
  '指定',
  '需要',
  '支持',
  '包括',
];

const MIN_WORD_LENGTH = 3;
const STEM_CACHE_SIZE = 100_000;
const MAX_WORD_LENGTH = 24;
/** Name words count twice: a tool's name is its most deliberate description. */
const NAME_WEIGHT = 2;

/** Options of `suggestKeywords`. */
export interface SuggestKeywordsOptions {
  /** Texts of the other groups (one document each); their words score lower. */
  rest?: readonly string[];
  /** How many keywords to return. Default 8. */
  limit?: number;
}

/**
 * Suggests trigger keywords for a keyword group: the words of its tools' names and
 * descriptions ranked by TF-IDF (natural's TfIdf) with the group as one document against one
 * document per other group, so words that set the group apart rank first. Words are
 * lowercased, stop words and tool boilerplate dropped, inflections merged by Porter stem
 * (the most frequent spelling is kept), and Chinese or Japanese text split into character
 * bigrams. Falls back to the words of `fallback` (e.g. the group
 * name) when nothing qualifies. Deterministic: ties sort alphabetically.
 */
export function suggestKeywords(
  tools: readonly { name: string; description?: string }[],
  fallback: string,
  options: SuggestKeywordsOptions = {},
): string[] {
  loadNatural();
  const limit = options.limit ?? 8;
  const spellings = new Map<string, Map<string, number>>();
  const groupTerms: string[] = [];
  for (const tool of tools) {
    for (const word of keywordWords(tool.name)) {
      for (let count = 0; count < NAME_WEIGHT; count++) groupTerms.push(record(word, spellings));
    }
    for (const word of keywordWords(tool.description ?? '')) {
      groupTerms.push(record(word, spellings));
    }
  }
  const tfidf = new tfIdfClass!();
  tfidf.addDocument(groupTerms);
  for (const text of options.rest ?? []) tfidf.addDocument(restTerms(text));
  const scored = [...spellings.keys()].map((term) => ({
    keyword: preferredSpelling(spellings.get(term)!),
    score: tfidf.tfidf([term], 0),
  }));
  scored.sort((a, b) => b.score - a.score || (a.keyword < b.keyword ? -1 : 1));
  const keywords = scored.slice(0, limit).map((entry) => entry.keyword);
  if (keywords.length > 0) return keywords;
  const fallbackWords = [...new Set(splitWords(fallback))].slice(0, limit);
  return fallbackWords.length > 0 ? fallbackWords : [fallback];
}

/** The text `suggestKeywords` reads from a group, for use as another group's `rest` entry. */
export function keywordDocument(tools: readonly { name: string; description?: string }[]): string {
  return tools.map((tool) => `${tool.name} ${tool.description ?? ''}`).join('\n');
}

// importing many groups ranks each against all the others: analyse each text once
const restCache = new Map<string, string[]>();
const REST_CACHE_SIZE = 1_000;

function restTerms(text: string): string[] {
  let terms = restCache.get(text);
  if (terms === undefined) {
    terms = keywordWords(text).map((word) => stem!(word));
    if (restCache.size >= REST_CACHE_SIZE) restCache.clear();
    restCache.set(text, terms);
  }
  return terms;
}

const CJK_RUNS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu;
/** Chinese particles and connectives: a bigram holding one is rarely a topic. */
const CJK_PARTICLES = /[的了和或在是与及等为并将对从把被也就都而之其所以该此]/u;
const CJK = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * Candidate keywords of a text. Chinese and Japanese are written without spaces, so a run of
 * their characters becomes its character bigrams ("搜索卡牌" → 搜索, 索卡, 卡牌), the usual
 * unit for ranking such text; other words are kept whole.
 */
function keywordWords(text: string): string[] {
  const words: string[] = [];
  for (const word of splitWords(text)) {
    for (const run of word.match(CJK_RUNS) ?? []) {
      if (CJK.test(run)) {
        for (let index = 0; index + 2 <= run.length; index++) {
          const bigram = run.slice(index, index + 2);
          if (!CJK_PARTICLES.test(bigram) && !stopwords!.has(bigram)) words.push(bigram);
        }
      } else if (
        run.length >= MIN_WORD_LENGTH &&
        run.length <= MAX_WORD_LENGTH &&
        !/^\d+$/.test(run) &&
        !stopwords!.has(run) &&
        isSpecific(getDefaultTextAnalyzer().stem(run))
      ) {
        words.push(run);
      }
    }
  }
  return words;
}

let actionStems: ReadonlySet<string> | undefined;

/**
 * Whether a word's stem may make a keyword. Keyword matching compares stems, so "ups" would
 * fire on every "up", and "creates" on every "create".
 */
function isSpecific(term: string): boolean {
  actionStems ??= new Set(ACTION_WORDS.map((word) => getDefaultTextAnalyzer().stem(word)));
  return !actionStems.has(term) && findStopwordOfTerm(term) === undefined;
}

function record(word: string, spellings: Map<string, Map<string, number>>): string {
  const term = stem!(word);
  let forms = spellings.get(term);
  if (forms === undefined) {
    forms = new Map();
    spellings.set(term, forms);
  }
  forms.set(word, (forms.get(word) ?? 0) + 1);
  return term;
}

function preferredSpelling(forms: ReadonlyMap<string, number>): string {
  let best = '';
  let bestCount = -1;
  for (const [form, count] of forms) {
    if (
      count > bestCount ||
      (count === bestCount &&
        (form.length < best.length || (form.length === best.length && form < best)))
    ) {
      best = form;
      bestCount = count;
    }
  }
  return best;
}
