import { TranslationError } from '../errors/translation-error.js';
import { escapePointerToken, getAtPointer } from '../format/json-pointer.js';
import {
  SCHEMA_LIST_KEYWORDS,
  SCHEMA_MAP_KEYWORDS,
  SCHEMA_VALUE_KEYWORDS,
} from './schema-keywords.js';
import { defineEntry, isPlainObject, requiredList, type SchemaNode } from './schema-node.js';
import type { SchemaWarningSink } from './schema-warnings.js';

/** Options of `inlineRefs`. */
export interface InlineRefsOptions {
  /** How many times one recursive target may be expanded inside itself. Default 3. */
  recursionDepth?: number;
  /** Most schema nodes the expansion may produce before it is refused. Default 50,000. */
  maxNodes?: number;
}

const TRUNCATED: unique symbol = Symbol('truncated');
type Expanded = unknown | typeof TRUNCATED;

const MAX_NESTING = 256;
const DROPPED_KEYWORDS = new Set(['$defs', 'definitions', '$anchor', '$dynamicAnchor', '$id']);

/**
 * Replaces every local `$ref` (`#`, `#/json/pointer`, `#anchor`) with the schema it points to,
 * so providers that reject `$ref`, `$defs` or `$ref` siblings get a self-contained schema.
 * Sibling keywords of a `$ref` win over the target's (`required` and `properties` are merged).
 * A recursive reference is expanded `recursionDepth` times; after that the property (or
 * `anyOf` branch, or array) that recursed is dropped and a `RECURSIVE_SCHEMA_UNROLLED` warning
 * is reported. Returns `schema` itself when it holds no `$ref` and no `$defs`.
 * Throws `TranslationError` (`UNRESOLVABLE_REF`, `SCHEMA_TOO_COMPLEX`) for refs that cannot be
 * resolved and expansions that explode.
 */
export function inlineRefs(
  schema: SchemaNode,
  sink: SchemaWarningSink,
  options: InlineRefsOptions = {},
): SchemaNode {
  if (!needsInlining(schema, 0)) return schema;
  const recursionDepth = options.recursionDepth ?? 3;
  const maxNodes = options.maxNodes ?? 50_000;
  const anchors = collectAnchors(schema);
  let nodes = 0;

  const expanded = expand(schema, '', []);
  if (expanded === TRUNCATED || !isPlainObject(expanded)) {
    throw new TranslationError(
      'UNRESOLVABLE_REF',
      'the input schema refers to itself at the root ("$ref": "#" with nothing else); give the root its own properties',
    );
  }
  return expanded;

  function expand(node: unknown, pointer: string, stack: readonly string[]): Expanded {
    if (!isPlainObject(node)) return node;
    nodes++;
    if (nodes > maxNodes || stack.length > MAX_NESTING) {
      throw new TranslationError(
        'SCHEMA_TOO_COMPLEX',
        `expanding the $refs of this schema produces more than ${maxNodes} nodes (or nests deeper than ${MAX_NESTING}); simplify the shared definitions`,
        { pointer },
      );
    }
    if (typeof node.$ref !== 'string') return expandChildren(node, pointer, stack);

    const ref = node.$ref;
    const { target, key } = resolveRef(ref, pointer);
    const seen = stack.filter((entry) => entry === key).length;
    if (seen >= recursionDepth) {
      sink.add(
        'RECURSIVE_SCHEMA_UNROLLED',
        key,
        pointer,
        `recursive "$ref": "${ref}" was expanded ${recursionDepth} levels deep, then the recursive part was dropped (the provider does not accept recursion here; raise recursionDepth, --recursion-depth in toolcap translate, for deeper structures)`,
      );
      return TRUNCATED;
    }
    const resolved = expand(target, pointer, [...stack, key]);
    if (resolved === TRUNCATED) return TRUNCATED;
    const siblings: SchemaNode = {};
    for (const [name, value] of Object.entries(node)) {
      if (name !== '$ref') defineEntry(siblings, name, value);
    }
    if (Object.keys(siblings).length === 0) return resolved;
    const expandedSiblings = expandChildren(siblings, pointer, stack);
    if (expandedSiblings === TRUNCATED) return TRUNCATED;
    return mergeRefSiblings(resolved, expandedSiblings as SchemaNode);
  }

  function expandChildren(node: SchemaNode, pointer: string, stack: readonly string[]): Expanded {
    const result: SchemaNode = {};
    const droppedProperties: string[] = [];
    for (const [keyword, value] of Object.entries(node)) {
      if (DROPPED_KEYWORDS.has(keyword)) continue;
      const keywordPointer = `${pointer}/${escapePointerToken(keyword)}`;
      if (SCHEMA_MAP_KEYWORDS.has(keyword) && isPlainObject(value)) {
        const map: SchemaNode = {};
        for (const [name, child] of Object.entries(value)) {
          const expandedChild = expand(
            child,
            `${keywordPointer}/${escapePointerToken(name)}`,
            stack,
          );
          if (expandedChild === TRUNCATED) {
            if (keyword === 'properties') droppedProperties.push(name);
            continue;
          }
          defineEntry(map, name, expandedChild);
        }
        defineEntry(result, keyword, map);
      } else if (keyword === 'dependencies' && isPlainObject(value)) {
        const map: SchemaNode = {};
        for (const [name, child] of Object.entries(value)) {
          const expandedChild = Array.isArray(child)
            ? child
            : expand(child, `${keywordPointer}/${escapePointerToken(name)}`, stack);
          if (expandedChild !== TRUNCATED) defineEntry(map, name, expandedChild);
        }
        defineEntry(result, keyword, map);
      } else if (SCHEMA_VALUE_KEYWORDS.has(keyword)) {
        const expandedChild = expand(value, keywordPointer, stack);
        // a recursive constraint that cannot be expanded further is dropped, not enforced
        if (expandedChild !== TRUNCATED) defineEntry(result, keyword, expandedChild);
      } else if (keyword === 'items' && !Array.isArray(value)) {
        const expandedChild = expand(value, keywordPointer, stack);
        // an array whose elements cannot be described any deeper is dropped with its property
        if (expandedChild === TRUNCATED) return TRUNCATED;
        defineEntry(result, keyword, expandedChild);
      } else if (
        (SCHEMA_LIST_KEYWORDS.has(keyword) || keyword === 'items') &&
        Array.isArray(value)
      ) {
        const branches: unknown[] = [];
        for (const [index, child] of value.entries()) {
          const expandedChild = expand(child, `${keywordPointer}/${index}`, stack);
          if (expandedChild === TRUNCATED) {
            if (keyword === 'anyOf' || keyword === 'oneOf') continue;
            return TRUNCATED;
          }
          branches.push(expandedChild);
        }
        if (branches.length === 0) return TRUNCATED;
        defineEntry(result, keyword, branches);
      } else {
        defineEntry(result, keyword, value);
      }
    }
    if (droppedProperties.length > 0 && Array.isArray(result.required)) {
      result.required = requiredList(result).filter((name) => !droppedProperties.includes(name));
    }
    return result;
  }

  function resolveRef(ref: string, pointer: string): { target: unknown; key: string } {
    if (!ref.startsWith('#')) {
      throw new TranslationError(
        'UNRESOLVABLE_REF',
        `"$ref": "${ref}" at ${pointer || 'the root'} points outside the schema; only local refs ("#/$defs/name") can be translated`,
        { pointer },
      );
    }
    const fragment = safeDecode(ref.slice(1));
    if (fragment === '' || fragment.startsWith('/')) {
      const target = getAtPointer(schema, fragment);
      if (isPlainObject(target) || typeof target === 'boolean') return { target, key: fragment };
    } else {
      const anchor = anchors.get(fragment);
      if (anchor !== undefined) return { target: anchor.node, key: anchor.pointer };
    }
    throw new TranslationError(
      'UNRESOLVABLE_REF',
      `"$ref": "${ref}" at ${pointer || 'the root'} does not resolve to a schema inside this input schema; define it under "$defs" or fix the path`,
      { pointer },
    );
  }
}

