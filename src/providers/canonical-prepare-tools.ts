import { assembleInOrder, type ProviderTranslator } from './provider-translator.js';
import type { CanonicalTool } from './provider-types.js';

/** The canonical `{ name, description, parameters }`, schema unchanged (what an external tool's `--schema` prints). */
export const canonicalTranslator: ProviderTranslator<'canonical', CanonicalTool> = {
  prepareTool(tool) {
    return {
      entry: { name: tool.name, description: tool.description, parameters: tool.input_schema },
      warnings: [],
    };
  },
  assemble: assembleInOrder,
};
