import { TranslationError } from '../../errors/translation-error.js';
import type { Warning } from '../../format/types.js';
import { isPlainObject, type SchemaNode } from '../../json-schema/schema-node.js';
import { PROVIDER_IDS, type ProviderId } from '../provider-types.js';
import { geminiSchemaToJsonSchema } from './gemini-schema-to-json-schema.js';
import { PayloadFormatError } from './payload-format-error.js';

/** A tool as read from a provider payload, before names and schemas are normalized. */
export interface RawTool {
  name: string;
  description: unknown;
  title: unknown;
  inputSchema: unknown;
  outputSchema: unknown;
  annotations: unknown;
  /** Group-file fields a canonical entry may carry (category, metadata, tags, examples). */
  extra: SchemaNode;
}

/**
 * Reads the tool entries of a provider payload (the request's `tools` value; a wrapper such
 * as MCP's `{ tools }` or Bedrock's `toolConfig` is accepted too). Entries that are not custom
 * function tools (hosted tools, cache points) are skipped with a `ENTRY_SKIPPED` warning.
 * Throws `TranslationError` (`INVALID_PAYLOAD`) when the payload is not a tool list at all, and
 * its `PayloadFormatError` subclass when an entry keeps its parameters where another provider's
 * tools do (an Anthropic list read as OpenAI): read on, its tools would lose their parameters.
 */
export function extractProviderTools(
  provider: ProviderId,
  payload: unknown,
  warnings: Warning[],
): RawTool[] {
  const entries = toEntryList(provider, payload);
  const tools: RawTool[] = [];
  const skip = (index: number, reason: string) => {
    warnings.push({
      code: 'ENTRY_SKIPPED',
      message: `entry ${index} of the ${provider === 'mcp' ? 'MCP tools list' : `${provider} payload`} was skipped: ${reason}`,
      pointer: `/${index}`,
    });
  };
  entries.forEach((entry, index) => {
    if (!isPlainObject(entry)) {
      skip(index, 'it is not an object');
      return;
    }
    const reasons: string[] = [];
    const raws = readEntry(provider, entry, (reason) => reasons.push(reason));
    if (reasons.length > 0 || !raws.every(hasParameters)) checkFormat(provider, entry, index);
    for (const reason of reasons) skip(index, reason);
    for (const raw of raws) {
      if (typeof raw.name !== 'string' || raw.name.trim() === '') {
        skip(index, 'it has no name');
        continue;
      }
      tools.push(raw);
    }
  });
  return tools;
}

/** Where each provider's tools keep their parameters (for messages). */
const PARAMETERS_PLACE: Readonly<Record<ProviderId, string>> = {
  openai: '"function.parameters"',
  'openai-responses': '"parameters"',
  anthropic: '"input_schema"',
  google: '"functionDeclarations[].parameters"',
  bedrock: '"toolSpec.inputSchema.json"',
  mcp: '"inputSchema"',
  canonical: '"parameters"',
};

/** Where tools of `provider` keep their parameters, quoted for a message (`"input_schema"`). */
export function parametersPlace(provider: ProviderId): string {
  return PARAMETERS_PLACE[provider];
}

/**
 * The providers whose reader finds a named tool with a parameters schema in `entry`, the one its
 * shape names first (`toolSpec` → bedrock, `inputSchema` → mcp, ...), then in PROVIDER_IDS
 * order. Empty for entries no reader finds parameters in (hosted tools, cache points, tools
 * without parameters).
 */
export function toolFormatsOf(entry: unknown): ProviderId[] {
  if (!isPlainObject(entry)) return [];
  const ignore = () => {};
  const fits = PROVIDER_IDS.filter((provider) => {
    const raws = readEntry(provider, entry, ignore);
    return raws.length > 0 && raws.every((raw) => raw.name.trim() !== '' && hasParameters(raw));
  });
  const primary = shapeOf(entry);
  return primary !== undefined && fits.includes(primary)
    ? [primary, ...fits.filter((fit) => fit !== primary)]
    : fits;
}

/** The provider an entry's distinctive field names, if any. */
function shapeOf(entry: SchemaNode): ProviderId | undefined {
  if (isPlainObject(entry.toolSpec)) return 'bedrock';
  if (
    Array.isArray(entry.functionDeclarations) ||
    Array.isArray(entry.function_declarations) ||
    Object.hasOwn(entry, 'parametersJsonSchema')
  ) {
    return 'google';
  }
  if (isPlainObject(entry.function)) return 'openai';
  if (Object.hasOwn(entry, 'inputSchema')) return 'mcp';
  if (Object.hasOwn(entry, 'input_schema')) return 'anthropic';
  if (entry.type === 'function') return 'openai-responses';
  if (Object.hasOwn(entry, 'parameters')) return 'canonical';
  return undefined;
}

