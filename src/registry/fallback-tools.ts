import { formatPointer } from '../format/json-pointer.js';
import type {
  JsonSchema,
  ToolCategory,
  ToolHandlerOptions,
  ToolMetadata,
} from '../format/types.js';
import { addStringItems } from '../json-schema/normalize-imported-schema.js';
import { declaredTypes } from '../json-schema/schema-node.js';
import type { SchemaWarningSink } from '../json-schema/schema-warnings.js';
import {
  anyJsonSchema,
  convertTypeName,
  JSON_SCHEMA_TYPES,
  toJsonSchemaType,
} from '../json-schema/to-json-schema-type.js';
import { typeExpressionToSchema } from '../json-schema/type-expression-to-schema.js';

/** One parameter of a param list: an entry of a code-defined tool's `params` list. */
export interface ParamDefinition {
  /** The name; one starting with `*` (`*args`, `**kwargs`) is variadic and left out. */
  name: string;
  /**
   * A JSON Schema type, or a type as Python or TypeScript spell it: `str`, `int`, `float`,
   * `bool`, `dict`, `list`, `Any`, `list[str]`, `dict[str, int]`, `Optional[int]`, `int | None`,
   * `Literal['a', 'b']`, `string[]`, `Array<number>`, `Record<string, number>`, ...
   */
  type: string;
  description?: string;
  required?: boolean;
  default?: unknown;
  enum?: readonly unknown[];
  /** Element schema for `array` parameters (default: the element type of `list[int]`, ...). */
  items?: JsonSchema;
  /**
   * How Python passes it, as `inspect.Parameter.kind` names it; `VAR_POSITIONAL` (`*args`) and
   * `VAR_KEYWORD` (`**kwargs`) parameters are left out.
   */
  kind?: string;
}

/**
 * The function a code-defined tool runs: `(input, context, options) => output`, with the same
 * `options` (`signal`, `toolName`, `dataDir`, `services`) a handler module's function gets.
 */
export type FallbackExecute = (
  input: Record<string, unknown>,
  context: Readonly<Record<string, unknown>>,
  options: ToolHandlerOptions,
) => unknown;

/**
 * A tool still defined in code, not yet moved into a group file. Give its arguments as a JSON
 * Schema (`input_schema`, `inputSchema` or the canonical `parameters`) or as a param list
 * (`params: [{ name, type, description?, required?, default? }]`); the registry reads the
 * schema as `toolcap import` reads it. JSON group files win on a name collision.
 */
export interface FallbackTool {
  name: string;
  description: string;
  input_schema?: JsonSchema;
  inputSchema?: JsonSchema;
  parameters?: JsonSchema;
  params?: readonly ParamDefinition[];
  /** Group to list it under; default `fallback` (strategy always, like before the migration). */
  group?: string;
  /**
   * Default: inferred as `toolcap import` infers it, from the verb of the name (`get_weather` →
   * retrieval), else of the description, else `mutation` (the conservative choice).
   */
  category?: ToolCategory;
  /** Executor module name; `handler` is accepted as an alias. */
  metadata?: Partial<ToolMetadata>;
  handler?: string;
  /** The implementation, when it lives in code; used by `registry.execute`. */
  execute?: FallbackExecute;
  /**
   * Where the tool is defined, named by its diagnostics: a file and a JSON pointer to the tool
   * in what the file exports (`{ file: "src/tools.js", pointer: "/tools/getWeather" }`).
   * `toFallbackTools` sets it. Default: `<fallback>` and the tool's index in `fallbackTools`.
   */
  definedIn?: { file: string; pointer: string };
  /**
   * Why the tool cannot be described to a model, set by `toFallbackTools` (e.g. a Zod schema
   * with no JSON Schema form). The registry leaves such a tool out with an
   * `INVALID_FALLBACK_TOOL` diagnostic giving this reason; a JSON definition still replaces it.
   */
  problem?: string;
}

/** Group name used for fallback tools that do not name one. */
export const FALLBACK_GROUP = 'fallback';

/**
 * Converts a param list (`params: [{ name, type, ... }]`) to an object JSON Schema. A type
 * spelled as code spells it (`str`, `list[int]`, `Optional[str]`, `Literal['a', 'b']`,
 * `string[]`, ...; see `typeExpressionToSchema`) becomes its JSON Schema, reported to `sink` as
 * `TYPE_CONVERTED`. A spelling that cannot be read becomes any JSON (`anyJsonSchema`, what the
 * value accepted untyped), reported once to `sink` with the reason; without a sink it is kept as
 * given, so validating the schema reports it. An array without an element type gets string items
 * (`ARRAY_ITEMS_ADDED`). Variadic parameters (`*args`, `**kwargs`) are left out
 * (`PARAM_SKIPPED`): a tool call passes named arguments only.
 */
