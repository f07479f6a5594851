import type { ToolDefinition } from '../format/types.js';
import { flattenRootComposition } from '../json-schema/flatten-root-composition.js';
import { inlineRefs } from '../json-schema/inline-refs.js';
import { createWarningSink } from '../json-schema/schema-warnings.js';
import { toGeminiSchema } from '../json-schema/to-gemini-schema.js';
import { upgradeToDraft2020 } from '../json-schema/upgrade-to-draft-2020.js';
import type { PreparedTool, ProviderTranslator } from './provider-translator.js';
import type { GeminiFunctionDeclaration, GeminiTool } from './provider-types.js';
import { prepareDescription } from './tool-description.js';

/**
 * Google Gemini: `[{ functionDeclarations: [{ name, description, parameters }] }]` with
 * `parameters` in Gemini's OpenAPI subset (see `toGeminiSchema`), `$ref`s inlined (recursion
 * unrolled), and no `parameters` at all for tools without parameters. An empty tool list gives `[]`.
 * With `parametersJsonSchema: true`, the JSON Schema goes in `parametersJsonSchema` instead:
 * draft-07 constructs upgraded, the root a plain object, `$ref`s and `$defs` kept, `$schema`
 * left out.
 */
export const googleTranslator: ProviderTranslator<'google', GeminiFunctionDeclaration> = {
  prepareTool(tool, options) {
    if (options.parametersJsonSchema === true) return prepareJsonSchemaDeclaration(tool);
    const sink = createWarningSink();
    let schema = upgradeToDraft2020(tool.input_schema, sink);
    schema = inlineRefs(
      schema,
      sink,
      options.recursionDepth === undefined ? {} : { recursionDepth: options.recursionDepth },
    );
    schema = flattenRootComposition(schema, sink);
    const parameters = toGeminiSchema(schema, sink);
    const warnings = sink.finish(tool.name);
    const description = prepareDescription(tool.description, tool.name, warnings);
    const entry: GeminiFunctionDeclaration = {
      name: tool.name,
      ...(description === undefined ? {} : { description }),
      ...(parameters === undefined ? {} : { parameters }),
    };
    return { entry, warnings };
  },
  assemble(prepared) {
    const payload: GeminiTool[] =
      prepared.length === 0 ? [] : [{ functionDeclarations: prepared.map((item) => item.entry) }];
    return { payload, tools: prepared.map((item) => item.tool), warnings: [] };
  },
};

/** The declaration with `parametersJsonSchema` (absent when the tool has no parameters). */
function prepareJsonSchemaDeclaration(
  tool: ToolDefinition,
): PreparedTool<GeminiFunctionDeclaration> {
  const sink = createWarningSink();
  const { $schema: _dialect, ...schema } = flattenRootComposition(
    upgradeToDraft2020(tool.input_schema, sink),
    sink,
  );
  const warnings = sink.finish(tool.name);
  const description = prepareDescription(tool.description, tool.name, warnings);
  const properties = schema.properties;
  const hasParameters =
    properties !== null && typeof properties === 'object' && Object.keys(properties).length > 0;
  const entry: GeminiFunctionDeclaration = {
    name: tool.name,
    ...(description === undefined ? {} : { description }),
    ...(hasParameters ? { parametersJsonSchema: schema } : {}),
  };
  return { entry, warnings };
}
