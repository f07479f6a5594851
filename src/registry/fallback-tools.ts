import { formatPointer } from '../format/json-pointer.js';
import type {
  JsonSchema,
  ToolCategory,
  ToolHandlerOptions,
  ToolMetadata,
} from '../format/types.js';
import type { SchemaWarningSink } from '../json-schema/schema-warnings.js';
import {
  convertTypeName,
  JSON_SCHEMA_TYPES,
  toJsonSchemaType,
} from '../json-schema/to-json-schema-type.js';

/** One parameter of a param list: an entry of a code-defined tool's `params` list. */
export interface ParamDefinition {
  name: string;
  /** A JSON Schema type, or a common spelling of one (`str`, `int`, `float`, `bool`, `dict`, `list`, ...). */
  type: string;
  description?: string;
  required?: boolean;
  default?: unknown;
  enum?: readonly unknown[];
  /** Element schema for `array` parameters. */
  items?: JsonSchema;
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
 * spelled as code spells it (`str`, `int`, `float`, `bool`, `dict`, `list`, `String`, ...)
 * becomes its JSON Schema type exactly as `toolcap import` converts it, reported to `sink` as
 * `TYPE_CONVERTED`; a name with no known meaning is kept, for validation to report.
 */
export function paramsToJsonSchema(
  params: readonly ParamDefinition[],
  sink?: SchemaWarningSink,
): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const param of params) {
    const asGiven = JSON_SCHEMA_TYPES.has(param.type) || toJsonSchemaType(param.type) === undefined;
    const type = asGiven
      ? param.type
      : convertTypeName(param.type, formatPointer(['properties', param.name, 'type']), sink)!;
    const schema: JsonSchema = { type };
    if (param.description !== undefined) schema.description = param.description;
    if (param.enum !== undefined) schema.enum = [...param.enum];
    if (param.default !== undefined && param.default !== null) schema.default = param.default;
    if (type === 'array') schema.items = param.items ?? { type: 'string' };
    properties[param.name] = schema;
    if (param.required === true) required.push(param.name);
  }
  return required.length > 0
    ? { type: 'object', properties, required }
    : { type: 'object', properties };
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
