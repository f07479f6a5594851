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
 * names must be in the request's `tools`.
 */
export function allowedToolChoice<P extends AllowedToolsProviderId>(
  provider: P,
  selection: readonly string[] | { readonly names: readonly string[] },
  options: AllowedToolChoiceOptions = {},
): AllowedToolChoiceMap[P] {
  if (typeof provider !== 'string' || !Object.hasOwn(BUILDERS, provider)) {
    throw new TypeError(
      `allowedToolChoice: ${JSON.stringify(provider)} has no allowed-tools setting; use "openai", "openai-responses" or "google" (for Anthropic and Bedrock, defer the tools outside the selection instead)`,
    );
  }
  const list: readonly string[] = Array.isArray(selection)
    ? selection
    : (selection as { names: readonly string[] }).names;
  const names = [...new Set(list)];
  if (names.length === 0 && provider !== 'google') return 'none' as AllowedToolChoiceMap[P];
  return (
    BUILDERS[provider] as (
      names: readonly string[],
      mode: AllowedToolsMode,
    ) => AllowedToolChoiceMap[P]
  )(names, options.mode ?? 'auto');
}
