import { jsonEqual, jsonTypeOf, type SchemaNode } from './schema-node.js';
import { TYPE_KEYWORDS } from './split-type-union.js';
import { anyJsonSchema, toJsonSchemaType } from './to-json-schema-type.js';

/** A type expression's JSON Schema, or why it cannot be read. */
export type TypeExpressionSchema = { schema: SchemaNode } | { problem: string };

type Literal = string | number | boolean | null;

/** A type expression, read; `null` is a `named` type. */
type TypeNode =
  | { kind: 'any' }
  | { kind: 'named'; type: string }
  | { kind: 'literal'; value: Literal }
  | { kind: 'array'; items: TypeNode | undefined; length?: number }
  | { kind: 'object'; values: TypeNode }
  | { kind: 'union'; members: TypeNode[] };

type Token =
  | { kind: 'name'; text: string; at: number }
  | { kind: 'string'; text: string; value: string; at: number }
  | { kind: 'number'; text: string; value: number; at: number }
  | { kind: 'punctuation' | 'ellipsis'; text: string; at: number };

/** Generics whose one argument is the element type: Python's, `typing`'s and TypeScript's. */
const ARRAY_GENERICS: ReadonlySet<string> = new Set([
  'list',
  'sequence',
  'mutablesequence',
  'iterable',
  'collection',
  'set',
  'frozenset',
  'abstractset',
  'mutableset',
  'deque',
  'array',
  'readonlyarray',
]);
/** Generics of a key and a value type. */
const MAP_GENERICS: ReadonlySet<string> = new Set(['dict', 'mapping', 'mutablemapping', 'record']);
/** Module prefixes `inspect` and `typing` print (`typing.List[int]`). */
const MODULE_PREFIX = /^(?:typing|typing_extensions|collections\.abc|builtins)\./;
const NULL_NAMES: ReadonlySet<string> = new Set(['none', 'nonetype', 'null']);
const MAX_DEPTH = 32;

const SPACE = /\s+/y;
const CLASS_REPR = /<class '([A-Za-z_][\w.]*)'>/y;
const NAME = /[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*/y;
const STRING = /'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/y;
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPE = /\\(.)/g;

/** Why a type expression cannot be read; caught by `typeExpressionToSchema`. */
class UnreadableType extends Error {}

/**
 * The JSON Schema of a parameter type as Python (`inspect`, type hints) and TypeScript print
 * it: bare names as `toJsonSchemaType` reads them (`str`, `int`, `Any`, `string`);
 * `list[int]`, `List[int]`, `Sequence[int]`, `set[str]`, `tuple[int, ...]`, `string[]`,
 * `Array<number>` → an array with those items (`tuple[int, str]`: items of either, exactly 2);
 * `dict[str, int]`, `Record<string, number>` → an object whose values are ints;
 * `Optional[X]`, `Union[...]`, `X | None` → a type list (or `anyOf` when the members
 * cannot share one node); `Literal['a', 'b']`, `'a' | 'b'` → an enum; `None`, `null` → null.
 * `typing.` prefixes and `<class 'int'>` are read as the name. Anything else (a name with no
 * known meaning, `Annotated[...]`, a malformed expression) is a problem naming the part that
 * cannot be read, never a guess.
 */
export function typeExpressionToSchema(text: string): TypeExpressionSchema {
  try {
    return { schema: toSchema(readTypeExpression(text)) };
  } catch (error) {
    if (error instanceof UnreadableType) return { problem: error.message };
    throw error;
  }
}

function readTypeExpression(text: string): TypeNode {
  const tokens = tokenize(text);
  let index = 0;
  const node = readUnion(0);
  const rest = tokens[index];
  if (rest !== undefined) throw unexpected(rest, 'the end');
  return node;

  function readUnion(depth: number): TypeNode {
    if (depth > MAX_DEPTH) throw new UnreadableType(`it nests deeper than ${MAX_DEPTH} levels`);
    const members = [readPostfix(depth)];
    while (peek('|')) {
      index++;
      members.push(readPostfix(depth));
    }
    return union(members);
  }

  /** A primary type followed by TypeScript's `[]` suffixes. */
  function readPostfix(depth: number): TypeNode {
    let node = readPrimary(depth);
    while (peek('[') && tokens[index + 1]?.text === ']') {
      index += 2;
      node = { kind: 'array', items: node };
    }
    return node;
  }

  function readPrimary(depth: number): TypeNode {
    const token = tokens[index++];
    if (token === undefined) throw new UnreadableType('a type is missing at the end');
    if (token.kind === 'string' || token.kind === 'number') {
      return { kind: 'literal', value: token.value };
    }
    if (token.text === '(') {
      const inner = readUnion(depth + 1);
      expect(')');
      return inner;
    }
    if (token.kind !== 'name') throw unexpected(token, 'a type');
    const name = token.text.replace(MODULE_PREFIX, '');
    const open = tokens[index];
    if (open?.text === '<' || (open?.text === '[' && tokens[index + 1]?.text !== ']')) {
      index++;
      const close = open.text === '<' ? '>' : ']';
      const args: (TypeNode | 'ellipsis')[] = [];
      for (;;) {
        if (peekKind('ellipsis')) {
          index++;
          args.push('ellipsis');
        } else args.push(readUnion(depth + 1));
        if (!peek(',')) break;
        index++;
      }
      expect(close);
      return applyGeneric(name, args);
    }
    return bareName(name);
  }

  function peek(text: string): boolean {
    const token = tokens[index];
    return token !== undefined && token.kind === 'punctuation' && token.text === text;
  }

  function peekKind(kind: Token['kind']): boolean {
    return tokens[index]?.kind === kind;
  }

  function expect(text: string): void {
    const token = tokens[index];
    if (token === undefined || token.text !== text) {
      throw token === undefined
        ? new UnreadableType(`"${text}" is missing at the end`)
        : unexpected(token, `"${text}"`);
    }
    index++;
  }
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const found = matchAt(SPACE, text, at);
    if (found !== undefined) {
      at += found[0].length;
      continue;
    }
    const { token, length } = readToken(text, at);
    tokens.push(token);
    at += length;
  }
  return tokens;
}

