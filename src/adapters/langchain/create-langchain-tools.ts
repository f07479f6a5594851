import { ToolMessage } from '@langchain/core/messages';
import {
  DynamicStructuredTool,
  ToolInputParsingException,
  type ToolRunnableConfig,
  type ToolSchemaBase,
} from '@langchain/core/tools';
import type { RegisteredTool } from '../../format/types.js';
import type { Registry } from '../../toolcap/registry.js';
import { checkOptions } from '../../util/check-options.js';
import {
  ADAPTER_TOOL_OPTIONS,
  type AdapterToolOptions,
  callContext,
  callOptions,
} from '../adapter-options.js';
import { pickTools } from '../pick-tools.js';
import { ToolCallFailure } from '../tool-call-failure.js';

/**
 * Options of `createLangChainTools`. The default context is the call's runtime context
 * (`config.context`: `tool.invoke(call, { context })`).
 */
export type LangChainToolsOptions = AdapterToolOptions;

/**
 * LangChain structured tools for the registry's tools, with each tool's JSON Schema as the
 * schema and a function that runs `registry.execute` with the run's abort signal. A failed call
 * invoked with a tool call becomes a `ToolMessage` with `status: "error"` and the text the model
 * reads (`CODE: message`); invoked with plain arguments, it throws a ToolcapError with that
 * message. Arguments LangChain's own schema check refuses go to `registry.execute` all the same,
 * so the model reads the registry's `INVALID_INPUT` (which field, what is wrong) instead of the
 * run failing with LangChain's bare "did not match expected schema".
 */
export function createLangChainTools(
  registry: Registry,
  options: LangChainToolsOptions = {},
): DynamicStructuredTool<ToolSchemaBase>[] {
  checkOptions('createLangChainTools', options, ADAPTER_TOOL_OPTIONS);
  return pickTools(registry, options.tools, 'createLangChainTools').map((definition) =>
    toLangChainTool(registry, definition, options),
  );
}

function toLangChainTool(
  registry: Registry,
  definition: RegisteredTool,
  options: LangChainToolsOptions,
): DynamicStructuredTool<ToolSchemaBase> {
  return new RegistryTool({
    name: definition.name,
    description: definition.description,
    schema: structuredClone(definition.input_schema) as ToolSchemaBase,
    func: async (input: unknown, _runManager, config?: ToolRunnableConfig) => {
      const result = await registry.execute(
        definition.name,
        input,
        callContext(options.context, config?.context),
        callOptions(options.executeOptions, config?.signal),
      );
      if (result.ok) return result.output;
      const failure = new ToolCallFailure(definition.name, result.error);
      const id = config?.toolCall?.id;
      if (id === undefined) throw failure;
      return new ToolMessage({
        content: failure.message,
        tool_call_id: id,
        name: definition.name,
        status: 'error',
      });
    },
  });
}

/** A structured tool whose refused arguments reach the registry's validation (see above). */
class RegistryTool extends DynamicStructuredTool<ToolSchemaBase> {
  override async call(
    arg: unknown,
    configArg?: Parameters<DynamicStructuredTool<ToolSchemaBase>['call']>[1],
    tags?: string[],
  ): Promise<unknown> {
    try {
      return await super.call(arg as never, configArg, tags);
    } catch (error) {
      if (!(error instanceof ToolInputParsingException)) throw error;
      // LangChain checked the arguments against the schema and refused them; the registry's
      // check gives the model a message it can act on (the callbacks see no run for it)
      const given = typeof configArg === 'object' && !Array.isArray(configArg) ? configArg : {};
      const toolCall = isToolCall(arg) ? arg : (given as ToolRunnableConfig).toolCall;
      const config = { ...given, ...(toolCall === undefined ? {} : { toolCall }) };
      const input = isToolCall(arg) ? arg.args : arg;
      const result: unknown = await this.func(input as never, undefined, config);
      const id = toolCall?.id;
      // the same answer as a call LangChain let through: a ToolMessage when called with a tool call
      if (id === undefined || result instanceof ToolMessage) return result;
      return new ToolMessage({
        status: 'success',
        content: typeof result === 'string' ? result : JSON.stringify(result),
        tool_call_id: id,
        name: this.name,
        ...(this.metadata === undefined ? {} : { metadata: this.metadata }),
      });
    }
  }
}

/** A LangChain tool call (`{ type: "tool_call", args, ... }`) given to `call` directly. */
function isToolCall(value: unknown): value is NonNullable<ToolRunnableConfig['toolCall']> {
  return (
    value !== null &&
    typeof value === 'object' &&
    (value as { type?: unknown }).type === 'tool_call'
  );
}
