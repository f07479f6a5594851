import { escapePointerToken } from '../format/json-pointer.js';
import { mergeAllOf } from './merge-all-of.js';
import {
  appendNotes,
  declaredTypes,
  defineEntry,
  describeValue,
  inferTypeFromValues,
  isPlainObject,
  requiredList,
  type SchemaNode,
} from './schema-node.js';
import type { SchemaWarningSink } from './schema-warnings.js';
import { distributeTypeIntoBranches, splitTypeUnion } from './split-type-union.js';

/** String formats OpenAI strict mode accepts (Structured Outputs "Supported schemas"). */
export const OPENAI_STRICT_FORMATS: ReadonlySet<string> = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);

/** Structured Outputs limits (current doc); over any of them a schema is sent non-strict. */
export const OPENAI_STRICT_LIMITS = Object.freeze({
  /** Levels of nesting; every object and array level counts, the root object is level 1. */
  maxDepth: 10,
  /** Object properties in the whole schema. */
  maxProperties: 5_000,
  /** Enum values across all enums. */
  maxEnumValues: 1_000,
  /** Total length of property names, enum values and const values. */
  maxStringBudget: 120_000,
  /** An enum with more values than this ... */
  largeEnumValues: 250,
  /** ... may total at most this many characters of string values. */
  maxLargeEnumLength: 15_000,
});

/** Keywords kept as they are in strict mode (the documented supported subset). */
const STRICT_KEPT = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'enum',
  'const',
  'description',
  'title',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);

/** Constraints strict mode rejects; their meaning moves into the description. */
const STRICT_DESCRIBED = new Set([
  'default',
  'minLength',
  'maxLength',
  'format',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'propertyNames',
  'contains',
  'minContains',
  'maxContains',
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'examples',
  'contentMediaType',
  'contentEncoding',
  'deprecated',
]);

/** Keywords that mean nothing once `$ref`s are inlined; dropped in both modes. */
const ALWAYS_DROPPED = new Set([
  '$schema',
  '$id',
  '$comment',
  '$anchor',
  '$dynamicAnchor',
  '$defs',
  'definitions',
  '$vocabulary',
]);

const ANNOTATIONS = new Set(['description', 'title', 'default', 'examples', 'deprecated']);

/** The result of `toOpenAISchema`. */
export interface OpenAISchemaResult {
  /** The `parameters` value. */
  schema: SchemaNode;
  /** Whether `schema` meets strict mode; send it as the tool's `strict`. */
  strict: boolean;
}

interface Blocker {
  pointer: string;
  reason: string;
}

/**
 * Converts an input schema (local `$ref`s already inlined, root already a plain object) into
 * OpenAI's function `parameters`. With `strict: true` it tries Structured Outputs strict mode:
 * every object gets `additionalProperties: false` and `required` = all its keys, an optional
 * property becomes nullable (`["T", "null"]`, or `anyOf` with `{type: "null"}` for objects,
 * arrays and unions) so the model may send null for it (`removeNullOptionals` undoes that),
 * `oneOf` → `anyOf`, mergeable `allOf` merged, multi-type `type` arrays split into `anyOf`, and
 * unsupported constraints (`default`, `minLength`, formats outside the allowlist, ...) moved into
 * the description. When the schema cannot be strict (open maps, untyped values, tuples, limits)
 * the non-strict form is returned with `strict: false` and a `STRICT_DISABLED` warning. The
 * non-strict form still fixes what OpenAI always rejects: objects get `properties`, arrays get
 * `items`, `oneOf` → `anyOf`.
 */