/** The token at `at` and how many characters it takes. */
function readToken(text: string, at: number): { token: Token; length: number } {
  // `<class 'int'>` (how `str(int)` prints) is the name inside
  const classRepr = matchAt(CLASS_REPR, text, at);
  if (classRepr !== undefined) {
    return { token: { kind: 'name', text: classRepr[1]!, at }, length: classRepr[0].length };
  }
  const token = readPlainToken(text, at);
  return { token, length: token.text.length };
}

function readPlainToken(text: string, at: number): Token {
  if (text.startsWith('...', at)) return { kind: 'ellipsis', text: '...', at };
  const name = matchAt(NAME, text, at);
  if (name !== undefined) return { kind: 'name', text: name[0], at };
  const string = matchAt(STRING, text, at);
  if (string !== undefined) {
    const body = string[1] ?? string[2] ?? '';
    return { kind: 'string', text: string[0], value: body.replace(ESCAPE, '$1'), at };
  }
  const number = matchAt(NUMBER, text, at);
  if (number !== undefined)
    return { kind: 'number', text: number[0], value: Number(number[0]), at };
  const char = text[at]!;
  if ('[]<>(),|'.includes(char)) return { kind: 'punctuation', text: char, at };
  throw new UnreadableType(`"${char}" at character ${at + 1} is not part of a type`);
}

function matchAt(pattern: RegExp, text: string, at: number): RegExpExecArray | undefined {
  pattern.lastIndex = at;
  return pattern.exec(text) ?? undefined;
}

function unexpected(token: Token, wanted: string): UnreadableType {
  return new UnreadableType(
    `${wanted} was expected at character ${token.at + 1}, not "${token.text}"`,
  );
}

function bareName(name: string): TypeNode {
  const lower = name.toLowerCase();
  if (NULL_NAMES.has(lower)) return { kind: 'named', type: 'null' };
  if (lower === 'true' || lower === 'false') return { kind: 'literal', value: lower === 'true' };
  const type = toJsonSchemaType(name);
  if (type === undefined) throw new UnreadableType(`"${name}" is not a type name toolcap knows`);
  return typeof type === 'string' ? { kind: 'named', type } : { kind: 'any' };
}

function applyGeneric(name: string, args: readonly (TypeNode | 'ellipsis')[]): TypeNode {
  const lower = name.toLowerCase();
  if (lower === 'tuple') return tupleOf(args);
  const types = args.map((arg) => {
    if (arg === 'ellipsis') {
      throw new UnreadableType(`"..." is read only as the last argument of tuple, not in ${name}`);
    }
    return arg;
  });
  if (ARRAY_GENERICS.has(lower)) return { kind: 'array', items: only(name, types, 1)[0] };
  if (MAP_GENERICS.has(lower)) return { kind: 'object', values: only(name, types, 2)[1]! };
  if (lower === 'optional')
    return union([...only(name, types, 1), { kind: 'named', type: 'null' }]);
  if (lower === 'union') return union(types);
  if (lower === 'literal') {
    for (const type of types) {
      if (type.kind !== 'literal' && !(type.kind === 'named' && type.type === 'null')) {
        throw new UnreadableType(
          'Literal takes values (strings, numbers, True, False, None), not types',
        );
      }
    }
    return union(types);
  }
  throw new UnreadableType(
    `"${name}[...]" is not a generic type toolcap knows (it reads list, set, tuple, dict, Optional, Union, Literal, Array and Record, with their typing names)`,
  );
}

