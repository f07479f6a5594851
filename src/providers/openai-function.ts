import type { ToolDefinition, Warning } from '../format/types.js';
import { flattenRootComposition } from '../json-schema/flatten-root-composition.js';
import { inlineRefs } from '../json-schema/inline-refs.js';
import { createWarningSink } from '../json-schema/schema-warnings.js';
import { toOpenAISchema } from '../json-schema/to-openai-schema.js';
import { upgradeToDraft2020 } from '../json-schema/upgrade-to-draft-2020.js';
import type { AssembledTools, PreparedEntry } from './provider-translator.js';
import type { OpenAIChatOptions } from './provider-types.js';
import { prepareDescription } from './tool-description.js';

/** Most tools one OpenAI request takes ("array too long ... maximum length 128"). */
export const OPENAI_MAX_TOOLS = 128;
/** Longest function description OpenAI takes ("string too long ... maximum length 1024"). */
export const OPENAI_MAX_DESCRIPTION_LENGTH = 1024;

/** The parts of an OpenAI function tool, shared by Chat Completions and Responses. */
export interface OpenAIFunctionParts {
  name: string;
  description: string | undefined;
  parameters: Record<string, unknown>;
  strict: boolean;
  warnings: Warning[];
}

/**
 * Translates one tool's schema and description for OpenAI: draft-07 constructs upgraded,
 * `$ref`s inlined (recursion unrolled), the root made a plain object, then strict mode when
 * possible (see `toOpenAISchema`); the description is cut to 1,024 characters.
 */
export function prepareOpenAIFunction(
  tool: ToolDefinition,
  options: OpenAIChatOptions,
): OpenAIFunctionParts {
  const sink = createWarningSink();
  let schema = upgradeToDraft2020(tool.input_schema, sink);
  schema = inlineRefs(
    schema,
    sink,
    options.recursionDepth === undefined ? {} : { recursionDepth: options.recursionDepth },
  );
  schema = flattenRootComposition(schema, sink);
  const converted = toOpenAISchema(schema, sink, { strict: options.strict !== false });
  const warnings = sink.finish(tool.name);
  const description = prepareDescription(
    tool.description,
    tool.name,
    warnings,
    OPENAI_MAX_DESCRIPTION_LENGTH,
    'OpenAI',
  );
  return {
    name: tool.name,
    description,
    parameters: converted.schema,
    strict: converted.strict,
    warnings,
  };
}

/** Keeps the first 128 tools (selection order is priority order) and warns about the rest. */
export function limitOpenAITools<Entry>(
  prepared: readonly PreparedEntry<Entry>[],
): AssembledTools<Entry[]> {
  const kept = prepared.slice(0, OPENAI_MAX_TOOLS);
  const warnings: Warning[] = [];
  if (prepared.length > OPENAI_MAX_TOOLS) {
    const dropped = prepared.slice(OPENAI_MAX_TOOLS).map((item) => item.tool.name);
    warnings.push({
      code: 'TOO_MANY_TOOLS',
      message: `OpenAI accepts at most ${OPENAI_MAX_TOOLS} tools per request; ${dropped.length} were left out: ${dropped.join(', ')}. Select fewer tools (OpenAI suggests fewer than 20)`,
    });
  }
  return {
    payload: kept.map((item) => item.entry),
    tools: kept.map((item) => item.tool),
    warnings,
  };
}
