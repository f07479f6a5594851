import type { DiagnosticCode } from '../format/diagnostic-codes.js';
import { escapePointerToken, getAtPointer } from '../format/json-pointer.js';
import type { LoadLimits } from '../format/limits.js';
import { errorMessage } from '../util/error-message.js';
import { listNames, quoteValue } from '../util/quote-value.js';
import { findCatastrophicBacktracking } from './find-catastrophic-backtracking.js';
import { TYPE_KEYWORDS } from './split-type-union.js';

/** A problem inside one schema; `pointer` is relative to the schema root. */
export interface SchemaProblem {
  code: DiagnosticCode;
  pointer: string;
  message: string;
  /** Set for problems that do not stop the tool from loading; the others are errors. */
  severity?: 'warning';
}

/**
 * The `format` values checked at run time: ajv-formats' full set, in its order (a test keeps the
 * two in step). Any other format is ignored by ajv, so any string passes it.
 */
export const KNOWN_FORMATS: ReadonlySet<string> = new Set([
  'date',
  'time',
  'date-time',
  'iso-time',
  'iso-date-time',
  'duration',
  'uri',
  'uri-reference',
  'uri-template',
  'url',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'regex',
  'uuid',
  'json-pointer',
  'json-pointer-uri-fragment',
  'relative-json-pointer',
  'byte',
  'int32',
  'int64',
  'float',
  'double',
  'password',
  'binary',
]);

