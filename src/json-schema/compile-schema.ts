import { createRequire } from 'node:module';
import type { Ajv as AjvInstance, ErrorObject, Options, ValidateFunction } from 'ajv';
import { getAtPointer } from '../format/json-pointer.js';
import type { JsonSchema } from '../format/types.js';
import { schemaDialect } from './check-schema.js';
import {
  estimateBacktrackingDegree,
  findCatastrophicBacktracking,
} from './find-catastrophic-backtracking.js';
import { focusUnionErrors } from './focus-union-errors.js';

const require = createRequire(import.meta.url);

/** One reason a value failed a schema. */
export interface SchemaIssue {
  /** JSON Pointer to the offending value inside the validated data (`""` for the root). */
  pointer: string;
  /** The ajv keyword that failed (`type`, `required`, `pattern`, ...). */
  keyword: string;
  /** Plain-language description that names the field and what it should be. */
  message: string;
}

/** The result of validating one value. */
export type SchemaValidationResult = { valid: true } | { valid: false; issues: SchemaIssue[] };

/**
 * A compiled, reusable validator. `subject` names the validated value in messages about its
 * root (default `"input"`: "input must be object"; `"output"` for a tool's result).
 */
export type CompiledSchema = (data: unknown, subject?: string) => SchemaValidationResult;

/**
 * Longest string matched against a `pattern` (or a `patternProperties` key), in characters. A
 * longer string fails the pattern without reaching the regex engine. Patterns whose
 * backtracking is polynomial get a lower bound (see `patternInputLimit`).
 */
export const MAX_PATTERN_INPUT_LENGTH = 10_000;

/** Backtracking steps one pattern test may cost (a few tenths of a second at most in V8). */
const PATTERN_STEP_BUDGET = 2e7;
const inputLimits = new Map<string, number>();

/**
 * The longest string matched against `pattern`: `MAX_PATTERN_INPUT_LENGTH`, lowered so that
 * n^degree stays within the step budget. `\\d+\\d+x` (unanchored, degree 3) takes six minutes
 * on 10,000 digits; it is limited to 271 characters.
 */
export function patternInputLimit(pattern: string): number {
  let limit = inputLimits.get(pattern);
  if (limit === undefined) {
    const degree = estimateBacktrackingDegree(pattern);
    limit = Math.min(MAX_PATTERN_INPUT_LENGTH, Math.floor(PATTERN_STEP_BUDGET ** (1 / degree)));
    if (inputLimits.size < 10_000) inputLimits.set(pattern, limit);
  }
  return limit;
}

/**
 * ajv's RegExp factory: refuses patterns that can backtrack exponentially (the loader reports
 * them as INVALID_PATTERN; this catches schemas that reach `compileSchema` another way), and
 * never runs a regex on a string longer than `MAX_PATTERN_INPUT_LENGTH`.
 */
const boundedRegExp: RegExpEngine = Object.assign(
  (pattern: string, flags: string) => {
    const risk = findCatastrophicBacktracking(pattern);
    if (risk !== undefined) {
      throw new Error(
        `pattern ${JSON.stringify(pattern.slice(0, 200))} can backtrack catastrophically (${risk.reason})`,
      );
    }
    const regex = new RegExp(pattern, flags);
    const limit = patternInputLimit(pattern);
    return {
      test: (text: string) => text.length <= limit && regex.test(text),
      // ajv caches compiled patterns by toString(): it must name this pattern
      toString: () => regex.toString(),
    };
  },
  { code: 'boundedRegExp' },
);

type RegExpEngine = NonNullable<NonNullable<Options['code']>['regExp']>;
type Dialect = '2020-12' | 'draft-07';
const engines = new Map<string, AjvInstance>();
const cache = new WeakMap<object, CompiledSchema>();
const defaultsCache = new WeakMap<object, ValidateFunction>();
// one shared object: a passing validation (the hot path of every tool call) allocates nothing
const VALID: SchemaValidationResult = Object.freeze({ valid: true });
let compileCount = 0;

function createEngine(dialect: Dialect, useDefaults: boolean, verbose: boolean): AjvInstance {
  const options: Options = {
    // only the engine of applySchemaDefaults writes into the data it checks
    useDefaults,
    // every problem at once, so the model can fix its call in one round trip
    allErrors: true,
    // errors carry the schema they failed: a union's branches are then known for sure. Only
    // for explaining a failure: a verbose anyOf builds a rich error object for every branch it
    // tries, also when the value passes, which slows the passing calls of every tool
    verbose,
    // tool schemas come from many authors; unknown keywords are annotations, not errors
    strict: false,
    // the loader already checked the schema against the meta-schema profile
    validateSchema: false,
    // no $ref is ever resolved over the network: only local refs pass the loader
    addUsedSchema: false,
    // model input is untrusted: "required" and "properties" look at own properties only, so
    // Object.prototype members (constructor, toString, __proto__) never count as present
    ownProperties: true,
    // a library never prints: ajv would warn on the console about an unknown format at every
    // compile; the loader reports those as UNKNOWN_FORMAT warnings instead
    logger: false,
    code: { regExp: boundedRegExp },
  };
  let engine: AjvInstance;
  if (dialect === 'draft-07') {
    const Ajv = (require('ajv') as { default: new (options: Options) => AjvInstance }).default;
    engine = new Ajv(options);
  } else {
    const Ajv2020 = (
      require('ajv/dist/2020.js') as { default: new (options: Options) => AjvInstance }
    ).default;
    engine = new Ajv2020(options);
  }
  // without ajv-formats, "format" would be silently ignored
  const addFormats = (require('ajv-formats') as { default: (ajv: AjvInstance) => AjvInstance })
    .default;
  addFormats(engine);
  return engine;
}

