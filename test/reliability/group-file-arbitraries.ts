import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { JsonValue } from '../../src/format/types.js';

/** A group file used as the starting point of mutations. */
export interface SeedFile {
  fileName: string;
  value: JsonValue;
}

/** A file to write into a schema directory: a name and its bytes. */
export interface GeneratedFile {
  fileName: string;
  content: Buffer;
}

const ROOT = join(import.meta.dirname, '../..');
const SEED_DIRS = [join(ROOT, 'schemas'), join(ROOT, 'test/fixtures/groups/valid')];

/** The bundled groups and the valid fixtures, parsed. */
export const SEED_FILES: readonly SeedFile[] = SEED_DIRS.flatMap((dir) =>
  readdirSync(dir)
    .filter((name) => name.endsWith('_tools.json'))
    .sort()
    .map((fileName) => ({
      fileName,
      value: JSON.parse(
        readFileSync(join(dir, fileName), 'utf8').replace(/^\uFEFF/, ''),
      ) as JsonValue,
    })),
);

/** Names that must never reach an object prototype. */
export const DANGEROUS_NAMES = ['__proto__', 'constructor', 'prototype'] as const;

/** Strings that break naive code: control characters, surrogates, bidi, BOM, combining marks. */
export const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  '\uFEFF',
  '\uD800',
  '\uDFFF',
  '\u202E\u0644\u0627',
  '\u200B\u200D',
  'e\u0301\u0301\u0301',
  '\uD83D\uDE00\uD83D\uDC69\u200D\uD83D\uDCBB',
  '\r\n\t\\"/',
  '~0~1/%25%',
  '#/$defs/x',
  'toString',
  'hasOwnProperty',
  'valueOf',
  ...DANGEROUS_NAMES,
] as const;

type Mutation =
  | { kind: 'delete'; at: number }
  | { kind: 'replace'; at: number; value: JsonValue }
  | { kind: 'retype'; at: number }
  | { kind: 'huge-string'; at: number; length: number; unit: string }
  | { kind: 'odd-string'; at: number; text: string }
  | { kind: 'deep'; at: number; depth: number; shape: DeepShape }
  | { kind: 'dangerous-key'; at: number; key: string; value: JsonValue }
  | { kind: 'duplicate'; at: number };

type DeepShape = 'object' | 'array' | 'schema';

type TextMutation =
  | { kind: 'bom'; count: number }
  | { kind: 'truncate'; fraction: number }
  | { kind: 'insert'; fraction: number; text: string }
  | { kind: 'crlf' }
  | { kind: 'trailing'; text: string };

const position = fc.nat();
const fraction = fc.double({ min: 0, max: 1, noNaN: true });
const oddString = fc.oneof(
  fc.constantFrom(...ODD_STRINGS),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);
const smallJson = fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<JsonValue>;
const deepShape = fc.constantFrom<DeepShape>('object', 'array', 'schema');

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('delete' as const), at: position }), weight: 3 },
  {
    arbitrary: fc.record({ kind: fc.constant('replace' as const), at: position, value: smallJson }),
    weight: 3,
  },
  { arbitrary: fc.record({ kind: fc.constant('retype' as const), at: position }), weight: 3 },
  {
    arbitrary: fc.record({
      kind: fc.constant('huge-string' as const),
      at: position,
      length: fc.integer({ min: 10_000, max: 300_000 }),
      unit: fc.constantFrom('x', 'é', '\uD83D\uDE00', ' ', '\\'),
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('odd-string' as const),
      at: position,
      text: oddString,
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('deep' as const),
      at: position,
      depth: fc.oneof(fc.integer({ min: 1, max: 120 }), fc.integer({ min: 1_000, max: 12_000 })),
      shape: deepShape,
    }),
    weight: 1,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('dangerous-key' as const),
      at: position,
      key: fc.constantFrom(...DANGEROUS_NAMES, 'toString', 'x-ext'),
      value: smallJson,
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('duplicate' as const), at: position }), weight: 1 },
);

const textMutation: fc.Arbitrary<TextMutation> = fc.oneof(
  fc.record({ kind: fc.constant('bom' as const), count: fc.integer({ min: 1, max: 2 }) }),
  fc.record({ kind: fc.constant('truncate' as const), fraction }),
  fc.record({
    kind: fc.constant('insert' as const),
    fraction,
    text: fc.oneof(fc.constantFrom(',', '}', ']', '"', '//', '\u0000', 'NaN', '\\'), oddString),
  }),
  fc.record({ kind: fc.constant('crlf' as const) }),
  fc.record({
    kind: fc.constant('trailing' as const),
    text: fc.constantFrom('\n', '}', ' {}', '\u0000'),
  }),
);

