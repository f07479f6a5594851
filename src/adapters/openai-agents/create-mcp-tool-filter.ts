import type { MCPToolFilterCallable, MCPToolFilterContext } from '@openai/agents';
import { ToolcapError } from '../../errors/toolcap-error.js';
import { toCanonicalToolName } from '../../providers/import/to-canonical-tool-name.js';
import type { HistoryEntry, SelectOptions } from '../../select/types.js';
import type { Registry } from '../../toolcap/registry.js';
import { checkOptions, isFunction, isObject, type OptionCheck } from '../../util/check-options.js';

/**
 * Options of `createMcpToolFilter`. `TContext` is the type of the run's context
 * (`run(agent, input, { context })`), which `message` and `history` read.
 */
export interface McpToolFilterOptions<TContext = unknown> {
  /** The turn's user message, read from the run, e.g. `({ runContext }) => runContext.context.message`. */
  message: (context: MCPToolFilterContext<TContext>) => string;
  /** Earlier turns (oldest first), read from the run. Default: none. */
  history?: (context: MCPToolFilterContext<TContext>) => readonly HistoryEntry[];
  /**
   * Options for `registry.select`. The context defaults to the run's context when it is an
   * object.
   */
  select?: Omit<SelectOptions, 'history'>;
  /**
   * MCP tools the registry does not describe: `allow` (default) lists them on every turn,
   * `block` hides them.
   */
  unknownTools?: 'allow' | 'block';
}

const isPolicy: OptionCheck = (value) =>
  value === 'allow' || value === 'block' ? undefined : '"allow" or "block"';

/**
 * A `toolFilter` for the OpenAI Agents SDK's MCP servers that lists, on each turn, only the
 * server tools `registry.select` picks for the turn's message. Describe the server's tools in a
 * group file (`toolcap import --from mcp`); MCP names that are not valid tool names (`add-task`)
 * match the name the import gives them (`add_task`). The selection is made once per run
 * context and message. Do not combine it with `cacheToolsList: true`: the SDK would keep the
 * first turn's list. Name the run's context type to read it in `message` and `history`:
 * `createMcpToolFilter<{ message: string }>(registry, { message: ({ runContext }) =>
 * runContext.context.message })`.
 */
export function createMcpToolFilter<TContext = unknown>(
  registry: Registry,
  options: McpToolFilterOptions<TContext>,
): MCPToolFilterCallable {
  checkOptions('createMcpToolFilter', options, {
    message: isFunction,
    history: isFunction,
    select: isObject,
    unknownTools: isPolicy,
  });
  if (typeof options?.message !== 'function') {
    throw new ToolcapError(
      'INVALID_OPTION',
      'createMcpToolFilter: option "message" is required: a function that reads the turn\'s user message from the run, such as ({ runContext }) => runContext.context.message',
    );
  }
  const select = options.select ?? {};
  // a bad select option fails here, not in the middle of a run
  registry.select('', select);
  const allowUnknown = options.unknownTools !== 'block';
  const turns = new WeakMap<object, { key: string; names: ReadonlySet<string> }>();

  const selectedNames = (context: MCPToolFilterContext<TContext>): ReadonlySet<string> => {
    const message = options.message(context);
    const history = options.history?.(context) ?? [];
    const key = JSON.stringify([message, history]);
    const cached = turns.get(context.runContext);
    if (cached?.key === key) return cached.names;
    const runContext = context.runContext.context;
    const selection = registry.select(message, {
      ...select,
      context:
        select.context ??
        (isObject(runContext) === undefined ? (runContext as Record<string, unknown>) : {}),
      history,
    });
    const names = new Set(selection.names);
    turns.set(context.runContext, { key, names });
    return names;
  };

  // typed as the servers' `toolFilter` (any context): the run's context is the caller's TContext
  return async (context, tool) => {
    const name = registry.has(tool.name) ? tool.name : toCanonicalToolName(tool.name);
    if (!registry.has(name)) return allowUnknown;
    return selectedNames(context as MCPToolFilterContext<TContext>).has(name);
  };
}