export function toOpenAISchema(
  schema: SchemaNode,
  sink: SchemaWarningSink,
  options: { strict: boolean },
): OpenAISchemaResult {
  if (options.strict) {
    const buffered: Parameters<SchemaWarningSink['add']>[] = [];
    const blockers: Blocker[] = [];
    const strictSchema = new Converter(
      true,
      { add: (...args) => buffered.push(args) },
      blockers,
    ).convert(schema, '', false, true) as SchemaNode;
    if (blockers.length === 0) blockers.push(...checkStrictLimits(strictSchema));
    if (blockers.length === 0) {
      for (const args of buffered) sink.add(...args);
      return { schema: strictSchema, strict: true };
    }
    const listed = blockers
      .slice(0, 5)
      .map((blocker) => `${blocker.reason} at ${blocker.pointer || 'the root'}`);
    const more = blockers.length > 5 ? `; and ${blockers.length - 5} more` : '';
    sink.add(
      'STRICT_DISABLED',
      'strict',
      blockers[0]?.pointer ?? '',
      `the schema cannot be made strict (${listed.join('; ')}${more}); sent with strict: false, so the model's arguments are not guaranteed to match the schema`,
    );
  }
  const schemaOut = new Converter(false, sink, []).convert(schema, '', false, true) as SchemaNode;
  return { schema: schemaOut, strict: false };
}

class Converter {
  constructor(
    private readonly strict: boolean,
    private readonly sink: SchemaWarningSink,
    private readonly blockers: Blocker[],
  ) {}

  private block(pointer: string, reason: string): void {
    if (this.strict) this.blockers.push({ pointer, reason });
  }

  convert(node: unknown, pointer: string, optional: boolean, isRoot: boolean): unknown {
    if (node === true || (isPlainObject(node) && Object.keys(node).length === 0)) {
      this.block(pointer, 'an empty schema accepts any value');
      return {};
    }
    if (node === false) {
      this.block(pointer, 'the schema false accepts nothing');
      return false;
    }
    if (!isPlainObject(node)) return node;

    const working = this.normalize(node, pointer);
    const types = declaredTypes(working);
    const originalRequired = requiredList(working);
    const out: SchemaNode = {};
    const notes: string[] = [];

    for (const [key, value] of Object.entries(working)) {
      // a key set to undefined (a schema built in code) is absent, as JSON.stringify drops it
      if (value === undefined) continue;
      const childPointer = `${pointer}/${escapePointerToken(key)}`;
      if (ALWAYS_DROPPED.has(key)) continue;
      if (key === 'properties' && isPlainObject(value)) {
        const properties: SchemaNode = {};
        for (const [name, child] of Object.entries(value)) {
          const propertyPointer = `${childPointer}/${escapePointerToken(name)}`;
          if (child === false && this.strict) {
            this.report(
              'PROPERTY_DROPPED',
              name,
              propertyPointer,
              'a property whose schema is false can never be sent; it was dropped',
            );
            continue;
          }
          const isOptional = this.strict && !originalRequired.includes(name);
          defineEntry(properties, name, this.convert(child, propertyPointer, isOptional, false));
        }
        out.properties = properties;
      } else if (key === 'required') {
        if (!this.strict) out.required = value;
      } else if (key === 'additionalProperties') {
        if (value === false) out.additionalProperties = false;
        else {
          this.block(childPointer, 'additionalProperties other than false (an open map)');
          out.additionalProperties = isPlainObject(value)
            ? this.convert(value, childPointer, false, false)
            : value;
        }
      } else if (key === 'items') {
        if (Array.isArray(value)) {
          this.block(childPointer, 'tuple items');
          out.items = value.map((child, index) =>
            this.convert(child, `${childPointer}/${index}`, false, false),
          );
        } else out.items = this.convert(value, childPointer, false, false);
      } else if (key === 'anyOf' || key === 'oneOf' || key === 'allOf' || key === 'prefixItems') {
        if (key === 'prefixItems') this.block(childPointer, 'a tuple (prefixItems)');
        if (key === 'oneOf') this.block(childPointer, 'oneOf beside anyOf');
        if (key === 'allOf') this.block(childPointer, 'allOf whose schemas conflict');
        out[key] = Array.isArray(value)
          ? value.map((child, index) =>
              this.convert(child, `${childPointer}/${index}`, false, false),
            )
          : value;
      } else if (key === 'patternProperties') {
        this.block(childPointer, 'patternProperties (an open map)');
        out.patternProperties = value;
      } else if (key === 'default' && value === null) {
        // default null only restates that the parameter is optional
      } else if (!this.strict) {
        // keys come from untrusted schemas: defineEntry keeps "__proto__" a plain key
        defineEntry(out, key, value);
      } else if (key === 'format') {
        if (typeof value === 'string' && OPENAI_STRICT_FORMATS.has(value)) out.format = value;
        else this.describe(notes, key, value, childPointer, `format "${describeValue(value)}"`);
      } else if (STRICT_KEPT.has(key)) {
        defineEntry(out, key, value);
      } else if (STRICT_DESCRIBED.has(key)) {
        this.describe(notes, key, value, childPointer, `"${key}"`);
      } else if (key !== 'nullable') {
        this.report(
          'KEYWORD_DROPPED',
          key,
          childPointer,
          `"${key}" is not a JSON Schema keyword OpenAI strict mode accepts; it was dropped`,
        );
      }
    }

    const result = this.strict ? withInferredType(out, types) : out;
    const resultTypes = declaredTypes(result);
    const isObject =
      resultTypes?.includes('object') === true ||
      (resultTypes === undefined && isPlainObject(result.properties));
    if (isObject) {
      if (!isPlainObject(result.properties)) result.properties = {};
      if (this.strict) {
        const names = Object.keys(result.properties as SchemaNode);
        if (!Object.hasOwn(result, 'additionalProperties')) {
          if (!isRoot && names.length === 0) {
            this.block(pointer, 'an object without declared properties (a free-form map)');
          }
          result.additionalProperties = false;
        }
        result.required = names;
      }
    }
    if (
      resultTypes?.includes('array') === true &&
      !Object.hasOwn(result, 'items') &&
      !Object.hasOwn(result, 'prefixItems')
    ) {
      this.block(pointer, 'an array without items');
      result.items = {};
    }
    if (notes.length > 0) result.description = appendNotes(result.description, notes);
    if (this.strict && isObject) orderObjectKeywords(result);
    if (this.strict && !isTyped(result)) this.block(pointer, 'an untyped schema accepts any value');
    return this.strict && optional ? makeNullable(result) : result;
  }

