/**
 * Deterministic synthetic registries for the benchmark: 20 tools a group; 5-15 keywords a group,
 * drawn mostly from the group's own slice of a large term pool (so most keywords belong to one
 * or two groups, as in real catalogs) and sometimes from shared domain nouns; input schemas of
 * 2-12 properties, some nested; descriptions written from templates. Same seed, same files.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DOMAIN_NOUNS, FIELDS, FILLER, generateJargon, pick, VERBS } from './vocabulary.mjs';

export const TOOLS_PER_GROUP = 20;

/** mulberry32: a small, fast, seedable PRNG returning floats in [0, 1). */
export function createRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

function integer(random, min, max) {
  return min + Math.floor(random() * (max - min + 1));
}

function sample(list, count, random) {
  const copy = [...list];
  const out = [];
  while (out.length < count && copy.length > 0) {
    out.push(copy.splice(Math.floor(random() * copy.length), 1)[0]);
  }
  return out;
}

function capitalize(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const CATEGORIES = { creation: ['create', 'generate', 'submit', 'upload', 'import', 'schedule'] };
const RETRIEVAL = new Set([
  'get',
  'list',
  'search',
  'find',
  'export',
  'download',
  'preview',
  'track',
]);
const ANALYSIS = new Set(['compare', 'summarize', 'estimate', 'validate', 'verify', 'monitor']);

function categoryOf(verb) {
  if (CATEGORIES.creation.includes(verb)) return 'creation';
  if (RETRIEVAL.has(verb)) return 'retrieval';
  if (ANALYSIS.has(verb)) return 'analysis';
  return 'mutation';
}

/** One property schema; `depth` > 0 may nest an object or an array of objects. */
function propertySchema(random, field, terms, depth) {
  const about = `${pick(terms, random)} ${field.replaceAll('_', ' ')}`;
  const roll = random();
  if (depth > 0 && roll < 0.15) {
    const names = sample(FIELDS, integer(random, 2, 4), random);
    const properties = Object.fromEntries(
      names.map((name) => [name, propertySchema(random, name, terms, depth - 1)]),
    );
    return {
      type: 'object',
      description: `The ${about}, as an object`,
      properties,
      required: names.slice(0, 1),
    };
  }
  if (depth > 0 && roll < 0.25) {
    const names = sample(FIELDS, integer(random, 2, 3), random);
    return {
      type: 'array',
      description: `The ${about} entries`,
      items: {
        type: 'object',
        properties: Object.fromEntries(
          names.map((name) => [name, propertySchema(random, name, terms, 0)]),
        ),
      },
      maxItems: 100,
    };
  }
  if (roll < 0.35) {
    return {
      type: 'string',
      enum: sample(['low', 'normal', 'high', 'open', 'closed', 'draft', 'final', 'any'], 3, random),
      description: `Which ${about} to use`,
    };
  }
  if (roll < 0.5) {
    return { type: 'integer', minimum: 0, maximum: 10_000, description: `The ${about} (a count)` };
  }
  if (roll < 0.58) return { type: 'boolean', description: `Whether to include the ${about}` };
  if (roll < 0.66) return { type: 'array', items: { type: 'string' }, description: `${about}s` };
  if (roll < 0.72) return { type: 'number', description: `The ${about} amount` };
  return { type: 'string', maxLength: 500, description: `The ${about}` };
}

function inputSchema(random, terms) {
  const names = sample(FIELDS, integer(random, 2, 12), random);
  const properties = Object.fromEntries(
    names.map((name) => [name, propertySchema(random, name, terms, 1)]),
  );
  return {
    type: 'object',
    properties,
    required: names.slice(0, integer(random, 0, Math.min(3, names.length))),
    additionalProperties: false,
  };
}

/**
 * A catalog of `toolCount` tools (a multiple of 20) as group definitions, plus the messages and
 * queries used to time it. The term pool grows with the catalog: about eight terms per group.
 */
export function generateCatalog(toolCount, seed = 7) {
  const random = createRandom(seed);
  const groupCount = Math.ceil(toolCount / TOOLS_PER_GROUP);
  const poolSize = Math.max(600, groupCount * 8);
  const jargon = generateJargon(poolSize, random, new Set(DOMAIN_NOUNS));
  const shared = DOMAIN_NOUNS;
  const groups = [];
  const usedGroupNames = new Set();
  for (let groupIndex = 0; groupIndex < groupCount; groupIndex++) {
    // each group owns a window of the jargon pool that overlaps its neighbours' windows
    const window = jargon.slice((groupIndex * 8) % poolSize, ((groupIndex * 8) % poolSize) + 14);
    const domain = pick(shared, random);
    let name = `${window[0]}_${domain}`;
    while (usedGroupNames.has(name)) name = `${name}_${groupIndex}`;
    usedGroupNames.add(name);
    const keywordCount = integer(random, 5, 15);
    const keywords = new Set();
    while (keywords.size < keywordCount) {
      const roll = random();
      if (roll < 0.7) keywords.add(pick(window, random));
      else if (roll < 0.85) keywords.add(pick(shared, random));
      else keywords.add(`${pick(window, random)} ${pick(shared, random)}`);
    }
    const terms = [...window, domain, ...sample(shared, 6, random)];
    const title = `${capitalize(window[0])} ${domain}`;
    const tools = [];
    const usedToolNames = new Set();
    for (let toolIndex = 0; toolIndex < TOOLS_PER_GROUP; toolIndex++) {
      const verb = pick(VERBS, random);
      const object = pick(terms, random);
      let toolName = `${window[0]}_${verb}_${object}`;
      for (let suffix = 2; usedToolNames.has(toolName); suffix++) {
        toolName = `${window[0]}_${verb}_${object}_${suffix}`;
      }
      usedToolNames.add(toolName);
      const other = pick(terms, random);
      const field = pick(FIELDS, random).replaceAll('_', ' ');
      tools.push({
        name: toolName,
        title: `${capitalize(verb)} ${object}`,
        description:
          `${capitalize(verb)} a ${object} in ${title}. Use it when the user wants to ${verb} ` +
          `${object}s by ${field} or ${pick(FIELDS, random).replaceAll('_', ' ')}; it returns ` +
          `the ${object} id, its ${other} and ${pick(FIELDS, random).replaceAll('_', ' ')}.`,
        category: categoryOf(verb),
        tags: [domain, window[0]],
        input_schema: inputSchema(random, terms),
        metadata: {
          executor: name,
          requires_context: [],
          cost_estimate: pick(['low', 'low', 'medium', 'high'], random),
          latency_estimate: pick(['fast', 'fast', 'medium', 'slow'], random),
        },
      });
    }
    groups.push({
      group: name,
      version: '1.0.0',
      description: `${title} tools: ${tools
        .slice(0, 3)
        .map((tool) => tool.title.toLowerCase())
        .join(', ')} and more for ${domain} work.`,
      selection: { strategy: 'keyword', keywords: [...keywords] },
      tools,
    });
  }
  return { groups, tools: groups.flatMap((group) => group.tools), random };
}

/** Fills `words` with filler up to `length` words, shuffled in place by `random`. */
function padWords(words, length, random) {
  while (words.length < length) words.push(pick(FILLER, random));
  for (let index = words.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [words[index], words[other]] = [words[other], words[index]];
  }
  return words;
}

/**
 * `count` user messages of 20 words, each with 2-4 keyword hits (keywords of random groups, as
 * written: multi-word keywords stay together) among everyday words.
 */
export function generateMessages(catalog, count, seed = 11) {
  const random = createRandom(seed);
  const messages = [];
  for (let index = 0; index < count; index++) {
    const hits = integer(random, 2, 4);
    const chunks = [];
    let words = 0;
    for (let hit = 0; hit < hits; hit++) {
      const group = pick(catalog.groups, random);
      const keyword = pick(group.selection.keywords, random);
      chunks.push(keyword);
      words += keyword.split(' ').length;
    }
    const filler = padWords([], 20 - words, random);
    // keep multi-word keywords contiguous: insert chunks at random places among the filler
    for (const chunk of chunks) filler.splice(Math.floor(random() * (filler.length + 1)), 0, chunk);
    messages.push(filler.join(' '));
  }
  return messages;
}

/** `count` search queries of 20 words: 4-6 words of one tool's name or description, plus filler. */
export function generateQueries(catalog, count, seed = 13) {
  const random = createRandom(seed);
  const queries = [];
  for (let index = 0; index < count; index++) {
    const tool = pick(catalog.tools, random);
    const source = `${tool.name.replaceAll('_', ' ')} ${tool.description}`
      .toLowerCase()
      .replace(/[^a-z0-9 ]/g, ' ')
      .split(/\s+/)
      .filter((word) => word.length > 2);
    queries.push(padWords(sample(source, integer(random, 4, 6), random), 20, random).join(' '));
  }
  return queries;
}

/** Writes one `<group>_tools.json` per group into `dir`. */
export async function writeCatalog(catalog, dir) {
  await mkdir(dir, { recursive: true });
  await Promise.all(
    catalog.groups.map((group) =>
      writeFile(join(dir, `${group.group}_tools.json`), `${JSON.stringify(group, null, 2)}\n`),
    ),
  );
}
