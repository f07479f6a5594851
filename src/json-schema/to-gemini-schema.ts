import { TranslationError } from '../errors/translation-error.js';
import { escapePointerToken } from '../format/json-pointer.js';
import { checkPropertyName, type PropertyNameRule } from './check-property-names.js';
import type { GeminiSchema, GeminiType } from './gemini-schema.js';
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

const GEMINI_TYPES: Readonly<Record<string, GeminiType>> = {
  string: 'STRING',
  number: 'NUMBER',
  integer: 'INTEGER',
  boolean: 'BOOLEAN',
  array: 'ARRAY',
  object: 'OBJECT',
};

/** `format` values the Gemini API accepts, by type ("only 'enum' and 'date-time' are supported for STRING type"). */
export const GEMINI_FORMATS: Readonly<Record<GeminiType, ReadonlySet<string>>> = {
  STRING: new Set(['enum', 'date-time']),
  NUMBER: new Set(['float', 'double']),
  INTEGER: new Set(['int32', 'int64']),
  BOOLEAN: new Set(),
  ARRAY: new Set(),
  OBJECT: new Set(),
};

/** Integer limits Gemini declares int64 (sent as strings). */
const INT64_KEYWORDS = new Set([
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
]);

/** Constraints Gemini's Schema lacks; their meaning moves into the description. */
const DESCRIBED_KEYWORDS = new Set([
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'uniqueItems',
  'contains',
  'minContains',
  'maxContains',
  'propertyNames',
  'patternProperties',
  'dependentRequired',
  'dependentSchemas',
  'not',
  'if',
  'then',
  'else',
  'prefixItems',
  'contentMediaType',
  'contentEncoding',
  'deprecated',
]);

/** Keywords dropped without a warning: identifiers and bookkeeping with no meaning for the model. */
const SILENTLY_DROPPED = new Set([
  '$schema',
  '$id',
  '$comment',
  '$anchor',
  '$dynamicAnchor',
  '$defs',
  'definitions',
  '$vocabulary',
  'readOnly',
  'writeOnly',
]);

const MAX_NESTING = 256;
/** Parameter names the Gemini SDK documents (`FunctionDeclaration.parameters`). */
const GEMINI_PARAMETER_NAMES: PropertyNameRule = {
  pattern: /^[A-Za-z_][A-Za-z0-9_]{0,63}$/,
  allowed:
    'letters, digits and underscores, starting with a letter or underscore, at most 64 characters',
  effect: 'Gemini documents parameter names this way and may reject the request',
};

/**
 * Converts an input schema (local `$ref`s already inlined, root already a plain object) into
 * Gemini's `parameters` Schema, the OpenAPI 3.0 subset the API parses strictly ("Unknown name
 * ... Cannot find field"): only its keywords are kept; types become upper-case names; type
 * arrays and null branches become `nullable: true`; `oneOf` → `anyOf`; `const` → `enum`;
 * enums of non-strings are dropped and listed in the description (the API takes string enums
 * only); `format` is limited to what the API accepts; untyped values become STRING, array items
 * of any JSON an anyOf of every type but ARRAY; an object
 * without properties loses its empty `properties`; `required` only names kept properties.
 * Dropped constraints move into descriptions, each with a warning. Returns undefined when the
 * tool has no parameters (Gemini rejects an OBJECT with empty properties: omit `parameters`).
 */
