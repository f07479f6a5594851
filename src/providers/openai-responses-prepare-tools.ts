import type { Warning } from '../format/types.js';
import { deferredTools } from './defer-loading.js';
import { limitOpenAITools, prepareOpenAIFunction } from './openai-function.js';
import type { ProviderTranslator } from './provider-translator.js';
import type { OpenAIResponsesTool, OpenAIResponsesToolEntry } from './provider-types.js';

/**
 * OpenAI Responses: the flat `{ type: "function", name, description, parameters, strict }`
 * (`strict` always explicit: when omitted, Responses silently normalizes), at most 128 tools;
 * with `deferLoading`, tools get `defer_loading: true` and the hosted `{ type: "tool_search" }`
 * tool is put in front.
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
  assemble(prepared, options) {
    const limited = limitOpenAITools(prepared);
    const warnings: Warning[] = [...limited.warnings];
    const kept = prepared.slice(0, limited.tools.length);
    const deferred = deferredTools(kept, options.deferLoading, warnings);
    if (deferred.size === 0) return { ...limited, warnings };
    const payload: OpenAIResponsesToolEntry[] = kept.map((item) =>
      deferred.has(item.tool) ? { ...item.entry, defer_loading: true } : item.entry,
    );
    if (options.toolSearch !== false) {
      payload.unshift({ type: 'tool_search' });
    } else if (deferred.size === kept.length && kept.length > 0) {
      const first = payload[0] as OpenAIResponsesTool;
      const { defer_loading: _deferLoading, ...loaded } = first;
      payload[0] = loaded;
      warnings.push({
        code: 'DEFER_LOADING_KEPT_ONE',
        message: `every tool was deferred and no tool search tool was added; "${first.name}" stays loaded so the model has something to call`,
        tool: first.name,
      });
    }
    return { payload, tools: limited.tools, warnings };
  },
};