const fileNamePrefix = fc.constantFrom(
  ...DANGEROUS_NAMES,
  'x',
  'Bad-Name',
  'caf\u00e9',
  'calendar',
  'a'.repeat(80),
);

/** A valid group file changed by up to six structural and two textual mutations. */
export const mutatedGroupFile: fc.Arbitrary<GeneratedFile> = fc
  .record({
    seed: fc.nat(),
    mutations: fc.array(mutation, { maxLength: 6 }),
    textMutations: fc.array(textMutation, { maxLength: 2 }),
    prefix: fc.option(fileNamePrefix, { freq: 4 }),
    // rarely: the right JSON in the wrong encoding
    utf16: fc.integer({ min: 0, max: 19 }).map((roll) => roll === 0),
  })
  .map(({ seed, mutations, textMutations, prefix, utf16 }) => {
    const source = SEED_FILES[seed % SEED_FILES.length]!;
    let value = cloneJson(source.value);
    for (const change of mutations) value = applyMutation(value, change);
    let text = serialize(value);
    for (const change of textMutations) text = applyTextMutation(text, change);
    return describedFile(
      prefix === null ? source.fileName : `${prefix}_tools.json`,
      Buffer.from(text, utf16 ? 'utf16le' : 'utf8'),
    );
  });

/** A group-shaped object built from scratch, mixing valid and random values for every field. */
export const groupShapedFile: fc.Arbitrary<GeneratedFile> = fc
  .record({
    prefix: fc.constantFrom('alpha', 'beta', ...DANGEROUS_NAMES),
    document: fc.record(
      {
        group: fc.oneof(fc.constantFrom('alpha', 'beta', ...DANGEROUS_NAMES), oddString),
        version: fc.oneof(fc.constantFrom('1.0.0', '2.0.0-rc.1', 'v1', '01.0.0'), oddString),
        description: fc.oneof(fc.constant('A group.'), smallJson),
        selection: fc.oneof(
          fc.record(
            {
              strategy: fc.constantFrom('always', 'keyword', 'context', 'sometimes'),
              keywords: fc.array(fc.oneof(oddString, smallJson), { maxLength: 5 }),
              context_check: fc.oneof(fc.constantFrom(...DANGEROUS_NAMES), oddString),
            },
            { requiredKeys: ['strategy'] },
          ),
          smallJson,
        ),
        tools: fc.oneof(fc.array(toolShapedValue(), { maxLength: 4 }), smallJson),
      },
      { requiredKeys: [] },
    ),
  })
  .map(({ prefix, document }) =>
    describedFile(`${prefix}_tools.json`, Buffer.from(JSON.stringify(document), 'utf8')),
  );

function toolShapedValue(): fc.Arbitrary<unknown> {
  const name = fc.oneof(
    fc.constantFrom(...DANGEROUS_NAMES, 'do_thing', 'toString', 'hasOwnProperty'),
    oddString,
  );
  return fc.oneof(
    fc.record(
      {
        name,
        description: fc.oneof(fc.constant('Does it.'), smallJson),
        category: fc.constantFrom('creation', 'retrieval', 'mutation', 'analysis', 'other'),
        input_schema: fc.oneof(
          fc.record({
            type: fc.constant('object'),
            properties: fc.dictionary(
              fc.oneof(fc.constantFrom(...DANGEROUS_NAMES), oddString),
              fc.oneof(fc.constant({ type: 'string' }), smallJson),
              { maxKeys: 4 },
            ),
            required: fc.array(fc.oneof(fc.constantFrom(...DANGEROUS_NAMES), oddString), {
              maxLength: 3,
            }),
          }),
          smallJson,
        ),
        metadata: fc.oneof(
          fc.record({
            executor: fc.constantFrom('things', '../../x', '__proto__', 'constructor'),
            requires_context: fc.array(fc.oneof(fc.constantFrom(...DANGEROUS_NAMES), oddString), {
              maxLength: 3,
            }),
          }),
          smallJson,
        ),
      },
      { requiredKeys: [] },
    ),
    smallJson,
  );
}

/** Any JSON text, or text that is almost JSON. */
export const randomJsonFile: fc.Arbitrary<GeneratedFile> = fc
  .record({
    prefix: fc.constantFrom('random', ...DANGEROUS_NAMES),
    text: fc.oneof(
      fc.json({ maxDepth: 4 }),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value).slice(0, -1)),
    ),
  })
  .map(({ prefix, text }) => describedFile(`${prefix}_tools.json`, Buffer.from(text, 'utf8')));

/**
 * A generated file that fast-check reports as its name, size and the start of its text (a
 * counterexample can be megabytes deep; printing it whole would overflow the reporter).
 */
