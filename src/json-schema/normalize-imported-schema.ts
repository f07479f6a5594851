import { describeUnknownFormat, KNOWN_FORMATS } from './check-schema.js';
import { mapSubschemas } from './map-subschemas.js';
import { DRAFT_2020_12_URI } from './schema-keywords.js';
import {
  declaredTypes,
  defineEntry,
  isPlainObject,
  jsonTypeOf,
  requiredList,
  type SchemaNode,
} from './schema-node.js';
import type { SchemaWarningSink } from './schema-warnings.js';
import { TYPE_KEYWORDS } from './split-type-union.js';
import {
  ANY_JSON_TYPES,
  acceptsEveryType,
  anyJsonSchema,
  convertTypeName,
  JSON_SCHEMA_TYPES,
  toJsonSchemaType,
} from './to-json-schema-type.js';
import { upgradeToDraft2020 } from './upgrade-to-draft-2020.js';

const SUPPORTED_DIALECTS = new Set([
  DRAFT_2020_12_URI,
  'http://json-schema.org/draft-07/schema',
  'https://json-schema.org/draft-07/schema',
]);
const MAX_NESTING = 256;
/** What Zod 4 writes for `.int()`: bounds that only say "a safe integer". */
const SAFE_INTEGER_BOUNDS: Readonly<Record<string, number>> = {
  minimum: Number.MIN_SAFE_INTEGER,
  maximum: Number.MAX_SAFE_INTEGER,
};
/**
 * Format names Zod 4 writes beside a `pattern` that makes the same check (`z.string()
 * .startsWith("#")` → `"format": "starts_with", "pattern": "^#.*"`): no JSON Schema validator
 * knows them, so they are noise once the pattern is there.
 */
const ZOD_PATTERN_FORMATS: ReadonlySet<string> = new Set([
  'starts_with',
  'ends_with',
  'includes',
  'lowercase',
  'uppercase',
  'nanoid',
  'cuid',
  'cuid2',
  'ulid',
  'xid',
  'ksuid',
  'e164',
  'emoji',
  'base64',
  'base64url',
  'cidrv4',
  'cidrv6',
  'mac',
  'hex',
]);
/** Zod's hash formats (`z.hash("sha256")` → `sha256_hex`), each with its pattern. */
const ZOD_HASH_FORMAT = /^(?:md5|sha1|sha256|sha384|sha512)_(?:hex|base64|base64url)$/;

/**
 * Turns the input schema of an imported tool into one the registry and every translator
 * accept: a missing or non-object schema becomes `{type: "object", properties: {}}`; the root
 * gets `type: "object"` and `properties`; non-standard type names (`dict`, `float`, `tuple`,
 * `String`, `INTEGER`, ...) become JSON Schema types, `any` and `{}` every JSON type; arrays
 * without `items` get string items; per-property `required: true` (draft-03) moves into the
 * parent's `required`; `required` names that are not properties are removed; draft-04/06 schemas
 * are upgraded to 2020-12; Zod's format names beside a pattern that checks the same are removed.
 * Every change is reported. Zod's `.int()` bounds (±Number.MAX_SAFE_INTEGER) are removed
 * silently, as a default `$schema` is: they restrict nothing a tool argument can hold. Returns
 * undefined when the root is a non-object type (the tool cannot take arguments as a JSON
 * object).
 */
