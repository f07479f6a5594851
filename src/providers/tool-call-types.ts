/**
 * The two halves of a provider round trip: the tool calls a response carries (read loosely:
 * what each provider's SDK returns, or the same JSON from a plain HTTP call) and the result
 * messages the next request takes. `test/providers/tool-call-sdk-types.test.ts` proves the SDK
 * types fit the input types and the output types fit the SDK's request types.
 */

import type { JsonValue, ToolDefinition } from '../format/types.js';
import type { OpenAINamespaceTool, OpenAIResponsesTool } from './provider-types.js';

/** The providers whose responses `executeToolCalls` reads (MCP and canonical have none). */
export const TOOL_CALL_PROVIDER_IDS = [
  'openai',
  'openai-responses',
  'anthropic',
  'google',
  'bedrock',
] as const;

/** A provider `executeToolCalls` accepts. */
export type ToolCallProviderId = (typeof TOOL_CALL_PROVIDER_IDS)[number];

// ---------------------------------------------------------------------------------------------
// what a response carries

/** One call read from a provider response, before it runs. */
export interface ProviderToolCall {
  /** `tool`: a function call; `tool_search`: a client-executed tool search (answered by search). */
  kind: 'tool' | 'tool_search';
  /** The provider's call id (generated for Gemini calls without one: `call_<position>`). */
  id: string;
  /** The function name (`""` when the provider sent none). */
  name: string;
  /** The arguments as sent: a JSON string (OpenAI) or a value (the others). */
  arguments: unknown;
  /** The provider sent no id and `id` was made up (Gemini): the answer must not echo it. */
  idGenerated?: true;
}

/** OpenAI Chat Completions: a `tool_calls` entry (function or custom). */
export interface OpenAIChatToolCallLike {
  id: string;
  type?: string;
  function?: { name: string; arguments: string };
  custom?: { name: string; input: string };
}

/** OpenAI Chat Completions: the assistant message. */
export interface OpenAIChatMessageLike {
  role?: string | undefined;
  content?: unknown;
  tool_calls?: readonly OpenAIChatToolCallLike[] | null | undefined;
}

/** OpenAI Chat Completions: the completion (its first choice is read) or its message. */
export type OpenAIChatResponseLike =
  | { choices: readonly { message: OpenAIChatMessageLike }[] }
  | OpenAIChatMessageLike;

/** OpenAI Responses: one output item. */
export interface OpenAIResponsesItemLike {
  type: string;
  call_id?: string | null | undefined;
  name?: string | undefined;
  arguments?: unknown;
  execution?: string | undefined;
}

/** OpenAI Responses: the response, its output items, or one output item. */
export type OpenAIResponsesResponseLike =
  | { output: readonly OpenAIResponsesItemLike[] }
  | readonly OpenAIResponsesItemLike[]
  | OpenAIResponsesItemLike;

/** Anthropic Messages: one content block. */
export interface AnthropicContentBlockLike {
  type: string;
  text?: string | undefined;
  id?: string | undefined;
  name?: string | undefined;
  input?: unknown;
}

/** Anthropic Messages: the message, or its content blocks. */
export type AnthropicResponseLike =
  | { content: readonly AnthropicContentBlockLike[] }
  | readonly AnthropicContentBlockLike[];

/** Gemini: one part of a `Content`. */
export interface GeminiPartLike {
  functionCall?:
    | {
        id?: string | undefined;
        name?: string | undefined;
        args?: Record<string, unknown> | undefined;
      }
    | undefined;
}

/** Gemini: a `Content`. */
export interface GeminiContentLike {
  parts?: readonly GeminiPartLike[] | undefined;
}

/** Gemini: the `GenerateContentResponse` (its first candidate is read) or a `Content`. */
export type GeminiResponseLike =
  | { candidates?: readonly { content?: GeminiContentLike | undefined }[] | undefined }
  | GeminiContentLike;

/** Bedrock Converse: one content block (only `toolUse` blocks are read). */
export interface BedrockContentBlockLike {
  text?: unknown;
  reasoningContent?: unknown;
  toolUse?:
    | {
        toolUseId?: string | undefined;
        name?: string | undefined;
        input?: unknown;
      }
    | undefined;
}

/** Bedrock Converse: a message. */
export interface BedrockMessageLike {
  content?: readonly BedrockContentBlockLike[] | undefined;
}

/** Bedrock Converse: the `ConverseResponse`, or its `output.message`. */
export type BedrockResponseLike =
  | { output?: { message?: BedrockMessageLike | undefined } | undefined }
  | BedrockMessageLike;

/** What `executeToolCalls(provider, response)` accepts, by provider. */
export interface ToolCallsResponseMap {
  openai: OpenAIChatResponseLike;
  'openai-responses': OpenAIResponsesResponseLike;
  anthropic: AnthropicResponseLike;
  google: GeminiResponseLike;
  bedrock: BedrockResponseLike;
}

// ---------------------------------------------------------------------------------------------
// what the next request takes

