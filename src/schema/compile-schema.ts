import { createRequire } from 'node:module';
import type { Ajv as AjvInstance, ErrorObject, Options, ValidateFunction } from 'ajv';
import type { JsonSchema } from '../format/types.js';
import { schemaDialect } from '../load/check-schema.js';

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

/** A compiled, reusable validator. */
export type CompiledSchema = (data: unknown) => SchemaValidationResult;

type Dialect = '2020-12' | 'draft-07';
const engines = new Map<Dialect, AjvInstance>();
const cache = new WeakMap<object, CompiledSchema>();
let compileCount = 0;

function createEngine(dialect: Dialect): AjvInstance {
  const options: Options = {
    // every problem at once, so the model can fix its call in one round trip
    allErrors: true,
    // tool schemas come from many authors; unknown keywords are annotations, not errors
    strict: false,
    // the loader already checked the schema against the meta-schema profile
    validateSchema: false,
    // no $ref is ever resolved over the network: only local refs pass the loader
    addUsedSchema: false,
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

function engineFor(dialect: Dialect): AjvInstance {
  let engine = engines.get(dialect);
  if (engine === undefined) {
    engine = createEngine(dialect);
    engines.set(dialect, engine);
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
  const validate: ValidateFunction = engineFor(dialect).compile(schema);
  compileCount++;
  const compiled: CompiledSchema = (data) => {
    if (validate(data)) return { valid: true };
    return { valid: false, issues: (validate.errors ?? []).map(describeIssue) };
  };
  cache.set(schema, compiled);
  return compiled;
}

/** How many schemas have been compiled in this process (for tests that guard laziness). */
export function getCompileCount(): number {
  return compileCount;
}

function describeIssue(error: ErrorObject): SchemaIssue {
  const where = error.instancePath === '' ? 'input' : error.instancePath;
  const params = error.params as Record<string, unknown>;
  let message: string;
  switch (error.keyword) {
    case 'required':
      return {
        pointer: `${error.instancePath}/${String(params.missingProperty)}`,
        keyword: error.keyword,
        message: `missing required property "${String(params.missingProperty)}"`,
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
    default:
      message = `${where} ${error.message ?? 'is invalid'}`;
  }
  return { pointer: error.instancePath, keyword: error.keyword, message };
}