export function describedFile(fileName: string, content: Buffer): GeneratedFile {
  return {
    fileName,
    content,
    [fc.toStringMethod]: () =>
      `${fileName} (${content.length} bytes): ${JSON.stringify(content.toString('utf8', 0, 300))}`,
  } as GeneratedFile;
}

/** JSON round trip: a deep copy that keeps own `__proto__` keys as own keys. */
function cloneJson(value: JsonValue): JsonValue {
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}

interface Location {
  parent: Record<string, JsonValue> | JsonValue[] | undefined;
  key: string;
}

/** Every position in the document (the root first), without recursion. */
function locations(root: JsonValue): Location[] {
  const found: Location[] = [{ parent: undefined, key: '' }];
  const stack: JsonValue[] = [root];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    for (const key of Object.keys(current)) {
      found.push({ parent: current, key });
      stack.push((current as Record<string, JsonValue>)[key]!);
    }
  }
  return found;
}

function readAt(root: JsonValue, location: Location): JsonValue {
  return location.parent === undefined
    ? root
    : (location.parent as Record<string, JsonValue>)[location.key]!;
}

/** Sets a value as an own property, even for the key `__proto__`. Returns the new root. */
function writeAt(root: JsonValue, location: Location, value: JsonValue): JsonValue {
  if (location.parent === undefined) return value;
  Object.defineProperty(location.parent, location.key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return root;
}

function applyMutation(root: JsonValue, change: Mutation): JsonValue {
  const all = locations(root);
  const location = all[change.at % all.length]!;
  const current = readAt(root, location);
  switch (change.kind) {
    case 'delete':
      if (location.parent === undefined) return {};
      if (Array.isArray(location.parent)) location.parent.splice(Number(location.key), 1);
      else delete location.parent[location.key];
      return root;
    case 'replace':
      return writeAt(root, location, change.value);
    case 'retype':
      return writeAt(root, location, retype(current));
    case 'huge-string':
      return writeAt(root, location, change.unit.repeat(change.length / change.unit.length));
    case 'odd-string':
      if (current !== null && typeof current === 'object' && !Array.isArray(current)) {
        // an odd key rather than an odd value
        return writeAt(root, { parent: current, key: change.text }, 'odd');
      }
      return writeAt(root, location, change.text);
    case 'deep':
      return writeAt(root, location, `\u0000DEEP${change.depth}:${change.shape}\u0000`);
    case 'dangerous-key': {
      const target =
        current !== null && typeof current === 'object' && !Array.isArray(current)
          ? current
          : location.parent !== undefined && !Array.isArray(location.parent)
            ? location.parent
            : undefined;
      if (target === undefined) return root;
      return writeAt(root, { parent: target, key: change.key }, change.value);
    }
    case 'duplicate':
      if (Array.isArray(location.parent)) location.parent.push(cloneJson(current));
      else if (Array.isArray(current) && current.length > 0) current.push(cloneJson(current[0]!));
      return root;
  }
}

function retype(value: JsonValue): JsonValue {
  if (value === null) return {};
  if (Array.isArray(value)) return Object.fromEntries(value.map((item, index) => [index, item]));
  switch (typeof value) {
    case 'string':
      return Number.isNaN(Number(value)) ? value.length : Number(value);
    case 'number':
      return String(value);
    case 'boolean':
      return value ? 'true' : 0;
    default:
      return Object.values(value);
  }
}

/** JSON text with the deep-nesting placeholders expanded (built as text: no recursion). */
function serialize(value: JsonValue): string {
  return JSON.stringify(value, null, 2).replace(
    /"\\u0000DEEP(\d+):(object|array|schema)\\u0000"/g,
    (_match, depth: string, shape: DeepShape) => nestedText(Number(depth), shape),
  );
}

function nestedText(depth: number, shape: DeepShape): string {
  switch (shape) {
    case 'object':
      return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    case 'array':
      return `${'['.repeat(depth)}${']'.repeat(depth)}`;
    case 'schema':
      return `${'{"type":"object","properties":{"next":'.repeat(depth)}{"type":"string"}${'}}'.repeat(depth)}`;
  }
}

function applyTextMutation(text: string, change: TextMutation): string {
  switch (change.kind) {
    case 'bom':
      return '\uFEFF'.repeat(change.count) + text;
    case 'truncate':
      return text.slice(0, Math.floor(text.length * change.fraction));
    case 'insert': {
      const at = Math.floor(text.length * change.fraction);
      return text.slice(0, at) + change.text + text.slice(at);
    }
    case 'crlf':
      return text.replaceAll('\n', '\r\n');
    case 'trailing':
      return text + change.text;
  }
}
