import type { Warning } from '../format/types.js';
import { declaredTypes, isPlainObject, requiredList } from '../json-schema/schema-node.js';

const MAX_DEPTH = 32;
const MAX_LISTED = 8;

/**
 * The `STRICT_SCHEMA_IMPORTED` warning for a tool in OpenAI strict mode (an OpenAI or Responses
 * payload with `"strict": true`, an Agents SDK tool), or undefined when its schema has no
 * property that is required and accepts null: only those can be optional parameters in the
 * strict form (strict mode requires every property), so only they need review. `subject` says
 * what the tool is (`"x" (export "tools") is an OpenAI Agents SDK tool in strict mode`).
 */
export function strictSchemaWarning(
  tool: string,
  subject: string,
  schema: unknown,
): Warning | undefined {
  const paths: string[] = [];
  collectNullableRequired(schema, '', paths, 0);
  if (paths.length === 0) return undefined;
  const listed =
    paths.length > MAX_LISTED
      ? `${paths.slice(0, MAX_LISTED).join(', ')} and ${paths.length - MAX_LISTED} more`
      : paths.join(', ');
  return {
    code: 'STRICT_SCHEMA_IMPORTED',
    tool,
    message: `${subject}: its parameters are the strict form, where every property is required and optional ones accept null (here: ${listed}), so models of other providers must send null for them or their calls are refused. Make the optional ones optional again in the group file: remove them from "required" and drop their null type (toolcap's OpenAI translation makes them strict again)`,
  };
}

/** Paths (`end`, `attendees[].note`) of the properties that are required and accept null. */
function collectNullableRequired(
  schema: unknown,
  prefix: string,
  paths: string[],
  depth: number,
): void {
  if (!isPlainObject(schema) || depth > MAX_DEPTH) return;
  if (isPlainObject(schema.properties)) {
    const required = new Set(requiredList(schema));
    for (const [name, property] of Object.entries(schema.properties)) {
      const path = prefix === '' ? name : `${prefix}.${name}`;
      if (required.has(name) && acceptsNull(property)) paths.push(path);
      collectNullableRequired(property, path, paths, depth + 1);
    }
  }
  if (isPlainObject(schema.items)) {
    collectNullableRequired(schema.items, `${prefix}[]`, paths, depth + 1);
  }
  for (const keyword of ['anyOf', 'oneOf'] as const) {
    const branches = schema[keyword];
    if (!Array.isArray(branches)) continue;
    // a nullable object (`anyOf: [{object}, {type: null}]`) holds its properties in a branch
    for (const branch of branches) collectNullableRequired(branch, prefix, paths, depth + 1);
  }
}

function acceptsNull(schema: unknown): boolean {
  if (!isPlainObject(schema)) return false;
  if (declaredTypes(schema)?.includes('null') === true || schema.nullable === true) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  return ['anyOf', 'oneOf'].some((keyword) => {
    const branches = schema[keyword];
    return Array.isArray(branches) && branches.some(acceptsNull);
  });
}