  /** oneOf → anyOf, allOf merged, nullable folded, type unions split, never-branches pruned. */
  private normalize(node: SchemaNode, pointer: string): SchemaNode {
    let working = node;
    if (Array.isArray(working.oneOf) && !Array.isArray(working.anyOf)) {
      working = renameKey(working, 'oneOf', 'anyOf');
    }
    if (Array.isArray(working.allOf)) working = mergeAllOf(working) ?? working;
    if (this.strict) {
      working = distributeTypeIntoBranches(working);
      working = foldNullable(working);
      working = dropNullTheEnumExcludes(working);
      const split = splitTypeUnion(working);
      if (split !== working) {
        working = split;
      }
    }
    if (Array.isArray(working.anyOf)) {
      const branches = working.anyOf.filter((branch) => branch !== false && !isNever(branch));
      if (branches.length === 0) {
        this.block(`${pointer}/anyOf`, 'an anyOf without any possible branch');
      } else if (branches.length === 1 && isPlainObject(branches[0])) {
        const collapsed = collapseBranch(working, branches[0]);
        if (collapsed !== undefined) return collapsed;
        working = { ...working, anyOf: branches };
      } else if (branches.length !== working.anyOf.length) {
        working = { ...working, anyOf: branches };
      }
    }
    return working;
  }

  private describe(
    notes: string[],
    key: string,
    value: unknown,
    pointer: string,
    what: string,
  ): void {
    notes.push(`${key}: ${describeValue(value)}`);
    this.report(
      'KEYWORD_MOVED_TO_DESCRIPTION',
      key === 'format' ? `format:${describeValue(value)}` : key,
      pointer,
      `${what} is not supported in OpenAI strict mode; it was moved into the description`,
    );
  }

  private report(code: string, subject: string, pointer: string, text: string): void {
    this.sink.add(code, subject, pointer, text);
  }
}

/** Puts `required` and `additionalProperties` right after `properties`, where readers expect them. */
function orderObjectKeywords(node: SchemaNode): void {
  const entries = Object.entries(node);
  for (const key of Object.keys(node)) delete node[key];
  for (const [key, value] of entries) {
    if (key === 'required' || key === 'additionalProperties') continue;
    defineEntry(node, key, value);
    if (key === 'properties') {
      node.required = entries.find(([name]) => name === 'required')?.[1];
      node.additionalProperties = entries.find(([name]) => name === 'additionalProperties')?.[1];
    }
  }
}