function engineFor(dialect: Dialect, useDefaults = false, verbose = false): AjvInstance {
  const key = `${dialect}${useDefaults ? '+defaults' : ''}${verbose ? '+verbose' : ''}`;
  let engine = engines.get(key);
  if (engine === undefined) {
    engine = createEngine(dialect, useDefaults, verbose);
    engines.set(key, engine);
  }
  return engine;
}

/**
 * Compiles a JSON Schema once (cached per schema object) into a validator that reports
 * issues with JSON pointers. ajv is loaded and engines are created on first use only: loading
 * a registry never compiles anything.
 */
export function compileSchema(schema: JsonSchema): CompiledSchema {
  const cached = cache.get(schema);
  if (cached !== undefined) return cached;
  const dialect = schemaDialect(schema) ?? '2020-12';
  let validate: ValidateFunction;
  try {
    validate = engineFor(dialect).compile(withRootId(schema));
  } catch (error) {
    // ajv follows a $ref that leads back to itself until the stack runs out; the loader reports
    // such loops as REF_CYCLE, but a schema can reach this another way (an upstream server's)
    if (!(error instanceof RangeError)) throw error;
    throw new Error(
      'a $ref leads back to itself without reaching a schema (REF_CYCLE), or the schema nests too deeply to compile; point the $ref at a schema that describes the value',
    );
  }
  compileCount++;
  // compiled on the first failure only: it reports what validate found, with the schemas
  let explain: ValidateFunction | undefined;
  const compiled: CompiledSchema = (data, subject = 'input') => {
    if (validate(data)) return VALID;
    let errors = validate.errors ?? [];
    explain ??= engineFor(dialect, false, true).compile(withRootId(schema));
    if (!explain(data)) errors = explain.errors ?? errors;
    return {
      valid: false,
      // a failed discriminated union reports the branch the value chose, not every branch
      issues: focusUnionErrors(errors, schema, data, subject).map(
        ({ error, replacement }) => replacement ?? describeIssue(error, data, subject),
      ),
    };
  };
  cache.set(schema, compiled);
  return compiled;
}

/**
 * ajv resolves `"$ref": "#"` (a recursive schema: a tree, a nested comment thread) through the
 * root's `$id`, and a schema without one is only reachable once registered, which
 * `addUsedSchema: false` prevents: without an id every call failed with SCHEMA_COMPILE_FAILED.
 * A private id makes the root reachable; it is never registered or fetched.
 */
function withRootId(schema: JsonSchema): JsonSchema {
  if (Object.hasOwn(schema, '$id')) return schema;
  return { ...schema, $id: 'toolcap:root' };
}

/**
 * Fills in the `default`s `schema` declares for properties missing from `data`, IN PLACE (ajv's
 * `useDefaults`, on engines and a cache of their own, so plain validation never writes): also in
 * nested objects reached through `properties`, `items`, `allOf` and `$ref`, never inside
 * `anyOf`/`oneOf`/`not`, where the branch that applies is not known. Each default is a fresh
 * copy. Pass a copy of the caller's value. Throws when the schema does not compile.
 */
export function applySchemaDefaults(schema: JsonSchema, data: unknown): void {
  let validate = defaultsCache.get(schema);
  if (validate === undefined) {
    validate = engineFor(schemaDialect(schema) ?? '2020-12', true).compile(withRootId(schema));
    defaultsCache.set(schema, validate);
  }
  validate(data);
}

/** How many schemas have been compiled in this process (for tests that guard laziness). */
export function getCompileCount(): number {
  return compileCount;
}

function describeIssue(error: ErrorObject, data: unknown, subject: string): SchemaIssue {
  const where = error.instancePath === '' ? subject : error.instancePath;
  const params = error.params as Record<string, unknown>;
  let message: string;
  switch (error.keyword) {
    case 'required':
      return {
        pointer: `${error.instancePath}/${String(params.missingProperty)}`,
        keyword: error.keyword,
        message: `missing required property "${String(params.missingProperty)}"${error.instancePath === '' ? '' : ` in ${where}`}`,
      };
    case 'additionalProperties':
      return {
        pointer: `${error.instancePath}/${String(params.additionalProperty)}`,
        keyword: error.keyword,
        message: `unexpected property "${String(params.additionalProperty)}"${error.instancePath === '' ? '' : ` in ${where}`}; it is not defined in the schema`,
      };
    case 'type':
      message = `${where} must be ${String(params.type).replaceAll(',', ' or ')}`;
      break;
    case 'enum':
      message = `${where} must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`;
      break;
    case 'const':
      message = `${where} must be ${JSON.stringify(params.allowedValue)}`;
      break;
    case 'pattern': {
      const value = getAtPointer(data, error.instancePath);
      const limit = patternInputLimit(String(params.pattern));
      message =
        typeof value === 'string' && value.length > limit
          ? `${where} is ${value.length} characters; strings longer than ${limit} are not matched against the pattern ${JSON.stringify(params.pattern)}, so it is rejected`
          : `${where} must match the pattern ${JSON.stringify(params.pattern)}`;
      break;
    }
    default:
      message = `${where} ${error.message ?? 'is invalid'}`;
  }
  return { pointer: error.instancePath, keyword: error.keyword, message };
}
