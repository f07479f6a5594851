import type { Warning } from '../format/types.js';
import { deriveAnnotations } from './derive-annotations.js';
import { assembleInOrder, type ProviderTranslator } from './provider-translator.js';
import type { McpTool } from './provider-types.js';
import { prepareDescription } from './tool-description.js';

/**
 * MCP `tools/list` entries: `{ name, title, description, inputSchema, outputSchema, annotations }`.
 * Schemas pass unchanged (MCP takes any JSON Schema 2020-12 with an object root). Annotations the
 * tool does not set are derived from its category (`deriveAnnotations`). An `output_schema` whose
 * root is not an object is left out with a warning (MCP structured content is an object).
 */
export const mcpTranslator: ProviderTranslator<'mcp', McpTool> = {
  prepareTool(tool, options) {
    const warnings: Warning[] = [];
    const description = prepareDescription(tool.description, tool.name, warnings);
    const annotations =
      options.deriveAnnotations === false
        ? tool.annotations
        : deriveAnnotations(tool.category, tool.annotations);
    let outputSchema: McpTool['outputSchema'];
    if (tool.output_schema !== undefined) {
      if (tool.output_schema.type === 'object') {
        outputSchema = tool.output_schema as McpTool['outputSchema'];
      } else {
        warnings.push({
          code: 'OUTPUT_SCHEMA_DROPPED',
          message: `MCP outputSchema must describe an object (structuredContent is a JSON object); this output_schema has type ${JSON.stringify(tool.output_schema.type ?? null)} and was left out`,
          tool: tool.name,
          pointer: '',
        });
      }
    }
    const entry: McpTool = {
      name: tool.name,
      ...(tool.title === undefined ? {} : { title: tool.title }),
      ...(description === undefined ? {} : { description }),
      inputSchema: tool.input_schema as McpTool['inputSchema'],
      ...(outputSchema === undefined ? {} : { outputSchema }),
      ...(annotations === undefined ? {} : { annotations: { ...annotations } }),
    };
    return { entry, warnings };
  },
  assemble: assembleInOrder,
};
