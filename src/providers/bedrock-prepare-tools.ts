import { flattenRootComposition } from '../json-schema/flatten-root-composition.js';
import { inlineRefs } from '../json-schema/inline-refs.js';
import { createWarningSink } from '../json-schema/schema-warnings.js';
import { upgradeToDraft2020 } from '../json-schema/upgrade-to-draft-2020.js';
import type { ProviderTranslator } from './provider-translator.js';
import type { BedrockToolEntry, BedrockToolSpecEntry } from './provider-types.js';
import { prepareDescription } from './tool-description.js';

/**
 * AWS Bedrock Converse: `[{ toolSpec: { name, description, inputSchema: { json } } }]`. The
 * description is omitted when empty (Bedrock requires length >= 1); `$ref`s are inlined because
 * not every Bedrock model resolves them; the root is a plain object ("...inputSchema.json.type
 * must be one of the following: object"). `cachePoint: true` appends a cache checkpoint.
 */
export const bedrockTranslator: ProviderTranslator<'bedrock', BedrockToolSpecEntry> = {
  prepareTool(tool, options) {
    const sink = createWarningSink();
    let schema = upgradeToDraft2020(tool.input_schema, sink);
    schema = inlineRefs(
      schema,
      sink,
      options.recursionDepth === undefined ? {} : { recursionDepth: options.recursionDepth },
    );
    schema = flattenRootComposition(schema, sink);
    const warnings = sink.finish(tool.name);
    const description = prepareDescription(tool.description, tool.name, warnings);
    const entry: BedrockToolSpecEntry = {
      toolSpec: {
        name: tool.name,
        ...(description === undefined ? {} : { description }),
        inputSchema: { json: schema },
      },
    };
    return { entry, warnings };
  },
  assemble(prepared, options) {
    const payload: BedrockToolEntry[] = prepared.map((item) => item.entry);
    if (options.cachePoint === true && payload.length > 0) {
      payload.push({ cachePoint: { type: 'default' } });
    }
    return { payload, tools: prepared.map((item) => item.tool), warnings: [] };
  },
};
