import { escapePointerToken, getAtPointer } from '../format/json-pointer.js';
import { findCatastrophicBacktracking } from '../schema/find-catastrophic-backtracking.js';
import { errorMessage } from '../util/error-message.js';
import type { DiagnosticCode } from './diagnostic-codes.js';
import type { LoadLimits } from './limits.js';
import { listNames, quoteValue } from './quote-value.js';

/** A problem inside one schema; `pointer` is relative to the schema root. */
export interface SchemaProblem {
  code: DiagnosticCode;
  pointer: string;
  message: string;
}

/** The JSON Schema dialects tool schemas may use. */
export type SchemaDialect = '2020-12' | 'draft-07';

const DIALECT_URIS: ReadonlyMap<string, SchemaDialect> = new Map([
  ['https://json-schema.org/draft/2020-12/schema', '2020-12'],
  ['http://json-schema.org/draft-07/schema', 'draft-07'],
]);

/**
 * The dialect a schema declares through `$schema`: 2020-12 when absent, `undefined` when it
 * names a dialect we do not support.
 */
export function schemaDialect(schema: unknown): SchemaDialect | undefined {
  if (schema === null || typeof schema !== 'object' || !Object.hasOwn(schema, '$schema')) {
    return '2020-12';
  }
  const declared = (schema as { $schema?: unknown }).$schema;
  if (typeof declared !== 'string') return undefined;
  const normalized = declared.replace(/#$/, '').replace(/^https?:\/\//, '');
  for (const [uri, dialect] of DIALECT_URIS) {
    if (uri.replace(/^https?:\/\//, '') === normalized) return dialect;
  }
  return undefined;
}

interface Entry {
  value: unknown;
  depth: number;
  parent: Entry | undefined;
  key: string;
}
const LEAF: Entry = Object.freeze({ value: undefined, depth: 0, parent: undefined, key: '' });

/**
 * Measures nesting depth and node count without recursion (a 5,000-deep schema must fail
 * cleanly, not overflow the stack) and freezes every object and array, so a loaded registry
 * is an immutable snapshot. Returns the first limit problem, if any; freezing stops there.
 */
export function measureAndFreeze(
  value: unknown,
  limits: Pick<LoadLimits, 'maxSchemaDepth' | 'maxSchemaNodes'>,
): SchemaProblem | undefined {
  const stack: Entry[] = [{ value, depth: 0, parent: undefined, key: '' }];
  let nodes = 0;
  while (stack.length > 0) {
    const entry = stack.pop()!;
    nodes++;
    if (nodes > limits.maxSchemaNodes) {
      return {
        code: 'SCHEMA_TOO_LARGE',
        pointer: '',
        message: `schema has more than ${limits.maxSchemaNodes} JSON nodes (limits.maxSchemaNodes); split the tool or simplify its schema`,
      };
    }
    const current = entry.value;
    if (current === null || typeof current !== 'object') continue;
    if (entry.depth >= limits.maxSchemaDepth) {
      return {
        code: 'SCHEMA_TOO_DEEP',
        pointer: entryPointer(entry),
        message: `schema nests deeper than ${limits.maxSchemaDepth} levels (limits.maxSchemaDepth); flatten it or use $defs with $ref`,
      };
    }
    Object.freeze(current);
    // leaves (most nodes) share one entry: only their count matters
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) {
        const child: unknown = current[index];
        stack.push(
          child !== null && typeof child === 'object'
            ? { value: child, depth: entry.depth + 1, parent: entry, key: String(index) }
            : LEAF,
        );
      }
    } else {
      for (const key of Object.keys(current)) {
        const child = (current as Record<string, unknown>)[key];
        stack.push(
          child !== null && typeof child === 'object'
            ? { value: child, depth: entry.depth + 1, parent: entry, key }
            : LEAF,
        );
      }
    }
  }
  return undefined;

  function entryPointer(entry: Entry): string {
    const tokens: string[] = [];
    for (
      let cursor: Entry | undefined = entry;
      cursor?.parent !== undefined;
      cursor = cursor.parent
    ) {
      tokens.push(escapePointerToken(cursor.key));
    }
    return tokens.length === 0 ? '' : `/${tokens.reverse().join('/')}`;
  }
}

/** Keywords that make a property schema typed without `type`. */
const COMPOSITION_KEYWORDS = ['anyOf', 'oneOf', 'allOf', '$ref'] as const;

const TYPE_HINTS: Readonly<Record<string, string>> = {
  dict: 'object',
  map: 'object',
  hash: 'object',
  float: 'number',
  double: 'number',
  decimal: 'number',
  int: 'integer',
  long: 'integer',
  str: 'string',
  text: 'string',
  bool: 'boolean',
  list: 'array',
  tuple: 'array',
  set: 'array',
};

/** Suggests the JSON Schema type for a non-standard type name such as `dict` or `float`. */
export function suggestJsonSchemaType(type: string): string | undefined {
  const key = type.toLowerCase();
  return Object.hasOwn(TYPE_HINTS, key) ? TYPE_HINTS[key] : undefined;
}

interface WalkContext {
  root: Record<string, unknown>;
  problems: SchemaProblem[];
  limits: Pick<LoadLimits, 'maxPatternLength'>;
  refs: { pointer: string; ref: string }[];
  anchors: Set<string>;
  /** Unescaped tokens of the node being walked; pointers are only built for problems. */
  path: string[];
}

/** The `properties` maps a `required` list may name: a schema's own, then its enclosing ones. */
interface PropertyScope {
  properties: Record<string, unknown>;
  parent: PropertyScope | undefined;
}

/**
 * Checks the rules a tool schema must meet beyond the meta-schema (seed 000 rules and what
 * providers reject): every property and array item is typed, `required` names defined
 * properties, arrays have `items`, `$ref` is local and resolves, patterns compile. Call it
 * only after `measureAndFreeze` passed (it recurses, bounded by maxSchemaDepth).
 */
export function checkSchema(
  schema: Record<string, unknown>,
  limits: Pick<LoadLimits, 'maxPatternLength'>,
): SchemaProblem[] {
  const context: WalkContext = {
    root: schema,
    problems: [],
    limits,
    refs: [],
    anchors: new Set(),
    path: [],
  };
  walk(schema, context, undefined);
  for (const { pointer, ref } of context.refs) checkRef(ref, pointer, context);
  return context.problems;
}

/** The pointer of the current node, plus `extra` tokens. */
function pointerOf(context: WalkContext, ...extra: (string | number)[]): string {
  let pointer = '';
  for (const token of context.path) pointer += `/${escapePointerToken(token)}`;
  for (const token of extra) pointer += `/${escapePointerToken(String(token))}`;
  return pointer;
}

/** Walks `node` under the path tokens `tokens` (pushed for the call, popped after). */
function walkChild(
  node: unknown,
  context: WalkContext,
  scope: PropertyScope | undefined,
  ...tokens: string[]
): void {
  context.path.push(...tokens);
  walk(node, context, scope);
  context.path.length -= tokens.length;
}

function isDefined(name: string, scope: PropertyScope | undefined): boolean {
  for (let current = scope; current !== undefined; current = current.parent) {
    if (Object.hasOwn(current.properties, name)) return true;
  }
  return false;
}

function definedNames(scope: PropertyScope | undefined): string[] {
  const names = new Set<string>();
  for (let current = scope; current !== undefined; current = current.parent) {
    for (const name of Object.keys(current.properties)) names.add(name);
  }
  return [...names];
}

function walk(node: unknown, context: WalkContext, enclosing: PropertyScope | undefined): void {
  if (node === null || typeof node !== 'object' || Array.isArray(node)) return;
  const schema = node as Record<string, unknown>;

  const ownProperties = isPlainObject(schema.properties) ? schema.properties : undefined;
  const scope: PropertyScope | undefined =
    ownProperties === undefined ? enclosing : { properties: ownProperties, parent: enclosing };

  if (Array.isArray(schema.required)) {
    schema.required.forEach((name, index) => {
      if (typeof name !== 'string') return;
      if (scope !== undefined && !isDefined(name, scope)) {
        const names = definedNames(scope);
        const defined = names.length > 0 ? listNames(names) : 'none';
        context.problems.push({
          code: 'REQUIRED_NOT_DEFINED',
          pointer: pointerOf(context, 'required', index),
          message: `required lists ${quoteValue(name)}, which is not defined in properties (defined: ${defined}); add it to properties or remove it from required`,
        });
      } else if (scope === undefined && hasType(schema, 'object')) {
        context.problems.push({
          code: 'REQUIRED_NOT_DEFINED',
          pointer: pointerOf(context, 'required', index),
          message: `required lists ${quoteValue(name)} but this object schema has no properties; define ${quoteValue(name)} under properties`,
        });
      }
    });
  }

  if (
    hasType(schema, 'array') &&
    !Object.hasOwn(schema, 'items') &&
    !Object.hasOwn(schema, 'prefixItems')
  ) {
    context.problems.push({
      code: 'ARRAY_ITEMS_MISSING',
      pointer: pointerOf(context),
      message:
        'array schema has no "items"; add "items" with the element schema, e.g. {"type": "string"}',
    });
  }

  // one pass over the keys the node has (not over every keyword it could have): this walk runs
  // on every subschema of every tool at load time
  for (const keyword in schema) {
    const value = schema[keyword];
    switch (keyword) {
      case '$ref':
        if (typeof value === 'string')
          context.refs.push({ pointer: pointerOf(context, '$ref'), ref: value });
        break;
      case '$dynamicRef':
      case '$recursiveRef':
        if (typeof value === 'string' && !value.startsWith('#')) {
          context.problems.push(externalRef(value, pointerOf(context, keyword)));
        }
        break;
      case '$anchor':
        if (typeof value === 'string') context.anchors.add(value);
        break;
      case 'pattern':
        if (typeof value === 'string')
          checkPattern(value, () => pointerOf(context, 'pattern'), context);
        break;
      case 'properties':
      case 'patternProperties':
      case '$defs':
      case 'definitions':
      case 'dependentSchemas':
        if (isPlainObject(value)) walkSchemaMap(keyword, value, context);
        break;
      case 'additionalProperties':
      case 'additionalItems':
      case 'unevaluatedProperties':
      case 'unevaluatedItems':
      case 'propertyNames':
      case 'contains':
      case 'contentSchema':
        walkChild(value, context, undefined, keyword);
        break;
      case 'if':
      case 'then':
      case 'else':
      case 'not':
        walkChild(value, context, scope, keyword);
        break;
      case 'allOf':
      case 'anyOf':
      case 'oneOf':
      case 'prefixItems':
        if (Array.isArray(value)) {
          const branchScope = keyword === 'prefixItems' ? undefined : scope;
          value.forEach((branch, index) => {
            walkChild(branch, context, branchScope, keyword, String(index));
          });
        }
        break;
      case 'items':
        if (Array.isArray(value)) {
          value.forEach((item, index) => {
            walkChild(item, context, undefined, 'items', String(index));
          });
        } else {
          context.path.push('items');
          checkTyped(value, undefined, context);
          walk(value, context, undefined);
          context.path.length -= 1;
        }
        break;
      case 'dependencies':
        if (isPlainObject(value)) {
          for (const [name, child] of Object.entries(value)) {
            if (!Array.isArray(child)) walkChild(child, context, scope, 'dependencies', name);
          }
        }
        break;
      default:
        break;
    }
  }
}

function walkSchemaMap(keyword: string, map: Record<string, unknown>, context: WalkContext): void {
  if (keyword === 'properties' || keyword === 'patternProperties') {
    if (Object.hasOwn(map, '__proto__')) {
      context.problems.push({
        code: 'INVALID_SCHEMA',
        pointer: pointerOf(context, keyword, '__proto__'),
        message: `${keyword} names "__proto__", which JSON Schema validators (ajv) skip, so its value would never be validated; rename it`,
      });
    }
  }
  for (const name of Object.keys(map)) {
    if (keyword === 'patternProperties') {
      checkPattern(name, () => pointerOf(context, 'patternProperties', name), context);
    }
    context.path.push(keyword, name);
    if (keyword === 'properties') checkTyped(map[name], name, context);
    walk(map[name], context, undefined);
    context.path.length -= 2;
  }
}

/** `property` names the property checked; undefined for array items. */
function checkTyped(node: unknown, property: string | undefined, context: WalkContext): void {
  if (typeof node === 'boolean') {
    context.problems.push({
      code: 'PROPERTY_TYPE_MISSING',
      pointer: pointerOf(context),
      message: `${describeTyped(property)} is the boolean schema ${node}; give it an object schema with a "type", e.g. {"type": "string"}`,
    });
    return;
  }
  if (!isPlainObject(node)) return;
  if (Object.hasOwn(node, 'type')) return;
  if (COMPOSITION_KEYWORDS.some((keyword) => Object.hasOwn(node, keyword))) return;
  const inferred = inferTypeFromValues(node);
  const hint = inferred === undefined ? '"string"' : `"${inferred}"`;
  context.problems.push({
    code: 'PROPERTY_TYPE_MISSING',
    pointer: pointerOf(context),
    message: `${describeTyped(property)} has no "type"; add "type": ${hint} (or anyOf/oneOf/allOf/$ref for unions)`,
  });
}

// built only when there is a problem: quoting the name of every property of every schema was
// a measurable part of loading
function describeTyped(property: string | undefined): string {
  return property === undefined ? 'array items' : `property ${quoteValue(property)}`;
}

function inferTypeFromValues(node: Record<string, unknown>): string | undefined {
  const values = Array.isArray(node.enum)
    ? node.enum
    : Object.hasOwn(node, 'const')
      ? [node.const]
      : [];
  const types = new Set(
    values.map((value) => (Number.isInteger(value) ? 'integer' : jsonTypeOf(value))),
  );
  return types.size === 1 ? [...types][0] : undefined;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** `pointer` is computed only when there is a problem. */
function checkPattern(pattern: string, pointer: () => string, context: WalkContext): void {
  if (pattern.length > context.limits.maxPatternLength) {
    context.problems.push({
      code: 'INVALID_PATTERN',
      pointer: pointer(),
      message: `pattern is ${pattern.length} characters, longer than ${context.limits.maxPatternLength} (limits.maxPatternLength); simplify it`,
    });
    return;
  }
  try {
    new RegExp(pattern, 'u');
  } catch (error) {
    const reason = errorMessage(error);
    context.problems.push({
      code: 'INVALID_PATTERN',
      pointer: pointer(),
      message: `pattern ${quoteValue(pattern, 200)} is not a valid regular expression (${reason}); fix the regex (it is compiled with the "u" flag)`,
    });
    return;
  }
  // model input is matched against it: a pattern that backtracks exponentially would let one
  // tool call hang the process (ReDoS)
  const risk = findCatastrophicBacktracking(pattern);
  if (risk !== undefined) {
    context.problems.push({
      code: 'INVALID_PATTERN',
      pointer: pointer(),
      message: `pattern ${quoteValue(pattern, 200)} can backtrack catastrophically on a long non-matching input (ReDoS) at ${quoteValue(risk.construct, 100)}: ${risk.reason}`,
    });
  }
}

function checkRef(ref: string, pointer: string, context: WalkContext): void {
  if (!ref.startsWith('#')) {
    context.problems.push(externalRef(ref, pointer));
    return;
  }
  const fragment = ref.slice(1);
  if (fragment === '') return;
  if (!fragment.startsWith('/')) {
    if (!context.anchors.has(decodeURIComponentSafe(fragment))) {
      context.problems.push({
        code: 'REF_NOT_FOUND',
        pointer,
        message: `$ref ${quoteValue(ref)} names the anchor ${quoteValue(fragment)}, but no subschema declares "$anchor": ${quoteValue(fragment)}`,
      });
    }
    return;
  }
  const target = getAtPointer(context.root, decodeURIComponentSafe(fragment));
  if (target === undefined || (typeof target !== 'boolean' && !isPlainObject(target))) {
    context.problems.push({
      code: 'REF_NOT_FOUND',
      pointer,
      message: `$ref ${quoteValue(ref)} does not resolve to a schema in this input_schema; define it (usually under "$defs") or fix the path`,
    });
  }
}

function externalRef(ref: string, pointer: string): SchemaProblem {
  return {
    code: 'EXTERNAL_REF',
    pointer,
    message: `${pointer.slice(pointer.lastIndexOf('/') + 1)} ${quoteValue(ref)} points outside this schema; only local refs such as "#/$defs/name" are allowed and nothing is ever fetched. Copy the referenced schema under $defs`,
  };
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function hasType(schema: Record<string, unknown>, type: string): boolean {
  const declared = schema.type;
  return declared === type || (Array.isArray(declared) && declared.includes(type));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