export function toGeminiSchema(
  schema: SchemaNode,
  sink: SchemaWarningSink,
): GeminiSchema | undefined {
  const converted = convert(schema, '', 0);
  if (converted === undefined || converted.properties === undefined) return undefined;
  return converted;

  function convert(input: unknown, pointer: string, depth: number): GeminiSchema | undefined {
    if (depth > MAX_NESTING) {
      throw new TranslationError(
        'SCHEMA_TOO_COMPLEX',
        `the schema nests deeper than ${MAX_NESTING} levels`,
        { pointer },
      );
    }
    if (input === false) {
      sink.add(
        'PROPERTY_DROPPED',
        'false',
        pointer,
        'a schema that accepts nothing (false) was dropped',
      );
      return undefined;
    }
    if (!isPlainObject(input)) return untyped({}, pointer);
    const node = normalize(input, pointer);
    if (node === undefined) return undefined;

    const out: GeminiSchema = {};
    const notes: string[] = [];
    const types = declaredTypes(node);
    const nonNull = types?.filter((type) => type !== 'null') ?? [];
    let nullable = types?.includes('null') === true || node.nullable === true;
    let type: GeminiType | undefined;
    if (nonNull.length === 1) type = GEMINI_TYPES[nonNull[0] as string];
    if (types !== undefined && nonNull.length === 0) {
      sink.add(
        'PROPERTY_DROPPED',
        'null',
        pointer,
        'a value that can only be null cannot be expressed for Gemini; it was dropped',
      );
      return undefined;
    }
    if (type === undefined && !Array.isArray(node.anyOf)) type = inferGeminiType(node);

    for (const [key, value] of Object.entries(node)) {
      // a key set to undefined (a schema built in code) is absent, as JSON.stringify drops it
      if (value === undefined) continue;
      const childPointer = `${pointer}/${escapePointerToken(key)}`;
      switch (key) {
        case 'type':
        case 'nullable':
        case 'required':
          break;
        case 'description':
        case 'title':
        case 'pattern':
          if (typeof value === 'string') out[key] = value;
          break;
        case 'minimum':
        case 'maximum':
          if (typeof value === 'number') out[key] = value;
          break;
        case 'default':
          if (value !== null) out.default = value;
          break;
        case 'example':
          out.example = value;
          break;
        case 'examples':
          if (Array.isArray(value) && value.length > 0) out.example = value[0];
          break;
        case 'format':
          if (typeof value === 'string' && type !== undefined && GEMINI_FORMATS[type].has(value)) {
            out.format = value;
          } else {
            notes.push(`format: ${describeValue(value)}`);
            sink.add(
              'KEYWORD_MOVED_TO_DESCRIPTION',
              `format:${describeValue(value)}`,
              childPointer,
              `format "${describeValue(value)}" is not accepted by Gemini for ${type ?? 'this'} type; it was moved into the description`,
            );
          }
          break;
        case 'enum': {
          const values = Array.isArray(value) ? value : [];
          if (values.includes(null)) nullable = true;
          const present = values.filter((entry) => entry !== null);
          if (
            present.length > 0 &&
            present.every((entry) => typeof entry === 'string') &&
            (type === 'STRING' || type === undefined)
          ) {
            type = 'STRING';
            out.enum = present as string[];
          } else if (present.length > 0) {
            notes.push(
              `allowed values: ${present.map((entry) => JSON.stringify(entry)).join(', ')}`,
            );
            sink.add(
              'ENUM_MOVED_TO_DESCRIPTION',
              'enum',
              childPointer,
              'Gemini accepts enums of strings only; the allowed values were moved into the description',
            );
          }
          break;
        }
        case 'items': {
          const items = Array.isArray(value)
            ? undefined
            : acceptsAnything(value)
              ? anyJsonItems(childPointer)
              : convert(value, childPointer, depth + 1);
          if (items !== undefined) out.items = items;
          break;
        }
        case 'properties':
          if (isPlainObject(value)) {
            const properties: Record<string, GeminiSchema> = {};
            for (const [name, child] of Object.entries(value)) {
              checkPropertyName(
                name,
                `${childPointer}/${escapePointerToken(name)}`,
                GEMINI_PARAMETER_NAMES,
                sink,
              );
              const converted = convert(
                child,
                `${childPointer}/${escapePointerToken(name)}`,
                depth + 1,
              );
              if (converted !== undefined) defineEntry(properties, name, converted);
            }
            out.properties = properties;
          }
          break;
        case 'anyOf':
          if (Array.isArray(value)) {
            const branches: GeminiSchema[] = [];
            value.forEach((branch, index) => {
              const converted = convert(branch, `${childPointer}/${index}`, depth + 1);
              if (converted !== undefined) branches.push(converted);
            });
            out.anyOf = branches;
          }
          break;
        case 'additionalProperties':
          if (value !== false) {
            sink.add(
              'KEYWORD_DROPPED',
              'additionalProperties',
              childPointer,
              'Gemini has no "additionalProperties"; the free-form keys of this object cannot be described and the model will usually leave them out',
            );
          }
          break;
        default:
          if (INT64_KEYWORDS.has(key)) {
            if (Number.isInteger(value) && (value as number) >= 0) {
              (out as unknown as Record<string, unknown>)[key] = String(value);
            }
          } else if (DESCRIBED_KEYWORDS.has(key)) {
            notes.push(`${key}: ${describeValue(value)}`);
            sink.add(
              'KEYWORD_MOVED_TO_DESCRIPTION',
              key,
              childPointer,
              `"${key}" is not accepted by Gemini; it was moved into the description`,
            );
          } else if (!SILENTLY_DROPPED.has(key)) {
            sink.add(
              'KEYWORD_DROPPED',
              key,
              childPointer,
              `"${key}" is not part of Gemini's Schema; it was dropped`,
            );
          }
      }
    }

    if (out.anyOf?.length === 0) delete out.anyOf;
    if (Array.isArray(out.anyOf)) {
      if (nullable) out.anyOf = out.anyOf.map((branch) => ({ ...branch, nullable: true }));
      nullable = false;
      type = undefined;
    }
    if (type === undefined && out.anyOf === undefined) return untyped(out, pointer, notes);

    const result: GeminiSchema = {};
    if (type !== undefined) result.type = type;
    if (nullable) result.nullable = true;
    Object.assign(result, out);
    if (type === 'OBJECT') {
      const names = result.properties === undefined ? [] : Object.keys(result.properties);
      if (names.length === 0) delete result.properties;
      const required = requiredList(node).filter((name) => names.includes(name));
      if (required.length > 0) result.required = [...new Set(required)];
    } else {
      delete result.properties;
    }
    if (type === 'ARRAY' && result.items === undefined) {
      sink.add(
        'ARRAY_ITEMS_ADDED',
        'items',
        pointer,
        'an array without an element schema was given STRING items (Gemini needs items)',
      );
      result.items = { type: 'STRING' };
    }
    if (type !== 'ARRAY') delete result.items;
    if (notes.length > 0) result.description = appendNotes(result.description, notes);
    return result;
  }

  /**
   * Items of any JSON (toolcap's `"items": {"allOf": [{}]}`): every type but ARRAY, whose own
   * items would need the same again without end. Wider than STRING items, so arrays of numbers
   * or objects still reach the model, and stable when read back.
   */
  function anyJsonItems(pointer: string): GeminiSchema {
    sink.add(
      'ANY_JSON_ITEMS_NARROWED',
      'items',
      pointer,
      'Gemini needs typed array items; items of any JSON were declared as an anyOf of STRING, NUMBER, BOOLEAN and OBJECT (nullable), so arrays nested in this array are not declared',
    );
    return {
      anyOf: (['STRING', 'NUMBER', 'BOOLEAN', 'OBJECT'] as const).map((type) => ({
        type,
        nullable: true,
      })),
    };
  }

  function untyped(out: GeminiSchema, pointer: string, notes: string[] = []): GeminiSchema {
    sink.add(
      'UNTYPED_SCHEMA_AS_STRING',
      'untyped',
      pointer,
      'Gemini needs a type for every value; an untyped value (any JSON) is declared STRING, which the original schema also accepts',
    );
    const result: GeminiSchema = { type: 'STRING' };
    if (out.description !== undefined) result.description = out.description;
    if (out.title !== undefined) result.title = out.title;
    if (notes.length > 0) result.description = appendNotes(result.description, notes);
    return result;
  }

  /** oneOf → anyOf, allOf merged, type unions split, null branches → nullable, single branches collapsed. */
  function normalize(input: SchemaNode, pointer: string): SchemaNode | undefined {
    let node = input;
    if (Array.isArray(node.oneOf)) {
      const { oneOf, ...rest } = node;
      node = {
        ...rest,
        anyOf: [...(Array.isArray(rest.anyOf) ? rest.anyOf : []), ...(oneOf as unknown[])],
      };
    }
    if (Array.isArray(node.allOf)) {
      const merged = mergeAllOf(node);
      if (merged !== undefined) node = merged;
      else {
        const { allOf, ...rest } = node;
        sink.add(
          'KEYWORD_MOVED_TO_DESCRIPTION',
          'allOf',
          `${pointer}/allOf`,
          '"allOf" with conflicting schemas cannot be expressed for Gemini; it was moved into the description',
        );
        node = {
          ...rest,
          description: appendNotes(rest.description, [`allOf: ${JSON.stringify(allOf)}`]),
        };
      }
    }
    if (Object.hasOwn(node, 'const')) {
      const { const: constant, ...rest } = node;
      node = { ...rest, enum: [constant] };
    }
    node = splitTypeUnion(distributeTypeIntoBranches(node));
    if (!Array.isArray(node.anyOf)) return node;

    let nullable = node.nullable === true;
    const branches: unknown[] = [];
    for (const branch of node.anyOf) {
      if (branch === false || isNever(branch)) continue;
      if (isPlainObject(branch) && isNullOnly(branch)) {
        nullable = true;
        continue;
      }
      branches.push(branch);
    }
    const { anyOf: _anyOf, nullable: _nullable, ...rest } = node;
    if (branches.length === 0) {
      sink.add(
        'PROPERTY_DROPPED',
        'null',
        pointer,
        'a value that can only be null cannot be expressed for Gemini; it was dropped',
      );
      return undefined;
    }
    const base: SchemaNode = nullable ? { ...rest, nullable: true } : rest;
    if (branches.length === 1 && isPlainObject(branches[0])) {
      // a single remaining branch replaces the anyOf; the outer annotations win
      const merged: SchemaNode = { ...branches[0] };
      for (const [key, value] of Object.entries(base)) {
        if (key !== 'type' || !Object.hasOwn(merged, 'type')) defineEntry(merged, key, value);
      }
      return merged;
    }
    const { type: _type, ...withoutType } = base;
    return { ...withoutType, anyOf: branches };
  }
}

/** `true`, `{}` or an `allOf` of such (toolcap's any-JSON items): a schema that accepts any value. */
function acceptsAnything(value: unknown): boolean {
  if (value === true) return true;
  if (!isPlainObject(value)) return false;
  return Object.entries(value).every(
    ([key, entry]) => key === 'allOf' && Array.isArray(entry) && entry.every(acceptsAnything),
  );
}

function inferGeminiType(node: SchemaNode): GeminiType | undefined {
  if (isPlainObject(node.properties)) return 'OBJECT';
  if (Object.hasOwn(node, 'items')) return 'ARRAY';
  if (Array.isArray(node.enum)) {
    const inferred = inferTypeFromValues(node.enum);
    return inferred === undefined ? undefined : GEMINI_TYPES[inferred];
  }
  return undefined;
}

function isNullOnly(node: SchemaNode): boolean {
  return (
    node.type === 'null' ||
    (Array.isArray(node.enum) && node.enum.length === 1 && node.enum[0] === null)
  );
}

function isNever(branch: unknown): boolean {
  return (
    isPlainObject(branch) &&
    Object.keys(branch).length === 1 &&
    isPlainObject(branch.not) &&
    Object.keys(branch.not).length === 0
  );
}
