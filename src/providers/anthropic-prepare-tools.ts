import { TranslationError } from '../errors/translation-error.js';
import type { Warning } from '../format/types.js';
import { checkPropertyNames, type PropertyNameRule } from '../json-schema/check-property-names.js';
import { flattenRootComposition } from '../json-schema/flatten-root-composition.js';
import { isPlainObject } from '../json-schema/schema-node.js';
import { createWarningSink } from '../json-schema/schema-warnings.js';
import { upgradeToDraft2020 } from '../json-schema/upgrade-to-draft-2020.js';
import { ANTHROPIC_CLIENT_SEARCH_TOOL_NAME } from './anthropic-tool-calls.js';
import { deferredTools } from './defer-loading.js';
import type { ProviderTranslator } from './provider-translator.js';
import type {
  AnthropicCacheControl,
  AnthropicTool,
  AnthropicToolEntry,
  AnthropicToolSearchTool,
} from './provider-types.js';
import { prepareDescription } from './tool-description.js';

const TOOL_SEARCH_TOOLS: Readonly<Record<'bm25' | 'regex', AnthropicToolSearchTool>> = {
  bm25: { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
  regex: { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' },
};

/**
 * The property keys the Messages API accepts in `input_schema.properties`: one other key fails
 * the whole request (`tools.N.custom.input_schema.properties: Property keys should match
 * pattern '^[a-zA-Z0-9_.-]{1,64}$'`). Bedrock hands tools to the same check.
 */
export const ANTHROPIC_PROPERTY_NAMES: PropertyNameRule = {
  pattern: /^[a-zA-Z0-9_.-]{1,64}$/,
  allowed: 'letters, digits, "_", "." and "-", 1 to 64 characters',
  effect:
    'Anthropic rejects the whole request with 400 "Property keys should match pattern", whichever tool has the key',
};

/**
 * The client-side search tool (`toolSearch: "client"`): a custom tool whose calls
 * `executeToolCalls` answers with `tool_reference` blocks from `registry.search`.
 */
export const ANTHROPIC_CLIENT_SEARCH_TOOL: Readonly<AnthropicTool> = Object.freeze<AnthropicTool>({
  name: ANTHROPIC_CLIENT_SEARCH_TOOL_NAME,
  description:
    'Search the tools you have not loaded yet by what you need to do (for example "cancel a meeting"), and load the best matches so you can call them. Use it when none of your tools fits the request.',
  input_schema: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What you need a tool for, in a few words' },
    },
    required: ['query'],
  },
});

/**
 * Anthropic Messages: `{ name, description, input_schema }` with the schema kept as JSON Schema
 * 2020-12 (local `$ref`s stay; draft-04/07 constructs are upgraded) and no top-level
 * `anyOf`/`oneOf`/`allOf`. Options: `cacheControl` on the last tool sent in full, `deferLoading` (tool
 * search; the BM25 search tool is added in front unless `toolSearch` names another or `false`),
 * `inputExamples` (the tool's `examples` as `input_examples`).
 */
export const anthropicTranslator: ProviderTranslator<'anthropic', AnthropicTool> = {
  prepareTool(tool, options) {
    const sink = createWarningSink();
    const schema = flattenRootComposition(upgradeToDraft2020(tool.input_schema, sink), sink);
    // the API checks the keys of input_schema.properties (nested keys are not reported)
    if (isPlainObject(schema.properties)) {
      checkPropertyNames(schema.properties, '/properties', ANTHROPIC_PROPERTY_NAMES, sink);
    }
    const warnings = sink.finish(tool.name);
    const description = prepareDescription(tool.description, tool.name, warnings);
    const examples = options.inputExamples === true ? (tool.examples ?? []) : [];
    const entry: AnthropicTool = {
      name: tool.name,
      ...(description === undefined ? {} : { description }),
      input_schema: schema as AnthropicTool['input_schema'],
      ...(examples.length === 0
        ? {}
        : { input_examples: examples.map((example) => ({ ...example })) }),
    };
    return { entry, warnings };
  },
  assemble(prepared, options) {
    const warnings: Warning[] = [];
    const deferred = deferredTools(prepared, options.deferLoading, warnings);
    const payload: AnthropicToolEntry[] = prepared.map((item) =>
      deferred.has(item.tool) ? { ...item.entry, defer_loading: true } : item.entry,
    );
    if (deferred.size > 0) {
      const search = options.toolSearch ?? 'bm25';
      if (search === 'client') {
        checkClientSearchName(prepared);
        payload.unshift(structuredClone(ANTHROPIC_CLIENT_SEARCH_TOOL));
      } else if (search !== false) {
        payload.unshift(TOOL_SEARCH_TOOLS[search]);
      } else if (deferred.size === prepared.length) {
        const first = payload[0] as AnthropicTool;
        const { defer_loading: _deferLoading, ...loaded } = first;
        payload[0] = loaded;
        warnings.push({
          code: 'DEFER_LOADING_KEPT_ONE',
          message: `Anthropic rejects a request where every tool is deferred ("At least one tool must have defer_loading=false"); "${first.name}" stays loaded`,
          tool: first.name,
        });
      }
    }
    const cacheControl = resolveCacheControl(options.cacheControl);
    if (cacheControl !== undefined) {
      // the breakpoint goes on the last tool sent in full: Anthropic rejects cache_control on a
      // deferred tool ("cannot have both defer_loading=true and cache_control set")
      const anchor = payload.findLastIndex((entry) => !('type' in entry) && !entry.defer_loading);
      if (anchor >= 0) {
        payload[anchor] = { ...(payload[anchor] as AnthropicTool), cache_control: cacheControl };
      } else if (prepared.length > 0) {
        warnings.push({
          code: 'CACHE_CONTROL_SKIPPED',
          message:
            'cacheControl was not applied: every tool is deferred, and Anthropic rejects cache_control on a deferred tool. Keep at least one tool loaded (deferLoading as a list of names) to place a cache breakpoint',
        });
      }
    }
    return { payload, tools: prepared.map((item) => item.tool), warnings };
  },
};

function checkClientSearchName(prepared: readonly { tool: { name: string } }[]): void {
  if (prepared.some((item) => item.tool.name === ANTHROPIC_CLIENT_SEARCH_TOOL_NAME)) {
    throw new TranslationError(
      'DUPLICATE_TOOL_NAME',
      `a tool is named "${ANTHROPIC_CLIENT_SEARCH_TOOL_NAME}", the name of the search tool toolSearch: "client" adds; rename that tool, or use toolSearch: "bm25"`,
      { tool: ANTHROPIC_CLIENT_SEARCH_TOOL_NAME },
    );
  }
}

function resolveCacheControl(
  option: boolean | AnthropicCacheControl | undefined,
): AnthropicCacheControl | undefined {
  if (option === undefined || option === false) return undefined;
  if (option === true) return { type: 'ephemeral' };
  return option.ttl === undefined ? { type: 'ephemeral' } : { type: 'ephemeral', ttl: option.ttl };
}
