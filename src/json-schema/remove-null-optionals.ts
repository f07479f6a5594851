import { getAtPointer } from '../format/json-pointer.js';
import type { JsonSchema } from '../format/types.js';
import {
  declaredTypes,
  defineEntry,
  isPlainObject,
  requiredList,
  type SchemaNode,
} from './schema-node.js';

const MAX_NESTING = 128;

/**
 * Removes the `null`s a model sends for optional parameters, given the tool's ORIGINAL
 * `input_schema`: OpenAI strict mode makes every property required and optional ones nullable,
 * so "left out" arrives as `null`; after this a handler sees the parameter absent, as the
 * schema describes. Applies to nested objects (through `properties`, `items`, `prefixItems`,
 * `additionalProperties`, `allOf`, the best-matching `anyOf`/`oneOf` branch, and local
 * `$ref`s). A `null` is kept when the property is required or its schema itself allows null.
 * Pure: returns `input` itself when nothing changed, otherwise a copy; never mutates `input`.
 */
export function removeNullOptionals<T>(inputSchema: JsonSchema, input: T): T {
  return clean(inputSchema, input, inputSchema, 0) as T;
}

function clean(schema: unknown, value: unknown, root: JsonSchema, depth: number): unknown {
  if (value === null || typeof value !== 'object' || depth > MAX_NESTING) return value;
  const node = resolve(schema, root);
  if (node === undefined) return value;

  if (Array.isArray(value)) {
    const prefix = Array.isArray(node.prefixItems) ? node.prefixItems : [];
    const items = Array.isArray(node.items) ? undefined : node.items;
    let changed = false;
    const cleaned = value.map((element, index) => {
      const elementSchema = index < prefix.length ? prefix[index] : items;
      const result =
        elementSchema === undefined ? element : clean(elementSchema, element, root, depth + 1);
      if (result !== element) changed = true;
      return result;
    });
    return changed ? cleaned : value;
  }

  const object = value as Record<string, unknown>;
  const parts = applicableSchemas(node, object, root);
  const properties = new Map<string, unknown>();
  const required = new Set<string>();
  let additional: unknown;
  for (const part of parts) {
    if (isPlainObject(part.properties)) {
      for (const [name, child] of Object.entries(part.properties)) {
        if (!properties.has(name)) properties.set(name, child);
      }
    }
    for (const name of requiredList(part)) required.add(name);
    if (additional === undefined && isPlainObject(part.additionalProperties)) {
      additional = part.additionalProperties;
    }
  }

  let result: Record<string, unknown> | undefined;
  const ensureCopy = (upTo: string) => {
    if (result !== undefined) return result;
    result = {};
    for (const [key, entry] of Object.entries(object)) {
      if (key === upTo) break;
      defineEntry(result, key, entry);
    }
    return result;
  };
  for (const [key, entry] of Object.entries(object)) {
    const declared = properties.has(key);
    const propertySchema = declared ? properties.get(key) : additional;
    if (entry === null && declared && !required.has(key) && !allowsNull(propertySchema, root, 0)) {
      ensureCopy(key);
      continue;
    }
    const cleaned =
      propertySchema === undefined ? entry : clean(propertySchema, entry, root, depth + 1);
    if (cleaned !== entry) ensureCopy(key);
    if (result !== undefined) defineEntry(result, key, cleaned);
  }
  return result ?? value;
}

/** The node, its `allOf` branches, and the `anyOf`/`oneOf` branch that best fits `value`. */
function applicableSchemas(
  node: SchemaNode,
  value: Record<string, unknown>,
  root: JsonSchema,
): SchemaNode[] {
  const parts: SchemaNode[] = [node];
  if (Array.isArray(node.allOf)) {
    for (const branch of node.allOf) {
      const resolved = resolve(branch, root);
      if (resolved !== undefined) parts.push(...applicableSchemas(resolved, value, root));
    }
  }
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = node[keyword];
    if (!Array.isArray(branches)) continue;
    const best = bestBranch(branches, value, root);
    if (best !== undefined) parts.push(...applicableSchemas(best, value, root));
  }
  return parts;
}

/** The object branch whose properties cover the most of the value's non-null keys. */
function bestBranch(
  branches: unknown[],
  value: Record<string, unknown>,
  root: JsonSchema,
): SchemaNode | undefined {
  const present = Object.keys(value).filter((key) => value[key] !== null);
  let best: SchemaNode | undefined;
  let bestScore = -1;
  for (const branch of branches) {
    const resolved = resolve(branch, root);
    if (resolved === undefined || !isPlainObject(resolved.properties)) continue;
    const properties = resolved.properties;
    const score = present.filter((key) => Object.hasOwn(properties, key)).length;
    if (score > bestScore) {
      best = resolved;
      bestScore = score;
    }
  }
  return best;
}

/** Whether `schema` accepts null (a null sent for it is a value, not an absence). */
function allowsNull(schema: unknown, root: JsonSchema, depth: number): boolean {
  if (schema === undefined || schema === true || depth > MAX_NESTING) return true;
  const node = resolve(schema, root);
  if (node === undefined) return false;
  if (Object.keys(node).length === 0) return true;
  if (declaredTypes(node)?.includes('null') === true || node.nullable === true) return true;
  if (Array.isArray(node.enum)) return node.enum.includes(null);
  if (Object.hasOwn(node, 'const')) return node.const === null;
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = node[keyword];
    if (Array.isArray(branches) && branches.some((branch) => allowsNull(branch, root, depth + 1)))
      return true;
  }
  if (Array.isArray(node.allOf)) {
    return (
      node.allOf.every((branch) => allowsNull(branch, root, depth + 1)) && node.type === undefined
    );
  }
  return (
    node.type === undefined &&
    !Array.isArray(node.anyOf) &&
    !Array.isArray(node.oneOf) &&
    typeof node.$ref !== 'string'
  );
}

/** Follows local `$ref`s (a bounded number of hops) to an object schema. */
function resolve(schema: unknown, root: JsonSchema): SchemaNode | undefined {
  let current = schema;
  for (let hops = 0; hops < 32; hops++) {
    if (!isPlainObject(current)) return undefined;
    if (typeof current.$ref !== 'string' || !current.$ref.startsWith('#')) return current;
    const fragment = current.$ref.slice(1);
    let pointer = fragment;
    try {
      pointer = decodeURIComponent(fragment);
    } catch {
      // keep it as written
    }
    const target =
      pointer === '' || pointer.startsWith('/') ? getAtPointer(root, pointer) : undefined;
    if (!isPlainObject(target)) return undefined;
    // siblings of the $ref (description, default) do not change what null means; follow the target
    current = target;
  }
  return undefined;
}
