/**
 * Type-level proof that every payload is what the official SDKs accept: the assignments below
 * are checked by `tsc -p tsconfig.json --noEmit` (test/ is part of that project). A payload type
 * that drifts from the SDK type fails the typecheck, not just this test.
 */
import type {
  MessageCreateParamsBase,
  ToolUnion,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { FunctionDeclaration, Tool as GeminiSdkTool, Type } from '@google/genai';
import type { Tool as McpSdkTool } from '@modelcontextprotocol/sdk/types.js';
import type {
  ChatCompletionCreateParamsBase,
  ChatCompletionTool,
} from 'openai/resources/chat/completions/completions';
import type {
  ResponseCreateParamsBase,
  Tool as ResponsesTool,
} from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import type { TranslationResult } from '../../src/providers/provider-types.js';
import { translate } from '../../src/providers/translate.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';

/**
 * The Gemini SDK types `Schema.type` as the TypeScript enum `Type`, and TypeScript never lets a
 * string literal (our JSON) be assigned to an enum. This maps the enum to its string values
 * (`${Type}` = "STRING" | "NUMBER" | ...), and changes nothing else.
 */
type WithEnumValues<T> = T extends Type
  ? `${Type}`
  : T extends (infer Element)[]
    ? WithEnumValues<Element>[]
    : T extends object
      ? { [Key in keyof T]: WithEnumValues<T[Key]> }
      : T;

// each function compiles only if the payload is assignable to the SDK type
function openAIChatTools(result: TranslationResult<'openai'>): ChatCompletionTool[] {
  const request: Pick<ChatCompletionCreateParamsBase, 'tools'> = { tools: result.payload };
  return request.tools ?? [];
}

function openAIResponsesTools(result: TranslationResult<'openai-responses'>): ResponsesTool[] {
  const request: Pick<ResponseCreateParamsBase, 'tools'> = { tools: result.payload };
  return request.tools ?? [];
}

function anthropicTools(result: TranslationResult<'anthropic'>): ToolUnion[] {
  const request: Pick<MessageCreateParamsBase, 'tools'> = { tools: result.payload };
  return request.tools ?? [];
}

function geminiTools(result: TranslationResult<'google'>): WithEnumValues<GeminiSdkTool>[] {
  const declarations: WithEnumValues<FunctionDeclaration>[] = result.payload.flatMap(
    (tool) => tool.functionDeclarations,
  );
  expect(declarations).toBeDefined();
  return result.payload;
}

function mcpTools(result: TranslationResult<'mcp'>): McpSdkTool[] {
  return result.payload;
}

describe('payload types match the official SDK types', () => {
  it('typechecks (see tsc) and the functions accept real payloads', async () => {
    const registry = await loadRegistry({ dirs: ['schemas'], strict: true });
    const tools = registry.list();
    expect(openAIChatTools(translate(tools, 'openai'))).toHaveLength(16);
    expect(
      openAIResponsesTools(translate(tools, 'openai-responses', { deferLoading: true })),
    ).toHaveLength(17);
    expect(
      anthropicTools(translate(tools, 'anthropic', { deferLoading: true, cacheControl: true })),
    ).toHaveLength(17);
    expect(geminiTools(translate(tools, 'google'))).toHaveLength(1);
    expect(mcpTools(translate(tools, 'mcp'))).toHaveLength(16);
  });
});
