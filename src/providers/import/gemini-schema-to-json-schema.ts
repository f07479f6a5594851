import { defineEntry, isPlainObject, type SchemaNode } from '../../json-schema/schema-node.js';

const INT64_KEYWORDS = new Set([
  'minItems',
  'maxItems',
  'minLength',
  'maxLength',
  'minProperties',
  'maxProperties',
]);
const MAX_NESTING = 256;

/**
 * Converts a Gemini `parameters` Schema (OpenAPI 3.0 subset) back to JSON Schema: type names
 * lower-cased, `nullable: true` → a `"null"` type (or a `{type: "null"}` branch beside
 * `anyOf`), int64 strings → numbers, `format: "enum"` and `propertyOrdering` dropped,
 * `example` → `examples`.
 */
export function geminiSchemaToJsonSchema(schema: unknown, depth = 0): unknown {
  if (!isPlainObject(schema) || depth > MAX_NESTING) return schema;
  const result: SchemaNode = {};
  const nullable = schema.nullable === true;
  for (const [key, value] of Object.entries(schema)) {
    switch (key) {
      case 'type': {
        const type = typeof value === 'string' ? value.toLowerCase() : value;
        if (type === 'type_unspecified') break;
        result.type =
          nullable && typeof type === 'string' && type !== 'null' ? [type, 'null'] : type;
        break;
      }
      case 'nullable':
      case 'propertyOrdering':
        break;
      case 'format':
        if (value !== 'enum') result.format = value;
        break;
      case 'example':
        result.examples = [value];
        break;
      case 'items':
        result.items = geminiSchemaToJsonSchema(value, depth + 1);
        break;
      case 'anyOf':
        result.anyOf = Array.isArray(value)
          ? value.map((branch) => geminiSchemaToJsonSchema(branch, depth + 1))
          : value;
        break;
      case 'properties':
        if (isPlainObject(value)) {
          const properties: SchemaNode = {};
          for (const [name, child] of Object.entries(value)) {
            defineEntry(properties, name, geminiSchemaToJsonSchema(child, depth + 1));
          }
          result.properties = properties;
        }
        break;
      default:
        if (INT64_KEYWORDS.has(key) && typeof value === 'string' && /^\d+$/.test(value)) {
          defineEntry(result, key, Number(value));
        } else {
          defineEntry(result, key, value);
        }
    }
  }
  if (nullable && Array.isArray(result.anyOf) && !Object.hasOwn(result, 'type')) {
    result.anyOf = [...result.anyOf, { type: 'null' }];
  }
  if (nullable && Array.isArray(result.enum)) result.enum = [...result.enum, null];
  return result;
}
