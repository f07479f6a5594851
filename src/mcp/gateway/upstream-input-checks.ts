import { type InputValidation, validateToolInput } from '../../execute/validate-tool-input.js';
import { DEFAULT_LOAD_LIMITS } from '../../format/limits.js';
import type { JsonSchema, RegisteredTool } from '../../format/types.js';
import { checkSchema, type SchemaProblem, schemaDialect } from '../../json-schema/check-schema.js';
import { compileSchema } from '../../json-schema/compile-schema.js';

/**
 * Checks calls of upstream tools against the input schema the gateway lists for them (the
 * server's own), compiled on a tool's first call. What it cannot check faithfully is forwarded
 * as it is, for the server to check: a schema that declares a dialect other than 2020-12 and
 * draft-07 (draft-04, 2019-09), one with a `$ref` loop (see `findInputRefCycles`), or one ajv
 * cannot compile (a `$ref` to another document, a keyword with a value of the wrong kind). Such
 * schemas are remembered, never compiled again.
 */
export class UpstreamInputChecks {
  /** Whether each schema seen so far can be checked: decided once, on its first call. */
  readonly #checkable = new WeakMap<JsonSchema, boolean>();

  /** The arguments to forward, or why they do not fit the schema. */
  check(tool: RegisteredTool, schema: JsonSchema, input: unknown): InputValidation {
    let checkable = this.#checkable.get(schema);
    if (checkable === undefined) {
      checkable = compiles(schema);
      this.#checkable.set(schema, checkable);
    }
    if (!checkable) return { ok: true, input: (input ?? {}) as Record<string, unknown> };
    return validateToolInput(tool, input, schema);
  }
}

/**
 * The `$ref` loops of an upstream input schema (the loader's `REF_CYCLE` rule): a `$ref` that
 * comes back to where it started through `$ref`s, with or without sibling keywords, and
 * `allOf`/`anyOf`/`oneOf`/`not`/`if`, without reaching a part of the value. ajv overflows the
 * stack on such a schema, when it compiles it or on every call, so the gateway never compiles
 * one. Recursion through `properties` or `items` (a tree whose `children` are nodes) is no loop.
 * `schema` must have passed `measureAndFreeze` (as every schema the gateway serves has).
 */
export function findInputRefCycles(schema: JsonSchema): SchemaProblem[] {
  return checkSchema(schema, DEFAULT_LOAD_LIMITS).filter((problem) => problem.code === 'REF_CYCLE');
}

function compiles(schema: JsonSchema): boolean {
  if (schemaDialect(schema) === undefined) return false;
  if (findInputRefCycles(schema).length > 0) return false;
  try {
    compileSchema(schema);
    return true;
  } catch {
    return false;
  }
}
