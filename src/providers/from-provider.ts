import { TranslationError } from '../errors/translation-error.js';
import { isValidExecutorName, isValidToolName, normalizeTags } from '../format/names.js';
import { describeUnknownProvider } from '../format/provider-ids.js';
import type {
  CostEstimate,
  JsonObject,
  LatencyEstimate,
  ToolAnnotations,
  ToolCategory,
  ToolDefinition,
  Warning,
} from '../format/types.js';
import { normalizeImportedSchema } from '../json-schema/normalize-imported-schema.js';
import { isPlainObject, type SchemaNode } from '../json-schema/schema-node.js';
import { createWarningSink } from '../json-schema/schema-warnings.js';
import { shortenName } from '../util/shorten-name.js';
import { suggestSimilar } from '../util/suggest-similar.js';
import { extractProviderTools, type RawTool } from './import/extract-provider-tools.js';
import { annotationsBeyondCategory, inferCategory } from './import/infer-category.js';
import { toCanonicalToolName } from './import/to-canonical-tool-name.js';
import { isProviderId, type ProviderId } from './provider-types.js';

/** Options of `fromProvider`: the defaults imported tools get for what providers do not carry. */
export interface FromProviderOptions {
  /** Handler module (`handlers/<executor>`) every imported tool gets. Default `"imported"`. */
  executor?: string;
  /** Category for every tool, instead of inferring one. */
  category?: ToolCategory;
  /**
   * Category when neither MCP annotations nor the name's verb tell. Default `"mutation"`: an
   * unknown tool may change things (MCP's own default is `destructiveHint: true`).
   */
  defaultCategory?: ToolCategory;
  /** Default `"medium"`. */
  costEstimate?: CostEstimate;
  /** Default `"medium"`. */
  latencyEstimate?: LatencyEstimate;
}

/** The result of `fromProvider`. */
export interface ImportResult {
  /** Canonical tools in payload order, each valid for `translate` and for a group file. */
  tools: ToolDefinition[];
  /** Every conversion and skipped entry, with the (canonical) tool name. */
  warnings: Warning[];
  /** Canonical name → provider name, for each tool whose name had to change. */
  nameMap: Record<string, string>;
}

const CATEGORIES = new Set<string>(['creation', 'retrieval', 'mutation', 'analysis']);
const COSTS = new Set<string>(['low', 'medium', 'high']);
const LATENCIES = new Set<string>(['fast', 'medium', 'slow']);
const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
const MAX_NAME_LENGTH = 64;

/**
 * Imports a provider's tool list (the value of its request's `tools` field, or MCP's
 * `tools/list` result) as canonical tools: the reverse of `translate`, lossless where the
 * format is (canonical → anthropic, mcp or canonical → canonical gives back the same tool).
 * Names that are not valid canonical names are converted deterministically
 * (`toCanonicalToolName`, then `_2`, `_3` for collisions) and reported in `nameMap`. Messy
 * schemas are repaired with a warning each (see `normalizeImportedSchema`). Providers do not carry
 * categories or execution metadata: the category is inferred (`inferCategory`) and metadata comes
 * from `options`. Throws `TranslationError` (`UNKNOWN_PROVIDER`, `INVALID_PAYLOAD`,
 * `INVALID_OPTIONS`) only when the payload or options are unusable as a whole.
 */
export function fromProvider(
  provider: ProviderId,
  payload: unknown,
  options: FromProviderOptions = {},
): ImportResult {
  if (!isProviderId(provider)) {
    throw new TranslationError('UNKNOWN_PROVIDER', describeUnknownProvider(provider));
  }
  checkOptions(options);
  const warnings: Warning[] = [];
  const raws = extractProviderTools(provider, payload, warnings);
  // names that are already valid keep them; converted names take what is left
  const used = new Set<string>();
  const assigned = raws.map((raw) => {
    if (!isValidToolName(raw.name) || used.has(raw.name)) return undefined;
    used.add(raw.name);
    return raw.name;
  });
  const renamed: [string, string][] = [];
  const tools: ToolDefinition[] = [];

  raws.forEach((raw, index) => {
    const name = assigned[index] ?? uniqueName(toCanonicalToolName(raw.name), used);
    if (name !== raw.name) {
      renamed.push([name, raw.name]);
      warnings.push({
        code: 'TOOL_RENAMED',
        message: `tool name ${JSON.stringify(shortenName(raw.name))} is not valid for every provider${name !== toCanonicalToolName(raw.name) ? ' (or collides with another tool)' : ''}; it is "${name}" now`,
        tool: name,
      });
    }
    const sink = createWarningSink();
    const inputSchema = normalizeImportedSchema(raw.inputSchema, sink);
    warnings.push(...sink.finish(name));
    if (inputSchema === undefined) {
      used.delete(name);
      warnings.push({
        code: 'ENTRY_SKIPPED',
        message: `tool ${JSON.stringify(shortenName(raw.name))} was skipped: its input schema's root is ${JSON.stringify((raw.inputSchema as SchemaNode).type)}, but tool arguments are always a JSON object`,
        pointer: `/${index}`,
      });
      return;
    }
    tools.push(buildTool(raw, name, inputSchema, options, warnings));
  });

  return { tools, warnings, nameMap: Object.fromEntries(renamed) };
}