/** Makes an optional property nullable, the strict-mode way to let the model leave it out. */
function makeNullable(node: SchemaNode): SchemaNode {
  if (Array.isArray(node.anyOf)) {
    if (node.anyOf.some((branch) => isPlainObject(branch) && allowsNull(branch))) return node;
    return { ...node, anyOf: [...node.anyOf, { type: 'null' }] };
  }
  const types = declaredTypes(node);
  if (types === undefined) {
    if (Array.isArray(node.enum) && !node.enum.includes(null))
      return { ...node, enum: [...node.enum, null] };
    return node;
  }
  if (types.length === 1 && (types[0] === 'object' || types[0] === 'array')) {
    const inner: SchemaNode = {};
    const wrapper: SchemaNode = {};
    for (const [key, value] of Object.entries(node)) {
      defineEntry(key === 'description' || key === 'title' ? wrapper : inner, key, value);
    }
    wrapper.anyOf = [inner, { type: 'null' }];
    return wrapper;
  }
  const nullable: SchemaNode = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type') nullable.type = types.includes('null') ? types : [...types, 'null'];
    else if (key === 'enum' && Array.isArray(value))
      nullable.enum = value.includes(null) ? value : [...value, null];
    else if (key === 'const') nullable.enum = value === null ? [null] : [value, null];
    else defineEntry(nullable, key, value);
  }
  return nullable;
}

function allowsNull(node: SchemaNode): boolean {
  const types = declaredTypes(node);
  return (
    types?.includes('null') === true ||
    (Array.isArray(node.enum) && node.enum.includes(null)) ||
    (Object.hasOwn(node, 'const') && node.const === null)
  );
}

/**
 * `type: [T, "null"]` with an enum (or const) without null only accepts non-null values: strict
 * mode rejects the mismatch, so "null" leaves the type (an optional property gets it back, with
 * null in the enum, from makeNullable).
 */
function dropNullTheEnumExcludes(node: SchemaNode): SchemaNode {
  const types = declaredTypes(node);
  if (types === undefined || !types.includes('null')) return node;
  const values = Array.isArray(node.enum)
    ? node.enum
    : Object.hasOwn(node, 'const')
      ? [node.const]
      : undefined;
  if (values === undefined || values.includes(null)) return node;
  const kept = types.filter((type) => type !== 'null');
  const result: SchemaNode = {};
  for (const [key, value] of Object.entries(node)) {
    defineEntry(result, key, key === 'type' ? (kept.length === 1 ? kept[0] : kept) : value);
  }
  return result;
}

/** OpenAPI-style `nullable: true` → a `"null"` type (strict mode has no `nullable`). */
function foldNullable(node: SchemaNode): SchemaNode {
  if (!Object.hasOwn(node, 'nullable')) return node;
  const result: SchemaNode = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'nullable') continue;
    if (key === 'type' && node.nullable === true) {
      const types = Array.isArray(value) ? value : [value];
      result.type = types.includes('null') ? types : [...types, 'null'];
    } else defineEntry(result, key, value);
  }
  return result;
}

/** Adds the `type` a strict schema needs when it can be read off properties, items or values. */
function withInferredType(node: SchemaNode, types: string[] | undefined): SchemaNode {
  if (types !== undefined || Array.isArray(node.anyOf)) return node;
  let type: string | undefined;
  if (isPlainObject(node.properties)) type = 'object';
  else if (Object.hasOwn(node, 'items')) type = 'array';
  else if (Array.isArray(node.enum)) type = inferTypeFromValues(node.enum);
  else if (Object.hasOwn(node, 'const')) type = inferTypeFromValues([node.const]);
  if (type === undefined) return node;
  return { type, ...node };
}

function isTyped(node: SchemaNode): boolean {
  return (
    Object.hasOwn(node, 'type') ||
    Array.isArray(node.anyOf) ||
    Array.isArray(node.enum) ||
    Object.hasOwn(node, 'const')
  );
}