function only(name: string, types: readonly TypeNode[], count: number): readonly TypeNode[] {
  if (types.length !== count) {
    throw new UnreadableType(
      `"${name}" takes ${count} type argument${count === 1 ? '' : 's'}, not ${types.length}`,
    );
  }
  return types;
}

/** `tuple[int, ...]`: items of one type; `tuple[int, str]`: items of either, exactly 2. */
function tupleOf(args: readonly (TypeNode | 'ellipsis')[]): TypeNode {
  const [first, second] = args;
  if (args.length === 2 && second === 'ellipsis' && first !== 'ellipsis') {
    return { kind: 'array', items: first };
  }
  const types = args.filter((arg): arg is TypeNode => arg !== 'ellipsis');
  if (types.length !== args.length) {
    throw new UnreadableType('"..." is read only as tuple[X, ...], the second of two arguments');
  }
  return { kind: 'array', items: union(types), length: types.length };
}

function union(members: readonly TypeNode[]): TypeNode {
  const flat = members.flatMap((member) => (member.kind === 'union' ? member.members : [member]));
  return flat.length === 1 ? flat[0]! : { kind: 'union', members: flat };
}

function toSchema(node: TypeNode): SchemaNode {
  switch (node.kind) {
    case 'any':
      return anyJsonSchema();
    case 'named':
      return { type: node.type };
    case 'literal':
      return { type: jsonTypeOf(node.value), enum: [node.value] };
    case 'array': {
      const schema: SchemaNode = { type: 'array' };
      if (node.items !== undefined) schema.items = toSchema(node.items);
      if (node.length !== undefined) {
        schema.minItems = node.length;
        schema.maxItems = node.length;
      }
      return schema;
    }
    case 'object':
      return node.values.kind === 'any'
        ? { type: 'object' }
        : { type: 'object', additionalProperties: toSchema(node.values) };
    case 'union':
      return unionSchema(node.members);
  }
}

/**
 * One node when the members can share it: literals (and null) as one enum; members of
 * different types, each constrained only by its own type's keywords, as a type list
 * (`list[str] | None` → `{"type": ["array", "null"], "items": ...}`); else `anyOf`.
 */
function unionSchema(members: readonly TypeNode[]): SchemaNode {
  if (members.some((member) => member.kind === 'any')) return anyJsonSchema();
  const nullable = members.some(isNull);
  const values = members.flatMap((member) =>
    member.kind === 'literal' && member.value !== null ? [member.value] : [],
  );
  const others = members.filter((member) => member.kind !== 'literal' && !isNull(member));
  const literals: SchemaNode[] = [];
  if (values.length > 0) {
    const all = [...new Set(others.length === 0 && nullable ? [...values, null] : values)];
    literals.push({ type: typeOfValues(all), enum: all });
    if (others.length === 0) return literals[0]!;
  }
  const parts: SchemaNode[] = [];
  for (const schema of others.map(toSchema)) {
    if (!parts.some((part) => jsonEqual(part, schema))) parts.push(schema);
  }
  if (parts.length === 0) return { type: 'null' };
  const merged = literals.length === 0 ? mergeByType(parts, nullable) : undefined;
  if (merged !== undefined) return merged;
  return { anyOf: [...literals, ...parts, ...(nullable ? [{ type: 'null' }] : [])] };
}

function mergeByType(parts: readonly SchemaNode[], nullable: boolean): SchemaNode | undefined {
  // `int | float`: number covers integer
  const kept = parts.some((part) => isBare(part, 'number'))
    ? parts.filter((part) => !isBare(part, 'integer'))
    : parts;
  const merged: SchemaNode = {};
  const types: string[] = [];
  for (const { type, ...keywords } of kept) {
    if (typeof type !== 'string') return undefined;
    const family = type === 'integer' ? 'number' : type;
    if (types.some((seen) => (seen === 'integer' ? 'number' : seen) === family)) return undefined;
    if (Object.keys(keywords).some((key) => TYPE_KEYWORDS[family]?.has(key) !== true)) {
      return undefined;
    }
    types.push(type);
    Object.assign(merged, keywords);
  }
  if (nullable) types.push('null');
  return { type: types.length === 1 ? types[0] : types, ...merged };
}

function isNull(node: TypeNode): boolean {
  return (
    (node.kind === 'named' && node.type === 'null') ||
    (node.kind === 'literal' && node.value === null)
  );
}

function isBare(schema: SchemaNode, type: string): boolean {
  return schema.type === type && Object.keys(schema).length === 1;
}

/** The type (or type list) of literal values, `integer` folded into `number` beside it. */
function typeOfValues(values: readonly Literal[]): string | string[] {
  const types = new Set(values.map(jsonTypeOf));
  if (types.has('number')) types.delete('integer');
  return types.size === 1 ? [...types][0]! : [...types];
}
