import { type JSONSchema7, jsonSchema, type ModelMessage, type Tool, type ToolSet, tool } from 'ai';
import type { JsonValue, RegisteredTool } from '../../format/types.js';
import type { Registry } from '../../toolcap/registry.js';
import { checkOptions } from '../../util/check-options.js';
import {
  ADAPTER_TOOL_OPTIONS,
  type AdapterToolOptions,
  callContext,
  callOptions,
  NEEDS_APPROVAL_OPTION,
} from '../adapter-options.js';
import { pickTools } from '../pick-tools.js';
import { ToolCallFailure } from '../tool-call-failure.js';

/** Options of `createAiSdkTools`. The default context is the call's `experimental_context`. */
export interface AiSdkToolsOptions extends AdapterToolOptions {
  /**
   * The AI SDK's tool approval: calls for which this returns true stop the loop with a
   * `tool-approval-request` instead of running. Default: no approval.
   */
  needsApproval?: (
    tool: RegisteredTool,
    input: unknown,
    call: AiSdkApprovalCall,
  ) => boolean | PromiseLike<boolean>;
}

/** What the AI SDK tells an approval check about the call. */
export interface AiSdkApprovalCall {
  toolCallId: string;
  messages: ModelMessage[];
  experimental_context?: unknown;
}

/**
 * A Vercel AI SDK `ToolSet` of the registry's tools: each tool's JSON Schema through the SDK's
 * `jsonSchema()` (validation is left to `registry.execute`, which drops nulls sent for optional
 * parameters), its `title` and its `examples` as `inputExamples`, and an `execute` that runs
 * `registry.execute` with the SDK's abort signal. A failed call throws a ToolcapError whose
 * message (`CODE: message`) the SDK sends to the model as the tool's error result. Pair it with
 * `createPrepareStep` to offer each step only the tools `registry.select` picks.
 */
export function createAiSdkTools(registry: Registry, options: AiSdkToolsOptions = {}): ToolSet {
  checkOptions('createAiSdkTools', options, { ...ADAPTER_TOOL_OPTIONS, ...NEEDS_APPROVAL_OPTION });
  // no prototype: a model calling "constructor" finds no tool
  const tools: ToolSet = Object.create(null) as ToolSet;
  for (const definition of pickTools(registry, options.tools, 'createAiSdkTools')) {
    tools[definition.name] = toAiSdkTool(registry, definition, options);
  }
  return tools;
}

function toAiSdkTool(
  registry: Registry,
  definition: RegisteredTool,
  options: AiSdkToolsOptions,
): Tool<unknown, JsonValue> {
  const { needsApproval } = options;
  return tool<unknown, JsonValue>({
    description: definition.description,
    ...(definition.title === undefined ? {} : { title: definition.title }),
    inputSchema: jsonSchema<unknown>(structuredClone(definition.input_schema) as JSONSchema7),
    ...(definition.examples === undefined
      ? {}
      : { inputExamples: definition.examples.map((example) => ({ input: example })) }),
    ...(needsApproval === undefined
      ? {}
      : { needsApproval: (input, call) => needsApproval(definition, input, call) }),
    execute: async (input, call) => {
      const result = await registry.execute(
        definition.name,
        input,
        callContext(options.context, call.experimental_context),
        callOptions(options.executeOptions, call.abortSignal),
      );
      if (!result.ok) throw new ToolCallFailure(definition.name, result.error);
      return result.output;
    },
  });
}