/** Merges a `$ref` target with the keywords written beside the `$ref`. */
function mergeRefSiblings(target: unknown, siblings: SchemaNode): unknown {
  if (target === true) return siblings;
  if (!isPlainObject(target)) return target;
  const merged: SchemaNode = {};
  for (const [key, value] of Object.entries(target)) defineEntry(merged, key, value);
  for (const [key, value] of Object.entries(siblings)) {
    if (key === 'required' && Array.isArray(merged.required)) {
      merged.required = [...new Set([...requiredList(merged), ...requiredList(siblings)])];
    } else if (key === 'properties' && isPlainObject(merged.properties) && isPlainObject(value)) {
      const properties: SchemaNode = {};
      for (const [name, child] of Object.entries(merged.properties))
        defineEntry(properties, name, child);
      for (const [name, child] of Object.entries(value)) defineEntry(properties, name, child);
      merged.properties = properties;
    } else {
      defineEntry(merged, key, value);
    }
  }
  return merged;
}

/** Whether anything under `node` is a `$ref`, `$defs` or `definitions`. */
function needsInlining(node: unknown, depth: number): boolean {
  if (depth > MAX_NESTING) return true;
  if (Array.isArray(node)) return node.some((entry) => needsInlining(entry, depth + 1));
  if (!isPlainObject(node)) return false;
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' || key === '$defs' || key === 'definitions') return true;
    if (typeof value === 'object' && value !== null && needsInlining(value, depth + 1)) return true;
  }
  return false;
}

/** `$anchor` names to the node declaring them and its pointer. */
function collectAnchors(schema: SchemaNode): Map<string, { node: SchemaNode; pointer: string }> {
  const anchors = new Map<string, { node: SchemaNode; pointer: string }>();
  const visit = (node: unknown, pointer: string, depth: number): void => {
    if (depth > MAX_NESTING) return;
    if (Array.isArray(node)) {
      node.forEach((entry, index) => {
        visit(entry, `${pointer}/${index}`, depth + 1);
      });
      return;
    }
    if (!isPlainObject(node)) return;
    if (typeof node.$anchor === 'string' && !anchors.has(node.$anchor)) {
      anchors.set(node.$anchor, { node, pointer });
    }
    for (const [key, value] of Object.entries(node)) {
      if (typeof value === 'object' && value !== null) {
        visit(value, `${pointer}/${escapePointerToken(key)}`, depth + 1);
      }
    }
  };
  visit(schema, '', 0);
  return anchors;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
