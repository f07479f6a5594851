import { formatPointer } from '../../format/json-pointer.js';
import { DEFAULT_LOAD_LIMITS } from '../../format/limits.js';
import type { JsonSchema } from '../../format/types.js';
import { measureAndFreeze } from '../../json-schema/check-schema.js';
import { defineEntry, isPlainObject } from '../../json-schema/schema-node.js';

/**
 * The input schema the gateway lists for an upstream tool and checks its calls against: the
 * server's own, never narrowed. Only what MCP clients require of the root is adjusted, without
 * changing what the schema accepts (tool arguments are always an object): a root without a type,
 * or whose type list includes "object", gets `"type": "object"`; a boolean property schema
 * becomes its object form (`true` → `{}`, `false` → `{"not": {}}`); `properties` that is not an
 * object is left out, and a `required` that is not a list of strings keeps its strings only
 * (neither is valid JSON Schema). A property schema that is neither an object nor a boolean
 * (`null`, a number, a string: no schema at all, and MCP clients reject the whole list) becomes
 * `{}`, any value, reported through `onRepair` with its JSON pointer since it is a guess. A tool
 * listed without a schema object gets `{type: "object", properties: {}}`. Undefined when the schema cannot be served: its root type
 * excludes objects, or it is deeper or larger than the loader's default limits (what protects
 * every schema the gateway holds). Returns a frozen copy: what sessions receive cannot change
 * later checks.
 */
export function servedInputSchema(
  listed: unknown,
  onRepair?: (pointer: string, problem: string) => void,
): JsonSchema | undefined {
  if (!isPlainObject(listed)) return freeze({ type: 'object', properties: {} });
  const type = listed.type;
  if (
    type !== undefined &&
    type !== 'object' &&
    !(Array.isArray(type) && type.includes('object'))
  ) {
    return undefined;
  }
  let copy: JsonSchema;
  try {
    copy = structuredClone(listed);
  } catch {
    // nested too deep to copy: far past the depth limit
    return undefined;
  }
  if (type !== 'object') copy.type = 'object';
  // the MCP SDK's clients reject a whole tools/list when one tool's root "properties" is not an
  // object of objects or its "required" not a list of strings; neither is valid JSON Schema
  const properties = copy.properties;
  if (isPlainObject(properties)) {
    for (const [name, value] of Object.entries(properties)) {
      if (typeof value === 'boolean') defineEntry(properties, name, value ? {} : { not: {} });
      else if (value === null || typeof value !== 'object') {
        // never narrowed: the gateway cannot know what the server meant, so it checks nothing
        defineEntry(properties, name, {});
        onRepair?.(
          formatPointer(['properties', name]),
          `is ${value === null ? 'null' : `a ${typeof value}`}, not a schema; it is listed as {} (any value)`,
        );
      }
    }
  } else if (Object.hasOwn(copy, 'properties')) {
    delete copy.properties;
  }
  if (Object.hasOwn(copy, 'required')) {
    const required = copy.required;
    if (!Array.isArray(required)) delete copy.required;
    else copy.required = required.filter((name) => typeof name === 'string');
  }
  return freeze(copy);
}

function freeze(schema: JsonSchema): JsonSchema | undefined {
  return measureAndFreeze(schema, DEFAULT_LOAD_LIMITS) === undefined ? schema : undefined;
}