/** The UNKNOWN_FORMAT message for `format` (one that is not in KNOWN_FORMATS). */
export function describeUnknownFormat(format: string): string {
  return `format ${quoteValue(format)} is not a format toolcap checks, so any string passes (known formats: ${[...KNOWN_FORMATS].join(', ')}); use one of them, or describe the value with "pattern" instead`;
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

/** Stack marker of a leaf (not an object or array): only its count matters. */
const LEAF = -1;

/**
 * The buffers of `measureAndFreeze`, reused from call to call (it runs on every schema at load
 * time): one record per object or array (value, depth, parent record, key) and a stack of record
 * numbers, so the walk allocates nothing per node. Positions are written, never pushed and
 * popped: popping lets V8 trim an array's store and the next push reallocate it.
 */
class FreezeWalk {
  values: unknown[] = [];
  depths: number[] = [];
  parents: number[] = [];
  keys: (string | number)[] = [];
  stack: number[] = [];
  count = 0;

  add(child: unknown, depth: number, parent: number, key: string | number): number {
    if (child === null || typeof child !== 'object') return LEAF;
    const record = this.count++;
    this.values[record] = child;
    this.depths[record] = depth;
    this.parents[record] = parent;
    this.keys[record] = key;
    return record;
  }

  pointer(record: number): string {
    const tokens: string[] = [];
    for (let cursor = record; this.parents[cursor] !== LEAF; cursor = this.parents[cursor]!) {
      tokens.push(escapePointerToken(String(this.keys[cursor])));
    }
    return tokens.length === 0 ? '' : `/${tokens.reverse().join('/')}`;
  }

  /** Drops the references to the walked values. */
  clear(): void {
    this.values.fill(undefined, 0, this.count);
    this.count = 0;
  }
}

let idleWalk: FreezeWalk | undefined = new FreezeWalk();

/**
 * Measures nesting depth and node count without recursion (a 5,000-deep schema must fail
 * cleanly, not overflow the stack) and freezes every object and array, so a loaded registry
 * is an immutable snapshot. Returns the first limit problem, if any; freezing stops there.
 */
export function measureAndFreeze(
  value: unknown,
  limits: Pick<LoadLimits, 'maxSchemaDepth' | 'maxSchemaNodes'>,
): SchemaProblem | undefined {
  // a re-entrant call (a Proxy's trap measuring another value) gets its own buffers
  const buffers = idleWalk ?? new FreezeWalk();
  idleWalk = undefined;
  try {
    return measureAndFreezeWith(buffers, value, limits);
  } finally {
    buffers.clear();
    idleWalk = buffers;
  }
}

function measureAndFreezeWith(
  buffers: FreezeWalk,
  value: unknown,
  limits: Pick<LoadLimits, 'maxSchemaDepth' | 'maxSchemaNodes'>,
): SchemaProblem | undefined {
  const { stack } = buffers;
  stack[0] = buffers.add(value, 0, LEAF, '');
  let top = 1;
  let nodes = 0;
  while (top > 0) {
    const record = stack[--top]!;
    nodes++;
    if (nodes > limits.maxSchemaNodes) {
      return {
        code: 'SCHEMA_TOO_LARGE',
        pointer: '',
        message: `schema has more than ${limits.maxSchemaNodes} JSON nodes (limits.maxSchemaNodes); split the tool or simplify its schema`,
      };
    }
    if (record === LEAF) continue;
    const current = buffers.values[record] as object;
    const depth = buffers.depths[record]!;
    if (depth >= limits.maxSchemaDepth) {
      return {
        code: 'SCHEMA_TOO_DEEP',
        pointer: buffers.pointer(record),
        message: `schema nests deeper than ${limits.maxSchemaDepth} levels (limits.maxSchemaDepth); flatten it or use $defs with $ref`,
      };
    }
    Object.freeze(current);
    // children pushed last to first, so they are visited in document order
    if (Array.isArray(current)) {
      for (let index = current.length - 1; index >= 0; index--) {
        stack[top++] = buffers.add(current[index], depth + 1, record, index);
      }
    } else {
      const first = top;
      for (const key in current) {
        if (!Object.hasOwn(current, key)) continue;
        stack[top++] = buffers.add(
          (current as Record<string, unknown>)[key],
          depth + 1,
          record,
          key,
        );
      }
      for (let low = first, high = top - 1; low < high; low++, high--) {
        const swap = stack[low]!;
        stack[low] = stack[high]!;
        stack[high] = swap;
      }
    }
  }
  return undefined;
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
  /** Every string `$ref`: the pointer of the keyword, its value, and the schema holding it. */
  refs: { pointer: string; ref: string; node: Record<string, unknown> }[];
  /** The subschemas declaring each `$anchor` name, created at the first one. */
  anchors: Map<string, Record<string, unknown>> | undefined;
  /**
   * Unescaped tokens of the node being walked, `path[0..depth)`; pointers are only built for
   * problems. The array only grows: shrinking it (`length -=`, `pop`) lets V8 trim its store,
   * and the next push reallocates it, which was most of this walk's allocation.
   */
  path: string[];
  depth: number;
}

/** The `properties` maps a `required` list may name: a schema's own, then its enclosing ones. */
interface PropertyScope {
  properties: Record<string, unknown>;
  parent: PropertyScope | undefined;
}

/**
 * Checks the rules a tool schema must meet beyond the meta-schema (the external tool
 * `--schema` rules and what providers reject): every property and array item is typed, `required` names defined
 * properties, arrays have `items`, `$ref` is local, resolves and does not loop back to itself
 * without reaching a schema, patterns compile; a `format` nothing checks is a warning. Call it only after `measureAndFreeze` passed (it recurses,
 * bounded by maxSchemaDepth).
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
    anchors: undefined,
    path: [],
    depth: 0,
  };
  walk(schema, context, undefined);
  if (context.refs.length > 0) {
    // only schemas with a $ref pay for the cycle search
    for (const { pointer, ref } of context.refs) checkRef(ref, pointer, context);
    findRefCycles(context);
  }
  return context.problems;
}

/** The pointer of the current node, plus `extra` tokens. */
function pointerOf(context: WalkContext, ...extra: (string | number)[]): string {
  let pointer = '';
  for (let index = 0; index < context.depth; index++) {
    pointer += `/${escapePointerToken(context.path[index]!)}`;
  }
  for (const token of extra) pointer += `/${escapePointerToken(String(token))}`;
  return pointer;
}

/**
 * Walks `node` under the path token `token` (and `index`, for array members), pushed for the
 * call and popped after. Fixed parameters, not a rest array: this runs for most subschemas.
 */
function walkChild(
  node: unknown,
  context: WalkContext,
  scope: PropertyScope | undefined,
  token: string,
  index?: string,
): void {
  enter(context, token);
  if (index !== undefined) enter(context, index);
  walk(node, context, scope);
  context.depth -= index === undefined ? 1 : 2;
}

function enter(context: WalkContext, token: string): void {
  context.path[context.depth++] = token;
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

  const required = schema.required;
  if (Array.isArray(required)) {
    for (let index = 0; index < required.length; index++) {
      const name: unknown = required[index];
      if (typeof name !== 'string') continue;
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
    }
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
          context.refs.push({ pointer: pointerOf(context, '$ref'), ref: value, node: schema });
        break;
      case '$dynamicRef':
      case '$recursiveRef':
        if (typeof value === 'string' && !value.startsWith('#')) {
          context.problems.push(externalRef(value, pointerOf(context, keyword)));
        }
        break;
      case '$anchor':
        if (typeof value === 'string') {
          context.anchors ??= new Map();
          if (!context.anchors.has(value)) context.anchors.set(value, schema);
        }
        break;
      case 'pattern':
        if (typeof value === 'string') checkPattern(value, context, 'pattern');
        break;
      case 'format':
        if (typeof value === 'string' && !KNOWN_FORMATS.has(value)) {
          context.problems.push({
            code: 'UNKNOWN_FORMAT',
            pointer: pointerOf(context, 'format'),
            message: describeUnknownFormat(value),
            severity: 'warning',
          });
        }
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
          for (let index = 0; index < value.length; index++) {
            walkChild(value[index], context, branchScope, keyword, String(index));
          }
        }
        break;
      case 'items':
        if (Array.isArray(value)) {
          for (let index = 0; index < value.length; index++) {
            walkChild(value[index], context, undefined, 'items', String(index));
          }
        } else {
          enter(context, 'items');
          checkTyped(value, undefined, context);
          walk(value, context, undefined);
          context.depth -= 1;
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
  // for-in, not Object.keys: no key array per map (this runs for every properties map at load)
  for (const name in map) {
    if (!Object.hasOwn(map, name)) continue;
    if (keyword === 'patternProperties') {
      checkPattern(name, context, 'patternProperties', name);
    }
    enter(context, keyword);
    enter(context, name);
    if (keyword === 'properties') checkTyped(map[name], name, context);
    walk(map[name], context, undefined);
    context.depth -= 2;
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
  const hint = JSON.stringify(inferTypeFromValues(node) ?? 'string');
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

/** The type(s) the enum/const values or the type-specific keywords of `node` imply. */
function inferTypeFromValues(node: Record<string, unknown>): string | string[] | undefined {
  const values = Array.isArray(node.enum)
    ? node.enum
    : Object.hasOwn(node, 'const')
      ? [node.const]
      : [];
  const types = new Set(
    values.map((value) => (Number.isInteger(value) ? 'integer' : jsonTypeOf(value))),
  );
  if (types.size === 0) {
    // the type its type-specific keywords constrain (`minimum` → number), when they name one
    for (const [type, keywords] of Object.entries(TYPE_KEYWORDS)) {
      // a boolean `required` is draft-03's, not the object keyword
      const used = Object.keys(node).some(
        (key) => keywords.has(key) && (key !== 'required' || Array.isArray(node.required)),
      );
      if (used) types.add(type);
    }
  }
  if (types.has('number')) types.delete('integer');
  return types.size <= 1 ? [...types][0] : [...types];
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Checks a `pattern` (or a `patternProperties` name) of the node being walked, found under the
 * tokens `token` (and `name`); the pointer is built only when there is a problem.
 */
function checkPattern(pattern: string, context: WalkContext, token: string, name?: string): void {
  const pointer = () =>
    name === undefined ? pointerOf(context, token) : pointerOf(context, token, name);
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
    if (context.anchors?.has(decodeURIComponentSafe(fragment)) !== true) {
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

/** The local schema `ref` names (`#`, `#/pointer`, `#anchor`), if it resolves to an object. */
function resolveLocalRef(ref: string, context: WalkContext): Record<string, unknown> | undefined {
  if (!ref.startsWith('#')) return undefined;
  const fragment = decodeURIComponentSafe(ref.slice(1));
  const target =
    fragment === '' || fragment.startsWith('/')
      ? getAtPointer(context.root, fragment)
      : context.anchors?.get(fragment);
  return isPlainObject(target) ? target : undefined;
}

/** Keywords whose subschemas apply to the value itself, not to a part of it. */
const IN_PLACE_SINGLE = ['not', 'if', 'then', 'else'] as const;
const IN_PLACE_LISTS = ['allOf', 'anyOf', 'oneOf'] as const;
const IN_PLACE_MAPS = ['dependentSchemas', 'dependencies'] as const;

/** One subschema the DFS of `findRefCycles` is inside: its place, and the edges left to try. */
interface CycleFrame {
  node: Record<string, unknown>;
  /** `#/$defs/a`: how the node was reached, for the message. */
  place: string;
  edges: { target: Record<string, unknown>; place: string; ref: string | undefined }[];
  next: number;
  /** The `$ref` pointer and value when the edge being followed is this node's `$ref`. */
  via: { pointer: string; ref: string } | undefined;
}

/**
 * `REF_CYCLE` for each loop of `$ref`s (through `allOf`, `anyOf`, `oneOf`, `not`, `if`,
 * `then`, `else` and `dependentSchemas` too) that comes back to a schema it started from
 * without passing through `properties`, `items` or another keyword that moves to a part of the
 * value: such a loop checks the same value against the same schema forever, which ajv turns into
 * a stack overflow when it compiles or validates. `{"$ref": "#/properties/x"}` at
 * `/properties/x` is one; a tree whose `children` items refer back to the tree is not. One
 * depth-first search over the subschemas reachable from the `$ref`s, each visited once.
 */
function findRefCycles(context: WalkContext): void {
  const refPointers = new Map<object, string>();
  for (const { pointer, node } of context.refs) {
    if (!refPointers.has(node)) refPointers.set(node, pointer);
  }
  const state = new Map<object, 'open' | 'done'>();
  const edgesOf = (node: Record<string, unknown>, place: string): CycleFrame['edges'] => {
    const edges: CycleFrame['edges'] = [];
    if (typeof node.$ref === 'string') {
      const target = resolveLocalRef(node.$ref, context);
      if (target !== undefined) edges.push({ target, place: node.$ref, ref: node.$ref });
    }
    for (const keyword of IN_PLACE_SINGLE) {
      const child = node[keyword];
      if (isPlainObject(child))
        edges.push({ target: child, place: `${place}/${keyword}`, ref: undefined });
    }
    for (const keyword of IN_PLACE_LISTS) {
      const list = node[keyword];
      if (!Array.isArray(list)) continue;
      list.forEach((child, index) => {
        if (isPlainObject(child)) {
          edges.push({ target: child, place: `${place}/${keyword}/${index}`, ref: undefined });
        }
      });
    }
    for (const keyword of IN_PLACE_MAPS) {
      const map = node[keyword];
      if (!isPlainObject(map)) continue;
      for (const [name, child] of Object.entries(map)) {
        if (isPlainObject(child)) {
          const token = escapePointerToken(name);
          edges.push({ target: child, place: `${place}/${keyword}/${token}`, ref: undefined });
        }
      }
    }
    return edges;
  };
  for (const { pointer: start, node: root } of context.refs) {
    if (state.has(root)) continue;
    const rootPlace = `#${start.slice(0, -'/$ref'.length)}`;
    const stack: CycleFrame[] = [
      { node: root, place: rootPlace, edges: edgesOf(root, rootPlace), next: 0, via: undefined },
    ];
    state.set(root, 'open');
    while (stack.length > 0) {
      const frame = stack[stack.length - 1]!;
      const edge = frame.edges[frame.next++];
      if (edge === undefined) {
        state.set(frame.node, 'done');
        stack.pop();
        continue;
      }
      frame.via =
        edge.ref === undefined
          ? undefined
          : {
              pointer: refPointers.get(frame.node) ?? `${frame.place.slice(1)}/$ref`,
              ref: edge.ref,
            };
      const seen = state.get(edge.target);
      if (seen === 'done') continue;
      if (seen === 'open') {
        const from = stack.findIndex((entry) => entry.node === edge.target);
        reportRefCycle(stack.slice(from), edge.place, context);
        continue;
      }
      state.set(edge.target, 'open');
      stack.push({
        node: edge.target,
        place: edge.place,
        edges: edgesOf(edge.target, edge.place),
        next: 0,
        via: undefined,
      });
    }
  }
}

/** Most places a `REF_CYCLE` message lists before it elides the rest. */
const CYCLE_PLACES_SHOWN = 6;

function reportRefCycle(cycle: readonly CycleFrame[], back: string, context: WalkContext): void {
  // every loop follows at least one $ref: the problem is reported at the first one
  const first = cycle.find((frame) => frame.via !== undefined)?.via;
  if (first === undefined) return;
  const places = [...cycle.map((frame) => frame.place), back];
  const shown =
    places.length <= CYCLE_PLACES_SHOWN
      ? places
      : [...places.slice(0, CYCLE_PLACES_SHOWN - 1), '…', places[places.length - 1]!];
  const loop =
    cycle.length === 1 && cycle[0]?.via !== undefined
      ? 'refers to the schema that holds it'
      : `loops back without reaching a schema of its own (${shown.join(' → ')})`;
  context.problems.push({
    code: 'REF_CYCLE',
    pointer: first.pointer,
    message: `$ref ${quoteValue(first.ref)} ${loop}, so checking any value would follow it forever; point it at a schema that describes the value (such as {"type": "string"} under "$defs"), or let the recursion go through "properties" or "items"`,
  });
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
