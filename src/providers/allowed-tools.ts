import { ToolcapError } from '../errors/toolcap-error.js';
import { suggestProviderId } from '../format/provider-ids.js';
import { checkOptions, describeValue, isObject, type OptionCheck } from '../util/check-options.js';

/** How the model may use the allowed tools: `auto` may answer in text, `required` must call one. */
export type AllowedToolsMode = 'auto' | 'required';

/** OpenAI Chat Completions `tool_choice` that narrows the turn to some tools (SDK `ChatCompletionAllowedToolChoice`). */
export interface OpenAIChatAllowedToolChoice {
  type: 'allowed_tools';
  allowed_tools: {
    mode: AllowedToolsMode;
    tools: { type: 'function'; function: { name: string } }[];
  };
}

/** OpenAI Responses `tool_choice` that narrows the turn to some tools (SDK `ToolChoiceAllowed`). */
export interface OpenAIResponsesAllowedToolChoice {
  type: 'allowed_tools';
  mode: AllowedToolsMode;
  tools: { type: 'function'; name: string }[];
}

/**
 * Gemini's request `toolConfig` (SDK `ToolConfig`) that narrows the turn to some tools:
 * `VALIDATED` lets the model answer in text or call one of `allowedFunctionNames`, `ANY` makes
 * it call one; `NONE` allows no call.
 */
export interface GeminiAllowedToolConfig {
  functionCallingConfig:
    | { mode: 'VALIDATED' | 'ANY'; allowedFunctionNames: string[] }
    | { mode: 'NONE' };
}

/**
 * What narrows tools natively, per provider: OpenAI's `tool_choice` (`"none"` for no tools),
 * Gemini's `toolConfig`.
 */
export interface AllowedToolChoiceMap {
  openai: OpenAIChatAllowedToolChoice | 'none';
  'openai-responses': OpenAIResponsesAllowedToolChoice | 'none';
  google: GeminiAllowedToolConfig;
}

/** A provider with a native "these tools only" `tool_choice`. */
export type AllowedToolsProviderId = keyof AllowedToolChoiceMap;

/** Options of `allowedToolChoice`. */
export interface AllowedToolChoiceOptions {
  /** Default `"auto"`. */
  mode?: AllowedToolsMode;
}

const BUILDERS: {
  readonly [P in AllowedToolsProviderId]: (
    names: readonly string[],
    mode: AllowedToolsMode,
  ) => AllowedToolChoiceMap[P];
} = {
  google: (names, mode) => ({
    functionCallingConfig:
      names.length === 0
        ? { mode: 'NONE' }
        : { mode: mode === 'required' ? 'ANY' : 'VALIDATED', allowedFunctionNames: [...names] },
  }),
  openai: (names, mode) => ({
    type: 'allowed_tools',
    allowed_tools: { mode, tools: names.map((name) => ({ type: 'function', function: { name } })) },
  }),
  'openai-responses': (names, mode) => ({
    type: 'allowed_tools',
    mode,
    tools: names.map((name) => ({ type: 'function', name })),
  }),
};

/**
 * What lets the model call only a turn's selection while the request's `tools` stay the full,
 * unchanging list, so the prompt cache survives from turn to turn: for `openai` (Chat
 * Completions) and `openai-responses`, the `tool_choice` `{ type: "allowed_tools", ... }` in
 * that API's shape; for `google`, the `toolConfig` `{ functionCallingConfig: { mode,
 * allowedFunctionNames } }` (mode `VALIDATED` for `"auto"`, `ANY` for `"required"`). Each tool
 * is named once, in order. `selection` is a `Selection` (its `names`) or a list of names; an
 * empty one gives `"none"` (OpenAI; the API takes no empty list) or mode `NONE` (Gemini). The
 * names must be in the request's `tools`. Throws a `ToolcapError` (`INVALID_OPTION`) for another
 * provider, a `selection` that is neither, or an unknown `mode`.
 */
export function allowedToolChoice<P extends AllowedToolsProviderId>(
  provider: P,
  selection: readonly string[] | { readonly names: readonly string[] },
  options: AllowedToolChoiceOptions = {},
): AllowedToolChoiceMap[P] {
  if (typeof provider !== 'string' || !Object.hasOwn(BUILDERS, provider)) {
    throw new ToolcapError(
      'INVALID_OPTION',
      suggestProviderId(provider) === 'google' && provider !== 'google'
        ? `allowedToolChoice: ${describeValue(provider)} is not a provider id; Gemini's is "google"`
        : `allowedToolChoice: ${describeValue(provider)} has no allowed-tools setting; use "openai", "openai-responses" or "google" (for Anthropic and Bedrock, defer the tools outside the selection instead)`,
    );
  }
  const names = [...new Set(readNames(selection))];
  checkOptions('allowedToolChoice', options, { mode: isMode });
  if (names.length === 0 && provider !== 'google') return 'none' as AllowedToolChoiceMap[P];
  return (
    BUILDERS[provider] as (
      names: readonly string[],
      mode: AllowedToolsMode,
    ) => AllowedToolChoiceMap[P]
  )(names, options.mode ?? 'auto');
}

const isMode: OptionCheck = (value) =>
  value === 'auto' || value === 'required' ? undefined : '"auto" (the default) or "required"';

const isNames = (value: unknown): value is readonly string[] =>
  Array.isArray(value) && value.every((name) => typeof name === 'string');

/** The tool names of a selection or a list, or a `ToolcapError` for anything else. */
function readNames(selection: unknown): readonly string[] {
  if (isNames(selection)) return selection;
  if (isObject(selection) === undefined && isNames((selection as { names?: unknown }).names)) {
    return (selection as { names: readonly string[] }).names;
  }
  throw new ToolcapError(
    'INVALID_OPTION',
    `allowedToolChoice: the second argument must be an array of tool names or a Selection (an object whose names is an array of tool names), got ${describeValue(selection)}`,
  );
}