/** OpenAI Chat Completions: one `role: "tool"` message per call. */
export interface OpenAIChatToolMessage {
  role: 'tool';
  tool_call_id: string;
  content: string;
}

/** OpenAI Responses: a function call's output item. */
export interface OpenAIFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string;
}

/**
 * OpenAI Responses: the answer to a client-executed `tool_search_call`: the tools it loads,
 * each function marked `defer_loading: true` (in their namespaces when the request has them).
 */
export interface OpenAIToolSearchOutput {
  type: 'tool_search_output';
  execution: 'client';
  call_id: string;
  status: 'completed';
  tools: (OpenAIResponsesTool | OpenAINamespaceTool)[];
}

/** One item the Responses `input` takes after the response's own output items. */
export type OpenAIResponsesResultItem = OpenAIFunctionCallOutput | OpenAIToolSearchOutput;

/** Anthropic: a reference that loads a deferred tool's definition (tool search results). */
export interface AnthropicToolReferenceBlock {
  type: 'tool_reference';
  tool_name: string;
}

/** Anthropic: one call's result. `is_error` only on failures. */
export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string | AnthropicToolReferenceBlock[];
  is_error?: true;
}

/** Anthropic: the user message holding every result of one assistant turn. */
export interface AnthropicToolResultMessage {
  role: 'user';
  content: AnthropicToolResultBlock[];
}

/** Gemini: what a function returned (`output`) or how it failed (`error`), as the SDK documents. */
export type GeminiFunctionResult =
  | { output: JsonValue }
  | { error: { code: string; message: string } };

/** Gemini: one `functionResponse` part; `id` echoes the call's id when it had one. */
export interface GeminiFunctionResponsePart {
  functionResponse: { id?: string; name: string; response: GeminiFunctionResult };
}

/** Gemini: the `Content` holding every response of one model turn (role `user`). */
export interface GeminiFunctionResponseContent {
  role: 'user';
  parts: GeminiFunctionResponsePart[];
}

/** Bedrock Converse: one call's result; `status: "error"` only on failures. */
export interface BedrockToolResultBlock {
  toolResult: { toolUseId: string; content: { text: string }[]; status?: 'error' };
}

/** Bedrock Converse: the user message holding every result of one assistant turn. */
export interface BedrockToolResultMessage {
  role: 'user';
  content: BedrockToolResultBlock[];
}

/** The messages `executeToolCalls` returns, by provider: append them after the response's own. */
export interface ToolResultMessagesMap {
  openai: OpenAIChatToolMessage[];
  'openai-responses': OpenAIResponsesResultItem[];
  anthropic: AnthropicToolResultMessage[];
  google: GeminiFunctionResponseContent[];
  bedrock: BedrockToolResultMessage[];
}

// ---------------------------------------------------------------------------------------------
// from results to messages

/** What a result message needs of a call's outcome. */
export type CallResultLike =
  | { ok: true; output: JsonValue }
  | { ok: false; error: { code: string; message: string } };

/** A call next to its outcome; a tool-search call also carries the tools it loads. */
export interface ToolCallOutcome {
  call: ProviderToolCall;
  result: CallResultLike;
  /** For a tool search that ran: the tools found (possibly none). */
  loaded?: readonly ToolDefinition[];
}

// ---------------------------------------------------------------------------------------------
// reading a conversation

/**
 * A conversation message as far as selection history needs it: what a user wrote, or the
 * names of the tools the model called.
 */
export type ConversationMessage =
  | { role: 'user'; text: string }
  | { role: 'assistant'; tools: string[] };

/**
 * What a codec makes of one message of a request's conversation: a `ConversationMessage`,
 * undefined for a message that holds neither (a system prompt, tool results), or the problem
 * of a message the provider would refuse.
 */
export type ReadMessageResult = ConversationMessage | undefined | { problem: string };

/** Translates tools for the codec's provider (the registry's cached translator). */
export type TranslateLoadedTools = (tools: readonly ToolDefinition[]) => readonly unknown[];

/** One provider's round trip: read the calls of a response, write the results' messages. */
export interface ToolCallCodec<P extends ToolCallProviderId> {
  /**
   * The calls in `response`, in order. Throws a `ProviderResponseError` when `response` is not
   * something this provider returns.
   */
  readCalls(response: unknown): ProviderToolCall[];
  /** The messages that carry `outcomes` back to the model, in this provider's format. */
  writeResults(
    outcomes: readonly ToolCallOutcome[],
    translate: TranslateLoadedTools,
  ): ToolResultMessagesMap[P];
  /** The name of a client-side search tool this provider's calls use as a plain function. */
  readonly searchToolName?: string;
  /** The request field that holds the conversation (`messages`, `input`, `contents`). */
  readonly conversationField: string;
  /** What one message of that field looks like, for error messages. */
  readonly messageShape: string;
  /** Reads one message of the conversation (an object; the caller checks that). */
  readMessage(message: Record<string, unknown>): ReadMessageResult;
}