/** `{not: {}}` matches nothing (zod's `undefined`); as an anyOf branch it can go. */
function isNever(branch: unknown): boolean {
  return (
    isPlainObject(branch) &&
    Object.keys(branch).length === 1 &&
    isPlainObject(branch.not) &&
    Object.keys(branch.not).length === 0
  );
}

/** Replaces `anyOf: [branch]` by the branch itself when their keywords do not overlap. */
function collapseBranch(node: SchemaNode, branch: SchemaNode): SchemaNode | undefined {
  const result: SchemaNode = {};
  for (const [key, value] of Object.entries(node))
    if (key !== 'anyOf') defineEntry(result, key, value);
  for (const [key, value] of Object.entries(branch)) {
    if (!Object.hasOwn(result, key)) defineEntry(result, key, value);
    else if (!ANNOTATIONS.has(key)) return undefined;
  }
  return result;
}

function renameKey(node: SchemaNode, from: string, to: string): SchemaNode {
  const result: SchemaNode = {};
  for (const [key, value] of Object.entries(node))
    defineEntry(result, key === from ? to : key, value);
  return result;
}

/** Checks a strict schema against OPENAI_STRICT_LIMITS. */
function checkStrictLimits(schema: SchemaNode): Blocker[] {
  let depth = 0;
  let properties = 0;
  let enumValues = 0;
  let budget = 0;
  const blockers: Blocker[] = [];
  const visit = (node: unknown, pointer: string, level: number): void => {
    if (!isPlainObject(node)) return;
    const types = declaredTypes(node) ?? [];
    const here = types.includes('object') || types.includes('array') ? level + 1 : level;
    depth = Math.max(depth, here);
    if (isPlainObject(node.properties)) {
      for (const [name, child] of Object.entries(node.properties)) {
        properties++;
        budget += name.length;
        visit(child, `${pointer}/properties/${escapePointerToken(name)}`, here);
      }
    }
    if (Array.isArray(node.enum)) {
      enumValues += node.enum.length;
      let length = 0;
      for (const value of node.enum) length += value === null ? 0 : String(value).length;
      budget += length;
      if (
        node.enum.length > OPENAI_STRICT_LIMITS.largeEnumValues &&
        length > OPENAI_STRICT_LIMITS.maxLargeEnumLength
      ) {
        blockers.push({
          pointer: `${pointer}/enum`,
          reason: `an enum of ${node.enum.length} values totalling ${length} characters (over ${OPENAI_STRICT_LIMITS.maxLargeEnumLength} for enums above ${OPENAI_STRICT_LIMITS.largeEnumValues} values)`,
        });
      }
    }
    if (Object.hasOwn(node, 'const')) budget += String(node.const).length;
    visit(node.items, `${pointer}/items`, here);
    if (Array.isArray(node.anyOf)) {
      node.anyOf.forEach((branch, index) => {
        visit(branch, `${pointer}/anyOf/${index}`, here);
      });
    }
  };
  visit(schema, '', 0);
  if (depth > OPENAI_STRICT_LIMITS.maxDepth) {
    blockers.push({
      pointer: '',
      reason: `${depth} levels of nesting (limit ${OPENAI_STRICT_LIMITS.maxDepth})`,
    });
  }
  if (properties > OPENAI_STRICT_LIMITS.maxProperties) {
    blockers.push({
      pointer: '',
      reason: `${properties} properties (limit ${OPENAI_STRICT_LIMITS.maxProperties})`,
    });
  }
  if (enumValues > OPENAI_STRICT_LIMITS.maxEnumValues) {
    blockers.push({
      pointer: '',
      reason: `${enumValues} enum values (limit ${OPENAI_STRICT_LIMITS.maxEnumValues})`,
    });
  }
  if (budget > OPENAI_STRICT_LIMITS.maxStringBudget) {
    blockers.push({
      pointer: '',
      reason: `${budget} characters of property names and enum/const values (limit ${OPENAI_STRICT_LIMITS.maxStringBudget})`,
    });
  }
  return blockers;
}
