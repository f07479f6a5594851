import type { ModelMessage, StepResult, ToolSet } from 'ai';
import { ToolcapError } from '../../errors/toolcap-error.js';
import type { Selection, SelectOptions } from '../../select/types.js';
import type { Registry } from '../../toolcap/registry.js';
import { checkOptions, isFunction, isObject, type OptionCheck } from '../../util/check-options.js';
import { turnFromMessages } from './turn-from-messages.js';

/** Options of `createPrepareStep`. */
export interface AiSdkPrepareStepOptions {
  /**
   * Options for `registry.select` (`maxTools`, `fallback`, `categories`, ...). The history comes
   * from the messages; the context defaults to the call's `experimental_context` when it is an
   * object.
   */
  select?: Omit<SelectOptions, 'history'>;
  /** Tools of the ToolSet that are not in the registry and stay active on every step. */
  alwaysActive?: readonly string[];
  /** Called with each step's selection (its reasons, dropped tools and warnings). */
  onSelection?: (selection: Selection, step: { stepNumber: number }) => void;
}

const isNameList: OptionCheck = (value) =>
  Array.isArray(value) && value.every((item) => typeof item === 'string')
    ? undefined
    : 'an array of tool names';

/**
 * What `createPrepareStep` returns: a `prepareStep` for `generateText`, `streamText` or agents.
 * Generic over the call's ToolSet (inferred from its `steps`), so a ToolSet that spreads typed
 * code tools beside `createAiSdkTools` typechecks.
 */
export type AiSdkPrepareStep = <TOOLS extends ToolSet = ToolSet>(
  step: AiSdkStep<TOOLS>,
) => { activeTools: Array<keyof TOOLS & string> };

/** What a `prepareStep` receives, as far as `createPrepareStep` reads it. */
export interface AiSdkStep<TOOLS extends ToolSet = ToolSet> {
  messages: ModelMessage[];
  stepNumber: number;
  experimental_context: unknown;
  /** The steps so far: only their type is used, to infer the ToolSet. */
  steps?: ReadonlyArray<StepResult<TOOLS>>;
}

/**
 * A Vercel AI SDK `prepareStep` that narrows each step to the tools `registry.select` picks:
 * `activeTools` is the selection's names (plus `alwaysActive`), for the last user message with
 * the conversation so far as `history` (earlier user messages, and tool calls as `{ tool }`
 * entries, this turn's earlier steps included), so a group stays offered while the model works
 * with it. Use it with the full `createAiSdkTools` ToolSet.
 */
export function createPrepareStep(
  registry: Registry,
  options: AiSdkPrepareStepOptions = {},
): AiSdkPrepareStep {
  checkOptions('createPrepareStep', options, {
    select: isObject,
    alwaysActive: isNameList,
    onSelection: isFunction,
  });
  const select = options.select ?? {};
  if (Object.hasOwn(select, 'history')) {
    throw new ToolcapError(
      'INVALID_OPTION',
      'createPrepareStep: option "select.history" is not used: the history comes from the step messages; remove it',
    );
  }
  // a bad select option fails here, not at the first step of a conversation
  registry.select('', select);
  const alwaysActive = options.alwaysActive ?? [];
  return <TOOLS extends ToolSet>({
    messages,
    stepNumber,
    experimental_context,
  }: AiSdkStep<TOOLS>) => {
    const { message, history } = turnFromMessages(messages);
    const context =
      select.context ??
      (isObject(experimental_context) === undefined
        ? (experimental_context as Readonly<Record<string, unknown>>)
        : {});
    const selection = registry.select(message, { ...select, context, history });
    options.onSelection?.(selection, { stepNumber });
    // the names are the ToolSet's keys when it holds the registry's tools and `alwaysActive`
    const activeTools = [
      ...selection.names,
      ...alwaysActive.filter((name) => !registry.has(name)),
    ] as Array<keyof TOOLS & string>;
    return { activeTools };
  };
}
