import {
  defineEntry,
  isPlainObject,
  jsonEqual,
  requiredList,
  type SchemaNode,
} from './schema-node.js';

const ANNOTATIONS = new Set(['description', 'title', '$comment', 'examples', 'default']);

/**
 * Merges `allOf` into its node when the branches do not conflict: `properties` are united
 * (a name defined twice must be defined identically), `required` is united, annotation keywords
 * keep their first value, and any other keyword must be absent or equal everywhere. Returns
 * the merged node without `allOf`, or undefined when the branches cannot be merged losslessly
 * (then a provider that rejects `allOf` has to fall back). Branches must already be free of `$ref`.
 */
export function mergeAllOf(node: SchemaNode): SchemaNode | undefined {
  if (!Array.isArray(node.allOf)) return node;
  const merged: SchemaNode = {};
  for (const [key, value] of Object.entries(node))
    if (key !== 'allOf') defineEntry(merged, key, value);
  for (const branch of node.allOf) {
    if (branch === true) continue;
    if (!isPlainObject(branch) || Object.hasOwn(branch, 'allOf')) return undefined;
    for (const [key, value] of Object.entries(branch)) {
      if (key === 'properties' && isPlainObject(value)) {
        const properties: SchemaNode = {};
        if (isPlainObject(merged.properties)) {
          for (const [name, child] of Object.entries(merged.properties))
            defineEntry(properties, name, child);
        }
        for (const [name, child] of Object.entries(value)) {
          if (Object.hasOwn(properties, name) && !jsonEqual(properties[name], child))
            return undefined;
          defineEntry(properties, name, child);
        }
        merged.properties = properties;
      } else if (key === 'required') {
        merged.required = [...new Set([...requiredList(merged), ...requiredList(branch)])];
      } else if (!Object.hasOwn(merged, key)) {
        defineEntry(merged, key, value);
      } else if (!ANNOTATIONS.has(key) && !jsonEqual(merged[key], value)) {
        return undefined;
      }
    }
  }
  return merged;
}
