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

/** The `tool_choice` of each provider that narrows tools natively; `"none"` for no tools. */
export interface AllowedToolChoiceMap {
  openai: OpenAIChatAllowedToolChoice | 'none';
  'openai-responses': OpenAIResponsesAllowedToolChoice | 'none';
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
 * The `tool_choice` that lets the model call only a turn's selection while the request's
 * `tools` stay the full, unchanging list, so the prompt cache survives from turn to turn:
 * `{ type: "allowed_tools", ... }` in the shape of `provider` (`openai`: Chat Completions,
 * `openai-responses`: Responses), naming each tool once, in order. `selection` is a
 * `Selection` (its `names`) or a list of names; an empty one gives `"none"` (no tool may be
 * called, and the API takes no empty list). The names must be in the request's `tools`.
 */
export function allowedToolChoice<P extends AllowedToolsProviderId>(
  provider: P,
  selection: readonly string[] | { readonly names: readonly string[] },
  options: AllowedToolChoiceOptions = {},
): AllowedToolChoiceMap[P] {
  if (typeof provider !== 'string' || !Object.hasOwn(BUILDERS, provider)) {
    throw new TypeError(
      `allowedToolChoice: ${JSON.stringify(provider)} has no allowed-tools tool_choice; use "openai" or "openai-responses" (for Anthropic and Bedrock, defer the tools outside the selection instead)`,
    );
  }
  const list: readonly string[] = Array.isArray(selection)
    ? selection
    : (selection as { names: readonly string[] }).names;
  const names = [...new Set(list)];
  if (names.length === 0) return 'none' as AllowedToolChoiceMap[P];
  return (
    BUILDERS[provider] as (
      names: readonly string[],
      mode: AllowedToolsMode,
    ) => AllowedToolChoiceMap[P]
  )(names, options.mode ?? 'auto');
}