function buildTool(
  raw: RawTool,
  name: string,
  inputSchema: SchemaNode,
  options: FromProviderOptions,
  warnings: Warning[],
): ToolDefinition {
  const title = typeof raw.title === 'string' && raw.title.trim() !== '' ? raw.title : undefined;
  let description = typeof raw.description === 'string' ? raw.description.trim() : '';
  if (description === '') {
    description = title ?? raw.name;
    const given = raw.description;
    // a description of the wrong type is a bug in the source, not a missing text
    const problem =
      given === undefined || typeof given === 'string'
        ? 'the tool has no description'
        : `the tool's description is ${describeNonString(given)}, not a string`;
    warnings.push({
      code: 'DESCRIPTION_MISSING',
      message: `${problem}; ${JSON.stringify(shortenName(description))} is used, but the model chooses tools by their descriptions, so write a real one`,
      tool: name,
    });
  }
  const annotations = readAnnotations(raw.annotations);
  const extra = raw.extra;
  const givenCategory =
    typeof extra.category === 'string' && CATEGORIES.has(extra.category)
      ? (extra.category as ToolCategory)
      : undefined;
  const category =
    options.category ??
    givenCategory ??
    inferCategory(raw.name, annotations, options.defaultCategory ?? 'mutation');
  const keptAnnotations =
    givenCategory !== undefined ? annotations : annotationsBeyondCategory(annotations, category);
  const metadata = isPlainObject(extra.metadata) ? extra.metadata : {};
  const outputSchema =
    isPlainObject(raw.outputSchema) && Object.keys(raw.outputSchema).length > 0
      ? raw.outputSchema
      : undefined;
  const tags = Array.isArray(extra.tags)
    ? normalizeTags(extra.tags.filter((tag): tag is string => typeof tag === 'string'))
    : [];
  const examples = Array.isArray(extra.examples) ? extra.examples.filter(isPlainObject) : [];

  return {
    name,
    ...(title === undefined ? {} : { title }),
    description,
    category,
    ...(tags.length > 0 ? { tags } : {}),
    input_schema: inputSchema,
    ...(outputSchema === undefined ? {} : { output_schema: outputSchema }),
    ...(keptAnnotations === undefined ? {} : { annotations: keptAnnotations }),
    ...(examples.length > 0 ? { examples: examples as JsonObject[] } : {}),
    metadata: {
      executor:
        typeof metadata.executor === 'string' && isValidExecutorName(metadata.executor)
          ? metadata.executor
          : (options.executor ?? 'imported'),
      requires_context: Array.isArray(metadata.requires_context)
        ? metadata.requires_context.filter((key): key is string => typeof key === 'string')
        : [],
      cost_estimate:
        typeof metadata.cost_estimate === 'string' && COSTS.has(metadata.cost_estimate)
          ? (metadata.cost_estimate as CostEstimate)
          : (options.costEstimate ?? 'medium'),
      latency_estimate:
        typeof metadata.latency_estimate === 'string' && LATENCIES.has(metadata.latency_estimate)
          ? (metadata.latency_estimate as LatencyEstimate)
          : (options.latencyEstimate ?? 'medium'),
    },
  };
}

/** MCP annotations with only well-typed fields (real servers send `null` for unset hints). */
function readAnnotations(value: unknown): ToolAnnotations | undefined {
  if (!isPlainObject(value)) return undefined;
  const annotations: ToolAnnotations = {};
  if (typeof value.title === 'string') annotations.title = value.title;
  for (const hint of HINTS) {
    if (typeof value[hint] === 'boolean') annotations[hint] = value[hint];
  }
  return Object.keys(annotations).length === 0 ? undefined : annotations;
}

function uniqueName(name: string, used: Set<string>): string {
  let candidate = name;
  for (let counter = 2; used.has(candidate); counter++) {
    const suffix = `_${counter}`;
    candidate = `${name.slice(0, MAX_NAME_LENGTH - suffix.length)}${suffix}`;
  }
  used.add(candidate);
  return candidate;
}

/** The options `fromProvider` knows. */
const FROM_PROVIDER_OPTIONS = [
  'executor',
  'category',
  'defaultCategory',
  'costEstimate',
  'latencyEstimate',
];

function checkOptions(options: FromProviderOptions): void {
  for (const key of Object.keys(options)) {
    if (FROM_PROVIDER_OPTIONS.includes(key)) continue;
    const similar = suggestSimilar(key, FROM_PROVIDER_OPTIONS);
    throw new TranslationError(
      'INVALID_OPTIONS',
      `fromProvider: unknown option "${key}"${similar.length > 0 ? `; did you mean "${similar[0]}"?` : '.'} Options: ${FROM_PROVIDER_OPTIONS.join(', ')}`,
    );
  }
  if (options.executor !== undefined && !isValidExecutorName(options.executor)) {
    throw new TranslationError(
      'INVALID_OPTIONS',
      `executor ${JSON.stringify(options.executor)} is not a valid handler name (lower-case letters, digits and underscores, starting with a letter)`,
    );
  }
  for (const [key, value, allowed] of [
    ['category', options.category, CATEGORIES],
    ['defaultCategory', options.defaultCategory, CATEGORIES],
    ['costEstimate', options.costEstimate, COSTS],
    ['latencyEstimate', options.latencyEstimate, LATENCIES],
  ] as const) {
    if (value !== undefined && !allowed.has(value)) {
      throw new TranslationError(
        'INVALID_OPTIONS',
        `${key} ${JSON.stringify(value)} is not one of ${[...allowed].join(', ')}`,
      );
    }
  }
}

/** A value that should have been a string, for a message: short whatever its size. */
function describeNonString(value: unknown): string {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }
  return Array.isArray(value) ? 'a list' : `a ${typeof value}`;
}