export function normalizeImportedSchema(
  schema: unknown,
  sink: SchemaWarningSink,
): SchemaNode | undefined {
  if (!isPlainObject(schema)) {
    if (schema !== undefined && schema !== null) {
      sink.add(
        'SCHEMA_REPLACED',
        'root',
        '',
        `the input schema was ${JSON.stringify(schema)}, not an object; the tool takes no parameters now`,
      );
    }
    return { type: 'object', properties: {} };
  }
  // draft-04 leftovers (boolean exclusiveMinimum, ...) are invalid in draft-07 and 2020-12 alike
  let root = upgradeToDraft2020(visit(schema, '', 0) as SchemaNode, sink);
  if (typeof root.$schema === 'string' && !SUPPORTED_DIALECTS.has(root.$schema.replace(/#$/, ''))) {
    sink.add(
      'SCHEMA_DIALECT_CONVERTED',
      '$schema',
      '/$schema',
      `"$schema": "${root.$schema}" is not a supported dialect (2020-12, draft-07); "$schema" was removed, so the schema is read as 2020-12`,
    );
    const { $schema: _schema, ...rest } = root;
    root = rest;
  }
  const type = root.type;
  if (type === undefined) {
    root = { type: 'object', ...root };
  } else if (type !== 'object') {
    const types = Array.isArray(type) ? type : [type];
    if (!types.includes('object')) return undefined;
    sink.add(
      'ROOT_TYPE_SET',
      'root-type',
      '/type',
      `the root type ${JSON.stringify(type)} became "object" (tool arguments are always an object)`,
    );
    root = { ...root, type: 'object' };
  }
  if (!isPlainObject(root.properties)) root = { ...root, properties: {} };
  return checkRequired(root, '');

  function visit(node: unknown, pointer: string, depth: number): unknown {
    if (!isPlainObject(node) || depth > MAX_NESTING) return node;
    let current = mapSubschemas(restoreAnyJson(node), pointer, (child, childPointer) =>
      visit(child, childPointer, depth + 1),
    );
    current = fixType(current, pointer);
    current = typeUntypedValue(current, pointer);
    current = liftPropertyRequired(current, pointer);
    current = dropZodFormat(current, pointer);
    reportUnknownFormat(current, pointer);
    current = dropSafeIntegerBounds(current);
    const types = declaredTypes(current);
    if (
      types?.includes('array') === true &&
      !Object.hasOwn(current, 'items') &&
      !Object.hasOwn(current, 'prefixItems')
    ) {
      if (acceptsEveryType(types)) {
        sink.add(
          'ARRAY_ITEMS_ADDED',
          'items-any',
          pointer,
          'a value of every JSON type had no "items"; arrays got "items": {"allOf": [{}]} (any JSON, as before: group files need typed items)',
        );
        current = { ...current, items: anyJsonSchema().items };
      } else current = addStringItems(current, pointer, sink);
    }
    return pointer === '' ? current : checkRequired(current, pointer);
  }

  /**
   * A value of every JSON type as OpenAI's translation sends it (`"items": {}`, `"properties":
   * {}`) is read back as `anyJsonSchema()`, silently: both mean any JSON, and inferring a type
   * for `{}` would nest one more type list on every round trip.
   */
  function restoreAnyJson(node: SchemaNode): SchemaNode {
    const types = declaredTypes(node);
    if (types === undefined || !acceptsEveryType(types)) return node;
    const isEmpty = (value: unknown) => isPlainObject(value) && Object.keys(value).length === 0;
    if (!isEmpty(node.items) && !isEmpty(node.properties)) return node;
    const restored: SchemaNode = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'properties' && isEmpty(value)) continue;
      defineEntry(restored, key, key === 'items' && isEmpty(value) ? anyJsonSchema().items : value);
    }
    return restored;
  }

  function fixType(node: SchemaNode, pointer: string): SchemaNode {
    const type = node.type;
    if (typeof type === 'string' && !JSON_SCHEMA_TYPES.has(type)) {
      const mapped = convertTypeName(type, `${pointer}/type`, sink);
      const { type: _type, ...rest } = node;
      if (mapped === undefined) return rest;
      return typeof mapped === 'string' ? { type: mapped, ...rest } : withAnyItems(mapped, rest);
    }
    if (
      Array.isArray(type) &&
      type.some((entry) => typeof entry === 'string' && !JSON_SCHEMA_TYPES.has(entry))
    ) {
      const names = type.flatMap((entry) => {
        if (typeof entry !== 'string' || JSON_SCHEMA_TYPES.has(entry)) return [entry];
        const converted = toJsonSchemaType(entry);
        return converted === undefined
          ? []
          : typeof converted === 'string'
            ? [converted]
            : converted;
      });
      const mapped = acceptsEveryType(names) ? [...ANY_JSON_TYPES] : [...new Set(names)];
      sink.add(
        'TYPE_CONVERTED',
        JSON.stringify(type),
        `${pointer}/type`,
        `type ${JSON.stringify(type)} has non-JSON-Schema names; it became ${JSON.stringify(mapped)}`,
      );
      return acceptsEveryType(mapped) ? withAnyItems(mapped, node) : { ...node, type: mapped };
    }
    return node;
  }

  /** `node` typed as every JSON type; arrays get items of any JSON unless it has items. */
  function withAnyItems(types: readonly unknown[], node: SchemaNode): SchemaNode {
    const { type: _type, ...rest } = node;
    const typed = { type: [...types], ...rest };
    return Object.hasOwn(node, 'items') || Object.hasOwn(node, 'prefixItems')
      ? typed
      : { ...typed, items: anyJsonSchema().items };
  }

  /**
   * Zod writes its own format names (`starts_with`, `includes`, `cuid`, ...) beside the
   * pattern that makes the check, in `pattern` or, with several, in `allOf` entries; with the
   * pattern there the format only earns UNKNOWN_FORMAT warnings.
   */
  function dropZodFormat(node: SchemaNode, pointer: string): SchemaNode {
    const format = node.format;
    if (typeof format !== 'string' || !isZodPatternFormat(format)) return node;
    const hasPattern =
      typeof node.pattern === 'string' ||
      (Array.isArray(node.allOf) &&
        node.allOf.some((entry) => isPlainObject(entry) && typeof entry.pattern === 'string'));
    if (!hasPattern) return node;
    sink.add(
      'KEYWORD_DROPPED',
      `format:${format}`,
      `${pointer}/format`,
      `"format": "${format}" is Zod's name for a check its "pattern" already makes, and no JSON Schema validator knows it; the format was removed, the pattern kept`,
    );
    const { format: _format, ...rest } = node;
    return rest;
  }

  /**
   * A format kept that the loader does not check (`z.jwt()` writes "jwt" with no pattern): the
   * loader warns UNKNOWN_FORMAT on the written file, and `validate --strict` fails on it, so
   * import says so first, in the loader's words.
   */
  function reportUnknownFormat(node: SchemaNode, pointer: string): void {
    const format = node.format;
    if (typeof format !== 'string' || KNOWN_FORMATS.has(format)) return;
    sink.add(
      'UNKNOWN_FORMAT',
      `format:${format}`,
      `${pointer}/format`,
      describeUnknownFormat(format),
    );
  }

  /**
   * The registry requires every property and array item to have a type or a composition
   * keyword (Gemini rejects untyped values). The type given keeps what the source accepted
   * where it can: the types of enum/const values; the type its type-specific keywords
   * constrain (`minimum` → number); else constraints with no type of their own (`not`, `if`)
   * move under `allOf`, which accepts the same values. A value with no constraint at all (any
   * JSON) gets every JSON type (`anyJsonSchema`), which accepts the same values too.
   */
  function typeUntypedValue(node: SchemaNode, pointer: string): SchemaNode {
    if (!VALUE_POSITION.test(pointer)) return node;
    if (
      Object.hasOwn(node, 'type') ||
      UNION_KEYWORDS.some((keyword) => Object.hasOwn(node, keyword))
    ) {
      return node;
    }
    const values = Array.isArray(node.enum)
      ? node.enum
      : Object.hasOwn(node, 'const')
        ? [node.const]
        : undefined;
    const valueTypes = values === undefined ? undefined : typesOfValues(values);
    // an array type needs items, which enum values do not give
    if (valueTypes !== undefined && !valueTypes.includes('array')) {
      return typed(node, pointer, valueTypes, 'from its enum/const values');
    }
    const constrained = Object.entries(TYPE_KEYWORDS).flatMap(([type, keywords]) => {
      const used = Object.keys(node).filter(
        // a boolean `required` is draft-03's, lifted into the parent below
        (key) => keywords.has(key) && (key !== 'required' || Array.isArray(node.required)),
      );
      return used.length > 0 ? [{ type, used }] : [];
    });
    if (constrained.length > 0) {
      const keywords = constrained.flatMap(({ used }) => used).map((key) => `"${key}"`);
      const types = constrained.map(({ type }) => type);
      return typed(
        node,
        pointer,
        types,
        `from ${keywords.join(', ')}, ${keywords.length === 1 ? 'a keyword that applies' : 'keywords that apply'} only to ${types.length === 1 ? 'that type' : 'those types'} (without a type, values of other types passed unchecked)`,
      );
    }
    const logic = LOGIC_KEYWORDS.filter((keyword) => Object.hasOwn(node, keyword));
    if (values !== undefined) logic.push(Array.isArray(node.enum) ? 'enum' : 'const');
    if (logic.length > 0) {
      const moved: SchemaNode = {};
      const rest: SchemaNode = {};
      for (const [key, value] of Object.entries(node)) {
        defineEntry(logic.includes(key) ? moved : rest, key, value);
      }
      sink.add(
        'TYPE_INFERRED',
        pointer,
        pointer,
        `an untyped value constrained by ${logic.map((key) => `"${key}"`).join(', ')} was written as "allOf": [{${logic.map((key) => `"${key}": ...`).join(', ')}}], which accepts the same values (a guessed type would narrow them; group files need a type or a composition keyword); set the real type if you know it`,
      );
      return { ...rest, allOf: [moved] };
    }
    const any = anyJsonSchema();
    sink.add(
      'TYPE_INFERRED',
      'any-json',
      pointer,
      `an untyped value (any JSON) got "type": ${JSON.stringify(any.type)} and, for arrays, "items": {"allOf": [{}]}, which accept every JSON value as before (group files need a type); narrow it to the real type if you know it (e.g. "type": "object" for a map of values, without "items")`,
    );
    return { ...any, ...node };
  }

  function typed(node: SchemaNode, pointer: string, types: string[], why: string): SchemaNode {
    const type = types.length === 1 ? types[0]! : types;
    sink.add(
      'TYPE_INFERRED',
      pointer,
      pointer,
      `an untyped value got "type": ${JSON.stringify(type)} ${why}`,
    );
    return { type, ...node };
  }

  function liftPropertyRequired(node: SchemaNode, pointer: string): SchemaNode {
    if (!isPlainObject(node.properties)) return node;
    const lifted: string[] = [];
    let changed = false;
    const properties: SchemaNode = {};
    for (const [name, child] of Object.entries(node.properties)) {
      if (isPlainObject(child) && typeof child.required === 'boolean') {
        changed = true;
        if (child.required) lifted.push(name);
        const { required: _required, ...rest } = child;
        defineEntry(properties, name, rest);
      } else defineEntry(properties, name, child);
    }
    if (!changed) return node;
    sink.add(
      'REQUIRED_CONVERTED',
      'required',
      `${pointer}/properties`,
      'per-property "required": true/false (draft-03) moved into the object\'s "required" list',
    );
    return { ...node, properties, required: [...new Set([...requiredList(node), ...lifted])] };
  }

  function checkRequired(node: SchemaNode, pointer: string): SchemaNode {
    if (!Array.isArray(node.required) || !isPlainObject(node.properties)) return node;
    const properties = node.properties;
    const kept = requiredList(node).filter((name) => Object.hasOwn(properties, name));
    if (kept.length === node.required.length) return node;
    const missing = node.required.filter((name) => !kept.includes(name as string));
    sink.add(
      'REQUIRED_NOT_DEFINED',
      `${pointer}`,
      `${pointer}/required`,
      `required listed ${missing.map((name) => JSON.stringify(name)).join(', ')}, not defined in properties; removed from required`,
    );
    return { ...node, required: kept };
  }
}

