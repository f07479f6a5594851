import type { JsonObject } from '../format/types.js';
import { checkPropertyNames, type PropertyNameRule } from '../json-schema/check-property-names.js';
import { flattenRootComposition } from '../json-schema/flatten-root-composition.js';
import { inlineRefs } from '../json-schema/inline-refs.js';
import { isPlainObject } from '../json-schema/schema-node.js';
import { createWarningSink } from '../json-schema/schema-warnings.js';
import { upgradeToDraft2020 } from '../json-schema/upgrade-to-draft-2020.js';
import { ANTHROPIC_PROPERTY_NAMES } from './anthropic-prepare-tools.js';
import type { ProviderTranslator } from './provider-translator.js';
import type { BedrockToolEntry, BedrockToolSpecEntry } from './provider-types.js';
import { prepareDescription } from './tool-description.js';

/** Bedrock Converse checks property keys with Anthropic's pattern and fails the request the same way. */
const BEDROCK_PROPERTY_NAMES: PropertyNameRule = {
  ...ANTHROPIC_PROPERTY_NAMES,
  effect:
    'Bedrock rejects the whole request with 400 "Property keys should match pattern", whichever tool has the key',
};

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
    // the API checks the keys of input_schema.properties (nested keys are not reported)
    if (isPlainObject(schema.properties)) {
      checkPropertyNames(schema.properties, '/properties', BEDROCK_PROPERTY_NAMES, sink);
    }
    const warnings = sink.finish(tool.name);
    const description = prepareDescription(tool.description, tool.name, warnings);
    const entry: BedrockToolSpecEntry = {
      toolSpec: {
        name: tool.name,
        ...(description === undefined ? {} : { description }),
        // a group file's schema is parsed JSON, and every rewrite above keeps it JSON data
        inputSchema: { json: schema as JsonObject },
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
