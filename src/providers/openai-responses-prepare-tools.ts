import type { Warning } from '../format/types.js';
import { deferredTools } from './defer-loading.js';
import { groupOf } from './group-of.js';
import { limitOpenAITools, prepareOpenAIFunction } from './openai-function.js';
import type {
  PreparedEntry,
  ProviderTranslator,
  TranslationContext,
} from './provider-translator.js';
import type {
  OpenAINamespaceTool,
  OpenAIResponsesOptions,
  OpenAIResponsesTool,
  OpenAIResponsesToolEntry,
  OpenAIToolSearchTool,
} from './provider-types.js';

/** The client-executed tool search tool (`toolSearch: "client"`): one `query` parameter. */
export const OPENAI_CLIENT_TOOL_SEARCH: Readonly<OpenAIToolSearchTool> = Object.freeze({
  type: 'tool_search',
  execution: 'client',
  description:
    'Search the tools you have not loaded yet by what you need to do (for example "cancel a meeting"), and load the best matches so you can call them.',
  parameters: {
    type: 'object',
    properties: {
      query: { type: 'string', description: 'What you need a tool for, in a few words' },
    },
    required: ['query'],
    additionalProperties: false,
  },
});

/**
 * OpenAI Responses: the flat `{ type: "function", name, description, parameters, strict }`
 * (`strict` always explicit: when omitted, Responses silently normalizes), at most 128 tools
 * (deferred and namespaced functions count: OpenAI documents no exception for them);
 * with `deferLoading`, tools get `defer_loading: true` and a tool search tool is put in front
 * (hosted, or client-executed with `toolSearch: "client"`); with `namespaces`, tools are
 * grouped into one `namespace` entry per group, where the group's first tool was.
 */
export const openAIResponsesTranslator: ProviderTranslator<
  'openai-responses',
  OpenAIResponsesTool
> = {
  prepareTool(tool, options) {
    const parts = prepareOpenAIFunction(tool, options);
    const entry: OpenAIResponsesTool = {
      type: 'function',
      name: parts.name,
      ...(parts.description === undefined ? {} : { description: parts.description }),
      parameters: parts.parameters,
      strict: parts.strict,
    };
    return { entry, warnings: parts.warnings };
  },
  assemble(prepared, options, context) {
    const limited = limitOpenAITools(prepared);
    const warnings: Warning[] = [...limited.warnings];
    const kept = prepared.slice(0, limited.tools.length);
    // deferral is read from the whole list, so a name the limit left out (already named by
    // TOO_MANY_TOOLS) is not also reported as unknown; deferred tools count toward the limit
    const deferredInList = deferredTools(prepared, options.deferLoading, warnings);
    const deferred = new Set(
      kept.filter((item) => deferredInList.has(item.tool)).map((item) => item.tool),
    );
    const entries: PreparedEntry<OpenAIResponsesTool>[] = kept.map((item) =>
      deferred.has(item.tool)
        ? { tool: item.tool, entry: { ...item.entry, defer_loading: true } }
        : item,
    );
    if (deferred.size > 0 && options.toolSearch === false && deferred.size === kept.length) {
      const first = entries[0]!;
      const { defer_loading: _deferLoading, ...loaded } = first.entry;
      entries[0] = { tool: first.tool, entry: loaded };
      warnings.push({
        code: 'DEFER_LOADING_KEPT_ONE',
        message: `every tool was deferred and no tool search tool was added; "${loaded.name}" stays loaded so the model has something to call`,
        tool: loaded.name,
      });
    }
    const payload: OpenAIResponsesToolEntry[] =
      options.namespaces === undefined || options.namespaces === false
        ? entries.map((item) => item.entry)
        : groupIntoNamespaces(entries, options.namespaces, context);
    if (deferred.size > 0 && options.toolSearch !== false) {
      payload.unshift(
        options.toolSearch === 'client'
          ? structuredClone(OPENAI_CLIENT_TOOL_SEARCH)
          : { type: 'tool_search' },
      );
    }
    return { payload, tools: limited.tools, warnings };
  },
};

/** One namespace per group, at its first tool's place; tools outside a group stay top-level. */
function groupIntoNamespaces(
  entries: readonly PreparedEntry<OpenAIResponsesTool>[],
  namespaces: Exclude<OpenAIResponsesOptions['namespaces'], false | undefined>,
  context: TranslationContext,
): OpenAIResponsesToolEntry[] {
  const payload: OpenAIResponsesToolEntry[] = [];
  const byGroup = new Map<string, OpenAINamespaceTool>();
  for (const { tool, entry } of entries) {
    const group = groupOf(tool);
    if (group === null) {
      payload.push(entry);
      continue;
    }
    let namespace = byGroup.get(group);
    if (namespace === undefined) {
      namespace = {
        type: 'namespace',
        name: group,
        description: namespaceDescription(group, namespaces, context),
        tools: [],
      };
      byGroup.set(group, namespace);
      payload.push(namespace);
    }
    namespace.tools.push(entry);
  }
  return payload;
}

function namespaceDescription(
  group: string,
  namespaces: true | Readonly<Record<string, string>>,
  context: TranslationContext,
): string {
  const given =
    namespaces === true || !Object.hasOwn(namespaces, group)
      ? context.describeGroup?.(group)
      : namespaces[group];
  return typeof given === 'string' && given.trim() !== ''
    ? given.trim()
    : `Tools of the ${group} group.`;
}
