/** Which JSON Schema keywords hold subschemas, and how. */

/** Keywords whose value maps names to schemas. */
export const SCHEMA_MAP_KEYWORDS: ReadonlySet<string> = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
]);

/** Keywords whose value is one schema. */
export const SCHEMA_VALUE_KEYWORDS: ReadonlySet<string> = new Set([
  'additionalProperties',
  'additionalItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'contains',
  'if',
  'then',
  'else',
  'not',
  'contentSchema',
]);

/** Keywords whose value is a list of schemas. */
export const SCHEMA_LIST_KEYWORDS: ReadonlySet<string> = new Set([
  'allOf',
  'anyOf',
  'oneOf',
  'prefixItems',
]);

/** 2020-12 URI of the dialect every translator emits. */
export const DRAFT_2020_12_URI = 'https://json-schema.org/draft/2020-12/schema';
