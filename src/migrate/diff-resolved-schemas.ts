import { formatPointer, parsePointer } from '../format/json-pointer.js';
import { inlineRefs } from '../json-schema/inline-refs.js';
import { isPlainObject } from '../json-schema/schema-node.js';
import { type DiffSchemasOptions, diffSchemas, type SchemaChange } from './diff-schemas.js';

// stand-ins for the two documents' pointers while the resolved schemas are compared: they tell
// which side a change's pointer belongs to, which the real pointers (often equal) cannot
const OLD_SIDE = 'old:';
const NEW_SIDE = 'new:';

/**
 * `diffSchemas` on the schemas as they validate: every local `$ref` replaced by what it points
 * to (the inlining translation uses), so moving a schema into `$defs` behind a `$ref` is no
 * change and a change inside a `$defs` entry is reported at each parameter that uses it.
 * A change found inside an inlined `$ref` points at the `$ref` in the file. Recursive schemas
 * (which cannot be inlined completely) and schemas whose refs do not resolve are compared as
 * written.
 */
export function diffResolvedSchemas(
  oldSchema: unknown,
  newSchema: unknown,
  options: DiffSchemasOptions,
): SchemaChange[] {
  const oldResolved = resolveRefs(oldSchema);
  const newResolved = resolveRefs(newSchema);
  if (
    oldResolved === undefined ||
    newResolved === undefined ||
    (oldResolved === oldSchema && newResolved === newSchema)
  ) {
    return diffSchemas(oldSchema, newSchema, options);
  }
  const changes = diffSchemas(oldResolved, newResolved, {
    ...options,
    oldPointer: OLD_SIDE,
    newPointer: NEW_SIDE,
  });
  return changes.map((change) => {
    const old = change.pointer.startsWith(OLD_SIDE);
    const relative = change.pointer.slice((old ? OLD_SIDE : NEW_SIDE).length);
    const written = old ? oldSchema : newSchema;
    const base = old ? options.oldPointer : options.newPointer;
    return { ...change, pointer: `${base}${writtenPrefix(written, relative)}` };
  });
}

/**
 * The schema with its refs inlined; the schema itself when it has none; undefined when it
 * cannot be inlined completely (recursion, an unresolvable ref, an expansion too large).
 */
function resolveRefs(schema: unknown): unknown {
  if (!isPlainObject(schema)) return schema;
  let recursive = false;
  const sink = {
    add: () => {
      recursive = true;
    },
  };
  try {
    // one level is enough to detect recursion, and a recursive schema is compared as written
    const resolved = inlineRefs(schema, sink, { recursionDepth: 1 });
    return recursive ? undefined : resolved;
  } catch {
    return undefined;
  }
}

/**
 * The longest prefix of `pointer` that exists in the written schema: inside an inlined `$ref`,
 * the node holding the `$ref` (or the sibling keyword written next to it).
 */
function writtenPrefix(schema: unknown, pointer: string): string {
  const tokens = parsePointer(pointer);
  const kept: string[] = [];
  let node = schema;
  for (const token of tokens) {
    if (Array.isArray(node) && /^(0|[1-9]\d*)$/.test(token) && Number(token) < node.length) {
      node = node[Number(token)];
    } else if (isPlainObject(node) && Object.hasOwn(node, token)) {
      node = node[token];
    } else {
      break;
    }
    kept.push(token);
  }
  return formatPointer(kept);
}
