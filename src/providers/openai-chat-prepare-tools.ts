import { limitOpenAITools, prepareOpenAIFunction } from './openai-function.js';
import type { ProviderTranslator } from './provider-translator.js';
import type { OpenAIChatTool } from './provider-types.js';

/**
 * OpenAI Chat Completions: `{ type: "function", function: { name, description, parameters,
 * strict } }`, `strict` always explicit, at most 128 tools.
 */
export const openAIChatTranslator: ProviderTranslator<'openai', OpenAIChatTool> = {
  prepareTool(tool, options) {
    const parts = prepareOpenAIFunction(tool, options);
    const entry: OpenAIChatTool = {
      type: 'function',
      function: {
        name: parts.name,
        ...(parts.description === undefined ? {} : { description: parts.description }),
        parameters: parts.parameters,
        strict: parts.strict,
      },
    };
    return { entry, warnings: parts.warnings };
  },
  assemble: limitOpenAITools,
};