function hasParameters(raw: RawTool): boolean {
  return isPlainObject(raw.inputSchema);
}

/** Throws when another provider's reader finds parameters `provider`'s reader does not. */
function checkFormat(provider: ProviderId, entry: SchemaNode, index: number): void {
  const fits = toolFormatsOf(entry);
  if (fits.length === 0 || fits.includes(provider)) return;
  const best = fits[0]!;
  const [found] = readEntry(best, entry, () => {});
  throw new PayloadFormatError({
    readAs: provider,
    readAsPlace: PARAMETERS_PLACE[provider],
    fits,
    place: PARAMETERS_PLACE[best],
    index,
    toolName: found?.name,
  });
}

function toEntryList(provider: ProviderId, payload: unknown): unknown[] {
  if (Array.isArray(payload)) return payload;
  if (isPlainObject(payload)) {
    if (Array.isArray(payload.tools)) return payload.tools;
    if (isPlainObject(payload.toolConfig) && Array.isArray(payload.toolConfig.tools)) {
      return payload.toolConfig.tools;
    }
    // a single tool (or a single Gemini Tool) is a list of one
    return [payload];
  }
  throw new TranslationError(
    'INVALID_PAYLOAD',
    `a ${provider} tool payload is an array of tools (the request's "tools" value), got ${payload === null ? 'null' : typeof payload}`,
  );
}

function readEntry(
  provider: ProviderId,
  entry: SchemaNode,
  skip: (reason: string) => void,
): RawTool[] {
  switch (provider) {
    case 'openai':
    case 'openai-responses': {
      if (entry.type === 'namespace' && Array.isArray(entry.tools)) {
        return entry.tools.filter(isPlainObject).flatMap((tool) => readEntry(provider, tool, skip));
      }
      if (entry.type !== undefined && entry.type !== 'function') {
        skip(`"${String(entry.type)}" is not a function tool`);
        return [];
      }
      const definition = isPlainObject(entry.function) ? entry.function : entry;
      return [raw(definition.name, definition.description, undefined, definition.parameters)];
    }
    case 'anthropic':
      if (entry.type !== undefined && entry.type !== 'custom' && entry.type !== null) {
        skip(`"${String(entry.type)}" is a server tool, not a custom tool`);
        return [];
      }
      return [raw(entry.name, entry.description, undefined, entry.input_schema)];
    case 'google': {
      const declarations = Array.isArray(entry.functionDeclarations)
        ? entry.functionDeclarations
        : Array.isArray(entry.function_declarations)
          ? entry.function_declarations
          : typeof entry.name === 'string'
            ? [entry]
            : undefined;
      if (declarations === undefined) {
        skip('it has no functionDeclarations (hosted Gemini tools are not imported)');
        return [];
      }
      return declarations.filter(isPlainObject).map((declaration) => {
        const schema =
          declaration.parametersJsonSchema ??
          declaration.parameters_json_schema ??
          geminiSchemaToJsonSchema(declaration.parameters);
        const output =
          declaration.responseJsonSchema ?? geminiSchemaToJsonSchema(declaration.response);
        return raw(declaration.name, declaration.description, undefined, schema, output);
      });
    }
    case 'bedrock': {
      if (!isPlainObject(entry.toolSpec)) {
        skip('it is not a toolSpec (cache points and system tools are not imported)');
        return [];
      }
      const spec = entry.toolSpec;
      const schema = isPlainObject(spec.inputSchema) ? spec.inputSchema.json : undefined;
      return [raw(spec.name, spec.description, undefined, schema)];
    }
    case 'mcp':
      return [
        raw(
          entry.name,
          entry.description,
          entry.title,
          entry.inputSchema,
          entry.outputSchema,
          entry.annotations,
        ),
      ];
    case 'canonical': {
      const extra: SchemaNode = {};
      for (const key of [
        'category',
        'metadata',
        'tags',
        'examples',
        'annotations',
        'output_schema',
      ]) {
        if (Object.hasOwn(entry, key)) extra[key] = entry[key];
      }
      return [
        {
          ...raw(
            entry.name,
            entry.description,
            entry.title,
            entry.parameters ?? entry.input_schema,
            entry.output_schema,
            entry.annotations,
          ),
          extra,
        },
      ];
    }
  }
}

function raw(
  name: unknown,
  description: unknown,
  title: unknown,
  inputSchema: unknown,
  outputSchema?: unknown,
  annotations?: unknown,
): RawTool {
  return {
    name: typeof name === 'string' ? name : '',
    description,
    title,
    inputSchema,
    outputSchema,
    annotations,
    extra: {},
  };
}
