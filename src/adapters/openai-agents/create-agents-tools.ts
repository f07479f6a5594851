import { type FunctionTool, type RunContext, tool } from '@openai/agents';
import type { JsonValue, RegisteredTool } from '../../format/types.js';
import type { Registry } from '../../toolcap/registry.js';
import { checkOptions } from '../../util/check-options.js';
import { errorMessage } from '../../util/error-message.js';
import {
  ADAPTER_TOOL_OPTIONS,
  type AdapterToolOptions,
  callContext,
  callOptions,
  NEEDS_APPROVAL_OPTION,
} from '../adapter-options.js';
import { pickTools } from '../pick-tools.js';
import { ToolCallFailure } from '../tool-call-failure.js';

/** Options of `createAgentsTools`. The default context is the run's context (`run(agent, input, { context })`). */
export interface AgentsToolsOptions extends AdapterToolOptions {
  /**
   * The SDK's human-in-the-loop approval: calls for which this returns true interrupt the run
   * with a `RunToolApprovalItem` until you approve or reject them. Default: no approval.
   */
  needsApproval?: (
    tool: RegisteredTool,
    input: unknown,
    call: { runContext: RunContext<unknown>; callId: string | undefined },
  ) => boolean | Promise<boolean>;
}

type JsonParameters = Extract<Parameters<typeof tool>[0], { strict: false }>['parameters'];

/**
 * OpenAI Agents SDK function tools for the registry's tools. Each tool's name, description and
 * parameters are its `openai` translation (`registry.translate`), and strict mode is on exactly
 * where the translator made the schema strict-compatible. `execute` runs `registry.execute`
 * with the call's abort signal; a failed call becomes the tool output the model reads
 * (`CODE: message`) through the tool's `errorFunction`.
 */
export function createAgentsTools(
  registry: Registry,
  options: AgentsToolsOptions = {},
): FunctionTool<unknown, JsonParameters, JsonValue>[] {
  checkOptions('createAgentsTools', options, { ...ADAPTER_TOOL_OPTIONS, ...NEEDS_APPROVAL_OPTION });
  return pickTools(registry, options.tools, 'createAgentsTools').map((definition) =>
    toAgentsTool(registry, definition, options),
  );
}

function toAgentsTool(
  registry: Registry,
  definition: RegisteredTool,
  options: AgentsToolsOptions,
): FunctionTool<unknown, JsonParameters, JsonValue> {
  // one tool at a time: the OpenAI translation of a whole list stops at 128 tools
  const [translated] = registry.translate([definition], 'openai').payload;
  const { name, description, parameters, strict } = translated!.function;
  const { needsApproval } = options;
  return tool<JsonParameters, unknown, JsonValue>({
    name,
    description: description ?? '',
    parameters: parameters as JsonParameters,
    // the SDK types strict and non-strict JSON schemas apart; ours is the translator's choice
    strict: strict as false,
    ...(needsApproval === undefined
      ? {}
      : {
          needsApproval: async (runContext: RunContext<unknown>, input: unknown, callId?: string) =>
            needsApproval(definition, input, { runContext, callId }),
        }),
    execute: async (
      input: unknown,
      runContext?: RunContext<unknown>,
      details?: { signal?: AbortSignal },
    ) => {
      const result = await registry.execute(
        definition.name,
        input,
        callContext(options.context, runContext?.context),
        callOptions(options.executeOptions, details?.signal),
      );
      if (!result.ok) throw new ToolCallFailure(definition.name, result.error);
      return result.output;
    },
    // a ToolCallFailure's message is the model's text: `CODE: message`
    errorFunction: (_runContext, error) => errorMessage(error),
  }) as FunctionTool<unknown, JsonParameters, JsonValue>;
}
