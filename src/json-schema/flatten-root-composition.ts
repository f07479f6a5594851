import { TranslationError } from '../errors/translation-error.js';
import { getAtPointer } from '../format/json-pointer.js';
import {
  appendNotes,
  declaredTypes,
  defineEntry,
  describeValue,
  isPlainObject,
  jsonEqual,
  requiredList,
  type SchemaNode,
} from './schema-node.js';
import type { SchemaWarningSink } from './schema-warnings.js';

const UNION_KEYWORDS = ['anyOf', 'oneOf'] as const;
const DESCRIBED_KEYWORDS = ['not', 'if', 'then', 'else'] as const;
const DROPPED_KEYWORDS = ['enum', 'const'] as const;

/**
 * Makes the root a plain `type: "object"` with `properties`, as OpenAI, Anthropic, Bedrock and
 * Vertex require ("input_schema does not support oneOf, allOf, or anyOf at the top level").
 * A root `allOf` is merged; a root `anyOf`/`oneOf` is merged into one object whose required
 * parameters are those every alternative requires, and the alternatives are named in the root
 * description; root `not`/`if`/`then`/`else` move into the description; root `enum`/`const`
 * are dropped. Each change is a warning. Returns `schema` itself when the root is already plain.
 * Throws `TranslationError` (`INVALID_INPUT_SCHEMA`) when the root cannot be an object.
 */
export function flattenRootComposition(schema: SchemaNode, sink: SchemaWarningSink): SchemaNode {
  const types = declaredTypes(schema);
  const plain =
    schema.type === 'object' &&
    isPlainObject(schema.properties) &&
    !['allOf', ...UNION_KEYWORDS, ...DESCRIBED_KEYWORDS, ...DROPPED_KEYWORDS].some((keyword) =>
      Object.hasOwn(schema, keyword),
    );
  if (plain) return schema;
  if (types !== undefined && !types.includes('object')) {
    throw new TranslationError(
      'INVALID_INPUT_SCHEMA',
      `the input schema's root has type ${JSON.stringify(schema.type)}; tool arguments are always a JSON object, so the root must be {"type": "object", "properties": {...}}`,
      { pointer: '/type' },
    );
  }

  const properties: SchemaNode = {};
  if (isPlainObject(schema.properties)) {
    for (const [name, child] of Object.entries(schema.properties))
      defineEntry(properties, name, child);
  }
  const required = new Set(requiredList(schema));
  const notes: string[] = [];

  const mergeProperties = (branch: SchemaNode, pointer: string) => {
    if (!isPlainObject(branch.properties)) return;
    for (const [name, child] of Object.entries(branch.properties)) {
      if (!Object.hasOwn(properties, name)) defineEntry(properties, name, child);
      else if (!jsonEqual(properties[name], child)) {
        sink.add(
          'ROOT_COMPOSITION_FLATTENED',
          `conflict:${name}`,
          pointer,
          `property "${name}" is defined differently by several top-level alternatives; the first definition is kept`,
        );
      }
    }
  };

  if (Array.isArray(schema.allOf)) {
    schema.allOf.forEach((entry, index) => {
      const branch = resolveBranch(schema, entry);
      mergeProperties(branch, `/allOf/${index}`);
      for (const name of requiredList(branch)) required.add(name);
    });
    sink.add(
      'ROOT_COMPOSITION_FLATTENED',
      'allOf',
      '/allOf',
      'top-level "allOf" is not accepted by this provider; its schemas were merged into the root object',
    );
  }

  for (const keyword of UNION_KEYWORDS) {
    const branches = schema[keyword];
    if (!Array.isArray(branches)) continue;
    const resolved = branches.map((entry) => resolveBranch(schema, entry));
    resolved.forEach((branch, index) => {
      mergeProperties(branch, `/${keyword}/${index}`);
    });
    let common: Set<string> | undefined;
    for (const branch of resolved) {
      const names = new Set(requiredList(branch));
      common =
        common === undefined ? names : new Set([...common].filter((name) => names.has(name)));
    }
    for (const name of common ?? []) required.add(name);
    const alternatives = resolved
      .map((branch) => {
        const names = requiredList(branch);
        const listed =
          names.length > 0
            ? names
            : isPlainObject(branch.properties)
              ? Object.keys(branch.properties)
              : [];
        return `(${listed.join(', ')})`;
      })
      .filter((text) => text !== '()');
    if (alternatives.length > 0) {
      notes.push(
        `${keyword === 'oneOf' ? 'exactly one' : 'at least one'} of these parameter sets: ${alternatives.join(' | ')}`,
      );
    }
    sink.add(
      'ROOT_COMPOSITION_FLATTENED',
      keyword,
      `/${keyword}`,
      `top-level "${keyword}" is not accepted by this provider; its ${branches.length} alternatives were merged into one object (only parameters every alternative requires stay required; the alternatives are listed in the schema description)`,
    );
  }

  for (const keyword of DESCRIBED_KEYWORDS) {
    if (!Object.hasOwn(schema, keyword)) continue;
    notes.push(`${keyword}: ${describeValue(schema[keyword])}`);
    sink.add(
      'ROOT_KEYWORD_MOVED_TO_DESCRIPTION',
      keyword,
      `/${keyword}`,
      `top-level "${keyword}" is not accepted by this provider; it was moved into the schema description`,
    );
  }
  for (const keyword of DROPPED_KEYWORDS) {
    if (!Object.hasOwn(schema, keyword)) continue;
    sink.add(
      'ROOT_KEYWORD_DROPPED',
      keyword,
      `/${keyword}`,
      `top-level "${keyword}" cannot apply to an arguments object and was dropped`,
    );
  }
  if (schema.type !== 'object') {
    sink.add(
      'ROOT_TYPE_SET',
      'type',
      '',
      `the root had type ${JSON.stringify(schema.type ?? null)}; it is now "object" (tool arguments are always an object)`,
    );
  }

  const flattened: SchemaNode = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'allOf' || (UNION_KEYWORDS as readonly string[]).includes(key)) continue;
    if ((DESCRIBED_KEYWORDS as readonly string[]).includes(key)) continue;
    if ((DROPPED_KEYWORDS as readonly string[]).includes(key)) continue;
    if (key === 'type' || key === 'properties' || key === 'required') continue;
    defineEntry(flattened, key, value);
  }
  const ordered: SchemaNode = { type: 'object' };
  if (notes.length > 0) flattened.description = appendNotes(flattened.description, notes);
  for (const [key, value] of Object.entries(flattened)) defineEntry(ordered, key, value);
  ordered.properties = properties;
  const requiredNames = [...required].filter((name) => Object.hasOwn(properties, name));
  if (requiredNames.length > 0 || Array.isArray(schema.required)) ordered.required = requiredNames;
  return ordered;
}

/** A root composition branch, following one local `$ref`. */
function resolveBranch(root: SchemaNode, branch: unknown): SchemaNode {
  if (!isPlainObject(branch)) return {};
  if (typeof branch.$ref === 'string' && branch.$ref.startsWith('#/')) {
    const target = getAtPointer(root, safeDecode(branch.$ref.slice(1)));
    if (isPlainObject(target)) return { ...target, ...withoutRef(branch) };
  }
  return branch;
}

function withoutRef(node: SchemaNode): SchemaNode {
  const rest: SchemaNode = {};
  for (const [key, value] of Object.entries(node))
    if (key !== '$ref') defineEntry(rest, key, value);
  return rest;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