export function paramsToJsonSchema(
  params: readonly ParamDefinition[],
  sink?: SchemaWarningSink,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const variadic: string[] = [];
  for (const param of params) {
    if (isVariadic(param)) {
      variadic.push(param.name);
      continue;
    }
    const pointer = formatPointer(['properties', param.name]);
    let schema = typeSchema(param.type, `${pointer}/type`, sink);
    if (param.description !== undefined) schema.description = param.description;
    if (param.enum !== undefined) schema.enum = [...param.enum];
    if (param.default !== undefined && param.default !== null) schema.default = param.default;
    if (param.items !== undefined) schema.items = param.items;
    if (declaredTypes(schema)?.includes('array') === true && schema.items === undefined) {
      schema = addStringItems(schema, pointer, sink);
    }
    properties[param.name] = schema;
    if (param.required === true) required.push(param.name);
  }
  if (variadic.length > 0) {
    sink?.add(
      'PARAM_SKIPPED',
      'variadic',
      '',
      `the variadic parameter${variadic.length === 1 ? '' : 's'} ${variadic.map((name) => JSON.stringify(name)).join(', ')} ${variadic.length === 1 ? 'was' : 'were'} left out: a tool call passes named arguments only; give each value the tool takes a parameter of its own`,
    );
  }
  return required.length > 0
    ? { type: 'object', properties, required }
    : { type: 'object', properties };
}

const VARIADIC_KINDS = new Set(['VAR_POSITIONAL', 'VAR_KEYWORD']);

function isVariadic(param: ParamDefinition): boolean {
  return (
    param.name.startsWith('*') ||
    (typeof param.kind === 'string' && VARIADIC_KINDS.has(param.kind.toUpperCase()))
  );
}

/** The schema of a param's type, a fresh object; see `paramsToJsonSchema`. */
function typeSchema(
  type: string,
  pointer: string,
  sink: SchemaWarningSink | undefined,
): JsonSchema {
  if (JSON_SCHEMA_TYPES.has(type)) return { type };
  if (toJsonSchemaType(type) !== undefined) {
    const converted = convertTypeName(type, pointer, sink);
    return typeof converted === 'string' ? { type: converted } : anyJsonSchema();
  }
  const read = typeExpressionToSchema(type);
  if ('schema' in read) {
    sink?.add(
      'TYPE_CONVERTED',
      type,
      pointer,
      `type "${type}" is not a JSON Schema type; it became ${JSON.stringify(read.schema)}`,
    );
    return read.schema;
  }
  // without a sink nobody hears about a change: keep the type, so validating the schema reports it
  if (sink === undefined) return { type };
  const any = anyJsonSchema();
  sink.add(
    'TYPE_CONVERTED',
    type,
    pointer,
    `type "${type}" cannot be read: ${read.problem}; the value now accepts any JSON ("type": ${JSON.stringify(any.type)}, with items of any JSON); to narrow it, write a JSON Schema type (string, integer, number, boolean, array, object, null) or a spelling such as list[str], dict[str, int], Optional[int] or Literal['a', 'b']`,
  );
  return any;
}

/**
 * The raw group-file tool entry a fallback tool corresponds to (validated like a file); the
 * type names its param list converts are reported to `sink` (see `paramsToJsonSchema`).
 */
export function fallbackToolToEntry(
  tool: FallbackTool,
  sink?: SchemaWarningSink,
): Record<string, unknown> {
  const schema =
    tool.input_schema ??
    tool.inputSchema ??
    tool.parameters ??
    (tool.params !== undefined
      ? paramsToJsonSchema(tool.params, sink)
      : { type: 'object', properties: {} });
  const executor = tool.metadata?.executor ?? tool.handler ?? tool.group ?? FALLBACK_GROUP;
  return {
    name: tool.name,
    description: tool.description,
    category: tool.category ?? 'mutation',
    input_schema: schema,
    metadata: {
      executor,
      requires_context: [...(tool.metadata?.requires_context ?? [])],
      cost_estimate: tool.metadata?.cost_estimate ?? 'medium',
      latency_estimate: tool.metadata?.latency_estimate ?? 'medium',
    },
  };
}
