import { TranslationError } from '../errors/translation-error.js';
import { isValidToolName } from '../format/names.js';
import { describeUnknownProvider } from '../format/provider-ids.js';
import type { ToolDefinition, Warning } from '../format/types.js';
import { defineEntry, isPlainObject } from '../json-schema/schema-node.js';
import { anthropicTranslator } from './anthropic-prepare-tools.js';
import { bedrockTranslator } from './bedrock-prepare-tools.js';
import { canonicalTranslator } from './canonical-prepare-tools.js';
import { checkTranslateOptions } from './check-translate-options.js';
import { googleTranslator } from './google-prepare-tools.js';
import { groupOf } from './group-of.js';
import { toCanonicalToolName } from './import/to-canonical-tool-name.js';
import { mcpTranslator } from './mcp-prepare-tools.js';
import { openAIChatTranslator } from './openai-chat-prepare-tools.js';
import { openAIResponsesTranslator } from './openai-responses-prepare-tools.js';
import type {
  PreparedEntry,
  PreparedTool,
  ProviderTranslator,
  TranslationContext,
} from './provider-translator.js';
import {
  isProviderId,
  type ProviderId,
  type ToolTranslationMetadata,
  type TranslateOptions,
  type TranslationResult,
} from './provider-types.js';

// biome-ignore lint/suspicious/noExplicitAny: each translator is typed by its own provider
export const TRANSLATORS: { readonly [P in ProviderId]: ProviderTranslator<P, any> } = {
  openai: openAIChatTranslator,
  'openai-responses': openAIResponsesTranslator,
  anthropic: anthropicTranslator,
  google: googleTranslator,
  bedrock: bedrockTranslator,
  mcp: mcpTranslator,
  canonical: canonicalTranslator,
};

/**
 * Translates tools (a selection's tools, or `registry.list()`) for one provider. Returns the
 * `payload` (exactly the value of the request's `tools` field), `metadata` (group, executor,
 * cost and latency estimates by tool name; never part of the payload) and `warnings` (what was
 * changed or dropped, and why). Features a provider lacks become warnings; only input no
 * translation can fix throws a `TranslationError`: an unknown provider, an unknown option or a
 * wrong option value, a tool name invalid for providers, duplicate names, an input schema that is
 * not an object, an unresolvable `$ref`.
 *
 * A pure function: every call builds its result afresh, so the caller may change it. To reuse
 * translations across turns, use a translator (`createTranslator()`, or `registry.translate`).
 */
export function translate<P extends ProviderId>(
  tools: readonly ToolDefinition[],
  provider: P,
  options?: TranslateOptions<P>,
): TranslationResult<P> {
  checkTranslateRequest(provider, options);
  return translateTools(tools, provider, options, (translator, tool, resolved) =>
    prepareTool(translator, tool, resolved),
  );
}

/** How a tool is prepared: afresh (`translate`) or from a cache (a translator). */
export type PrepareStep<P extends ProviderId> = (
  translator: ProviderTranslator<P, unknown>,
  tool: ToolDefinition,
  options: TranslateOptions<P>,
) => PreparedTool<unknown>;

/**
 * The checks of `provider` and `options` every translation starts with (once per call: a
 * translator runs them before its cache, whose keys do not tell every wrong value apart).
 */
export function checkTranslateRequest(provider: ProviderId, options: unknown): void {
  checkProvider(provider);
  checkTranslateOptions(provider, options);
}