/**
 * `node`, an array schema without items, with string items and an `ARRAY_ITEMS_ADDED` report
 * at `pointer` (providers reject arrays without items, group files too).
 */
export function addStringItems(
  node: SchemaNode,
  pointer: string,
  sink: SchemaWarningSink | undefined,
): SchemaNode {
  sink?.add(
    'ARRAY_ITEMS_ADDED',
    'items',
    pointer,
    'an array without "items" was given string items (providers reject arrays without items); fix the element type if it is not a string',
  );
  return { ...node, items: { type: 'string' } };
}

/** `node` without a `minimum`/`maximum` that is only the safe-integer limit (Zod's `.int()`). */
function dropSafeIntegerBounds(node: SchemaNode): SchemaNode {
  if (declaredTypes(node)?.includes('integer') !== true) return node;
  let result = node;
  for (const [keyword, limit] of Object.entries(SAFE_INTEGER_BOUNDS)) {
    if (result[keyword] !== limit) continue;
    const { [keyword]: _bound, ...rest } = result;
    result = rest;
  }
  return result;
}

function isZodPatternFormat(format: string): boolean {
  return ZOD_PATTERN_FORMATS.has(format) || ZOD_HASH_FORMAT.test(format);
}

/** Pointers of property schemas and array item schemas (`…/properties/<name>`, `…/items`). */
const VALUE_POSITION = /\/(?:properties\/[^/]+|items)$/;
const UNION_KEYWORDS = ['anyOf', 'oneOf', 'allOf', '$ref'] as const;
/** Keywords that constrain a value without giving it a type. */
const LOGIC_KEYWORDS = ['not', 'if', 'then', 'else'];

/** The JSON types of `values`, `integer` folded into `number` when both occur. */
function typesOfValues(values: readonly unknown[]): string[] {
  const types = new Set(values.map(jsonTypeOf));
  if (types.has('number')) types.delete('integer');
  return [...types];
}
