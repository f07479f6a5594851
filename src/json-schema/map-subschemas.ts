import { escapePointerToken } from '../format/json-pointer.js';
import {
  SCHEMA_LIST_KEYWORDS,
  SCHEMA_MAP_KEYWORDS,
  SCHEMA_VALUE_KEYWORDS,
} from './schema-keywords.js';
import { defineEntry, isPlainObject, type SchemaNode } from './schema-node.js';

/**
 * Calls `visit` on every direct subschema of `node` (under properties, items, anyOf, $defs, ...)
 * and returns a node holding the results. Returns `node` itself when every child came back
 * unchanged, so untouched schemas keep their identity (and cost no allocation).
 */
export function mapSubschemas(
  node: SchemaNode,
  pointer: string,
  visit: (child: unknown, pointer: string) => unknown,
): SchemaNode {
  let result: SchemaNode | undefined;
  const set = (keyword: string, value: unknown) => {
    if (result === undefined) {
      result = {};
      for (const [key, existing] of Object.entries(node)) defineEntry(result, key, existing);
    }
    defineEntry(result, keyword, value);
  };
  for (const [keyword, value] of Object.entries(node)) {
    const keywordPointer = `${pointer}/${escapePointerToken(keyword)}`;
    if ((SCHEMA_MAP_KEYWORDS.has(keyword) || keyword === 'dependencies') && isPlainObject(value)) {
      let changed = false;
      const map: SchemaNode = {};
      for (const [name, child] of Object.entries(value)) {
        const mapped =
          keyword === 'dependencies' && Array.isArray(child)
            ? child
            : visit(child, `${keywordPointer}/${escapePointerToken(name)}`);
        if (mapped !== child) changed = true;
        defineEntry(map, name, mapped);
      }
      if (changed) set(keyword, map);
    } else if ((SCHEMA_LIST_KEYWORDS.has(keyword) || keyword === 'items') && Array.isArray(value)) {
      let changed = false;
      const list = value.map((child, index) => {
        const mapped = visit(child, `${keywordPointer}/${index}`);
        if (mapped !== child) changed = true;
        return mapped;
      });
      if (changed) set(keyword, list);
    } else if (SCHEMA_VALUE_KEYWORDS.has(keyword) || keyword === 'items') {
      const mapped = visit(value, keywordPointer);
      if (mapped !== value) set(keyword, mapped);
    }
  }
  return result ?? node;
}
