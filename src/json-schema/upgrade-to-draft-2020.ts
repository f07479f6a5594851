import { mapSubschemas } from './map-subschemas.js';
import { DRAFT_2020_12_URI } from './schema-keywords.js';
import { defineEntry, isPlainObject, type SchemaNode } from './schema-node.js';
import type { SchemaWarningSink } from './schema-warnings.js';

const MAX_NESTING = 256;

/**
 * Rewrites the constructs that are valid in draft-04/06/07 but invalid or different in 2020-12,
 * which Anthropic validates against ("JSON schema is invalid. It must match JSON Schema draft
 * 2020-12"): tuple `items: [...]` → `prefixItems` (and `additionalItems` → `items`), boolean
 * `exclusiveMinimum`/`exclusiveMaximum` → numbers, `dependencies` → `dependentRequired` /
 * `dependentSchemas`. When anything changed, a declared older `$schema` becomes the 2020-12 URI.
 * Returns `schema` itself when nothing needed changing.
 */
export function upgradeToDraft2020(schema: SchemaNode, sink: SchemaWarningSink): SchemaNode {
  let changed = false;
  const upgraded = visit(schema, '', 0);
  if (!changed || !isPlainObject(upgraded)) return schema;
  if (typeof upgraded.$schema === 'string' && upgraded.$schema !== DRAFT_2020_12_URI) {
    upgraded.$schema = DRAFT_2020_12_URI;
  }
  return upgraded;

  function visit(node: unknown, pointer: string, depth: number): unknown {
    if (!isPlainObject(node) || depth > MAX_NESTING) return node;
    const mapped = mapSubschemas(node, pointer, (child, childPointer) =>
      visit(child, childPointer, depth + 1),
    );
    const fixed = upgradeNode(mapped, pointer);
    if (fixed !== node) changed = true;
    return fixed;
  }

  function upgradeNode(node: SchemaNode, pointer: string): SchemaNode {
    const tuple = Array.isArray(node.items);
    const booleanMinimum = typeof node.exclusiveMinimum === 'boolean';
    const booleanMaximum = typeof node.exclusiveMaximum === 'boolean';
    const dependencies = isPlainObject(node.dependencies);
    if (!tuple && !booleanMinimum && !booleanMaximum && !dependencies) return node;

    const result: SchemaNode = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'items' && tuple) {
        defineEntry(result, 'prefixItems', value);
        if (Object.hasOwn(node, 'additionalItems'))
          defineEntry(result, 'items', node.additionalItems);
      } else if (key === 'additionalItems' && tuple) {
        // moved to items above
      } else if (key === 'exclusiveMinimum' && booleanMinimum) {
        if (value === true && typeof node.minimum === 'number') {
          defineEntry(result, 'exclusiveMinimum', node.minimum);
        }
      } else if (key === 'minimum' && booleanMinimum && node.exclusiveMinimum === true) {
        // folded into exclusiveMinimum
      } else if (key === 'exclusiveMaximum' && booleanMaximum) {
        if (value === true && typeof node.maximum === 'number') {
          defineEntry(result, 'exclusiveMaximum', node.maximum);
        }
      } else if (key === 'maximum' && booleanMaximum && node.exclusiveMaximum === true) {
        // folded into exclusiveMaximum
      } else if (key === 'dependencies' && dependencies) {
        const required: SchemaNode = {};
        const schemas: SchemaNode = {};
        for (const [name, dependency] of Object.entries(value as SchemaNode)) {
          defineEntry(Array.isArray(dependency) ? required : schemas, name, dependency);
        }
        if (Object.keys(required).length > 0) defineEntry(result, 'dependentRequired', required);
        if (Object.keys(schemas).length > 0) defineEntry(result, 'dependentSchemas', schemas);
      } else {
        defineEntry(result, key, value);
      }
    }
    const what = [
      tuple ? 'tuple "items" → "prefixItems"' : '',
      booleanMinimum || booleanMaximum ? 'boolean exclusiveMinimum/exclusiveMaximum → numbers' : '',
      dependencies ? '"dependencies" → "dependentRequired"/"dependentSchemas"' : '',
    ].filter((text) => text !== '');
    for (const text of what) {
      sink.add(
        'SCHEMA_DIALECT_CONVERTED',
        text,
        pointer,
        `draft-04/07 construct rewritten for JSON Schema 2020-12: ${text}`,
      );
    }
    return result;
  }
}