/** The steps of a translation (after `checkTranslateRequest`), each tool prepared by `prepare`. */
export function translateTools<P extends ProviderId>(
  tools: readonly ToolDefinition[],
  provider: P,
  options: TranslateOptions<P> | undefined,
  prepare: PrepareStep<P>,
  context: TranslationContext = {},
): TranslationResult<P> {
  checkProvider(provider);
  checkToolList(tools);
  const resolvedOptions = (options ?? {}) as TranslateOptions<P>;
  const translator = TRANSLATORS[provider] as ProviderTranslator<P, unknown>;
  const names = new Set<string>();
  const prepared: PreparedEntry<unknown>[] = [];
  const toolWarnings: (readonly Warning[])[] = [];
  for (const tool of tools) {
    checkToolShape(tool);
    if (names.has(tool.name)) {
      throw new TranslationError(
        'DUPLICATE_TOOL_NAME',
        `two tools are named "${tool.name}"; every provider rejects duplicate tool names. Select or register each name once`,
        { tool: tool.name },
      );
    }
    names.add(tool.name);
    const item = prepare(translator, tool, resolvedOptions);
    prepared.push({ tool, entry: item.entry });
    toolWarnings.push(item.warnings);
  }

  const assembled = translator.assemble(prepared, resolvedOptions, context);
  const warnings: Warning[] = [];
  const metadata: Record<string, ToolTranslationMetadata> = {};
  // assembled.tools keeps the input order (translators only drop tools), so one cursor walks both
  let cursor = 0;
  for (const tool of assembled.tools) {
    while (cursor < prepared.length - 1 && prepared[cursor]!.tool !== tool) cursor++;
    for (const warning of toolWarnings[cursor] ?? []) warnings.push(warning);
    // "__proto__" must be defined, not assigned
    defineEntry(metadata, tool.name, {
      group: groupOf(tool),
      executor: tool.metadata.executor,
      cost_estimate: tool.metadata.cost_estimate,
      latency_estimate: tool.metadata.latency_estimate,
    });
  }
  warnings.push(...assembled.warnings);
  return { payload: assembled.payload, metadata, warnings };
}

/** Prepares one tool afresh, after the checks every provider needs. */
export function prepareTool<P extends ProviderId>(
  translator: ProviderTranslator<P, unknown>,
  tool: ToolDefinition,
  options: TranslateOptions<P>,
): PreparedTool<unknown> {
  checkTool(tool);
  try {
    return translator.prepareTool(tool, options);
  } catch (error) {
    if (error instanceof TranslationError && error.tool === undefined) {
      throw new TranslationError(error.code, `tool "${tool.name}": ${error.message}`, {
        tool: tool.name,
        ...(error.pointer === undefined ? {} : { pointer: error.pointer }),
        cause: error,
      });
    }
    throw error;
  }
}

function checkProvider(provider: unknown): asserts provider is ProviderId {
  if (!isProviderId(provider)) {
    throw new TranslationError('UNKNOWN_PROVIDER', describeUnknownProvider(provider));
  }
}

function checkToolList(tools: unknown): void {
  if (!Array.isArray(tools)) {
    throw new TranslationError(
      'INVALID_OPTIONS',
      "translate() takes an array of tools (e.g. registry.list() or a selection's tools)",
    );
  }
}

function checkToolShape(tool: ToolDefinition): void {
  if (
    !isPlainObject(tool as unknown) ||
    typeof tool.name !== 'string' ||
    !isPlainObject(tool.metadata as unknown)
  ) {
    throw new TranslationError(
      'INVALID_TOOL',
      `every tool needs a string "name" and a "metadata" object${typeof (tool as { name?: unknown } | null)?.name === 'string' ? ` (tool "${tool.name}")` : ''}; pass registry tools, or tools from fromProvider()`,
    );
  }
}

/** The checks every provider needs before a tool can be translated at all. */
function checkTool(tool: ToolDefinition): void {
  if (!isValidToolName(tool.name)) {
    throw new TranslationError(
      'INVALID_TOOL_NAME',
      `tool name ${JSON.stringify(tool.name)} is not valid for every provider (letters, digits and underscores, starting with a letter or underscore, at most 64 characters); rename it, e.g. to "${toCanonicalToolName(tool.name)}" (fromProvider() does this and reports the mapping)`,
      { tool: tool.name },
    );
  }
  if (!isPlainObject(tool.input_schema)) {
    throw new TranslationError(
      'INVALID_INPUT_SCHEMA',
      `tool "${tool.name}": input_schema must be a JSON Schema object with "type": "object"`,
      { tool: tool.name },
    );
  }
}
