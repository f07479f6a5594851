/**
 * Type-level proof that the round trip fits the official SDKs: what each SDK returns is
 * accepted by `executeToolCalls` (the `*Like` input types), and the messages it returns are
 * what each SDK's next request takes. Checked by `tsc -p tsconfig.json --noEmit` (test/ is part
 * of that project); the functions also run on the recorded responses of test/e2e.
 */

import type {
  Message as AnthropicMessage,
  ContentBlock,
  MessageParam,
  ToolUnion,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type {
  Message as BedrockMessage,
  Tool as BedrockSdkTool,
  ConverseResponse,
} from '@aws-sdk/client-bedrock-runtime';
import type { Content, FunctionDeclaration, GenerateContentResponse } from '@google/genai';
import type {
  ChatCompletion,
  ChatCompletionMessage,
  ChatCompletionMessageParam,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions/completions';
import type {
  Response,
  ResponseInputItem,
  ResponseOutputItem,
  Tool as ResponsesTool,
  ToolChoiceAllowed,
} from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { allowedToolChoice } from '../../src/providers/allowed-tools.js';
import type {
  ToolCallsResponseMap,
  ToolResultMessagesMap,
} from '../../src/providers/tool-call-types.js';
import { translate } from '../../src/providers/translate.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { recordedResponse } from '../e2e/conversation.js';

// ---------------------------------------------------------------------------------------------
// inputs: each SDK's response, and the message it holds, is a valid `response` argument

function chatInputs(completion: ChatCompletion, message: ChatCompletionMessage) {
  const inputs: ToolCallsResponseMap['openai'][] = [completion, message];
  return inputs;
}

function responsesInputs(response: Response, items: ResponseOutputItem[]) {
  const item = items[0];
  const inputs: ToolCallsResponseMap['openai-responses'][] = [response, items];
  if (item !== undefined) inputs.push(item);
  return inputs;
}

function anthropicInputs(message: AnthropicMessage, blocks: ContentBlock[]) {
  const inputs: ToolCallsResponseMap['anthropic'][] = [message, blocks];
  return inputs;
}

function geminiInputs(response: GenerateContentResponse, content: Content) {
  const inputs: ToolCallsResponseMap['google'][] = [response, content];
  return inputs;
}

function bedrockInputs(response: ConverseResponse, message: BedrockMessage) {
  const inputs: ToolCallsResponseMap['bedrock'][] = [response, message];
  return inputs;
}

// ---------------------------------------------------------------------------------------------
// outputs: the returned messages go straight into each SDK's next request

function chatMessages(messages: ToolResultMessagesMap['openai']): ChatCompletionMessageParam[] {
  return messages;
}

function responsesItems(items: ToolResultMessagesMap['openai-responses']): ResponseInputItem[] {
  return items;
}

function anthropicMessages(messages: ToolResultMessagesMap['anthropic']): MessageParam[] {
  return messages;
}

function geminiContents(contents: ToolResultMessagesMap['google']): Content[] {
  return contents;
}

function bedrockMessages(messages: ToolResultMessagesMap['bedrock']): BedrockMessage[] {
  return messages;
}

// ---------------------------------------------------------------------------------------------
// delivery: tool_choice values and the new payload shapes

function chatToolChoice(names: string[]): ChatCompletionToolChoiceOption {
  return allowedToolChoice('openai', names);
}

function responsesToolChoice(names: string[]): ToolChoiceAllowed | 'none' {
  return allowedToolChoice('openai-responses', names);
}

function deliveryPayloads(registry: Awaited<ReturnType<typeof loadRegistry>>) {
  const tools = registry.list();
  const names = tools.map((tool) => tool.name);
  const responses: ResponsesTool[] = registry.translate(tools, 'openai-responses', {
    namespaces: true,
    deferLoading: names.slice(2),
    toolSearch: 'client',
  }).payload;
  const anthropic: ToolUnion[] = translate(tools, 'anthropic', {
    deferLoading: names.slice(2),
    toolSearch: 'client',
    inputExamples: true,
  }).payload;
  // in this mode there is no `parameters` (whose `type` the Gemini SDK types as an enum)
  const gemini: FunctionDeclaration[] = translate(tools, 'google', {
    parametersJsonSchema: true,
  })
    .payload.flatMap((tool) => tool.functionDeclarations)
    .map(({ parameters: _parameters, ...declaration }) => declaration);
  // the Bedrock SDK types a schema as its DocumentType: the payload is its Tool[], no cast
  const bedrock: BedrockSdkTool[] = translate(tools, 'bedrock', { cachePoint: true }).payload;
  return { responses, anthropic, gemini, bedrock };
}

describe('the round trip matches the official SDK types', () => {
  it('typechecks (see tsc), and the functions accept the recorded responses', async () => {
    const chat = (await recordedResponse('openai', 3)) as ChatCompletion;
    expect(chatInputs(chat, chat.choices[0]!.message)).toHaveLength(2);
    const responses = (await recordedResponse('openai-responses', 3)) as Response;
    expect(responsesInputs(responses, responses.output)).toHaveLength(3);
    const anthropic = (await recordedResponse('anthropic', 3)) as AnthropicMessage;
    expect(anthropicInputs(anthropic, anthropic.content)).toHaveLength(2);
    const gemini = (await recordedResponse('google', 3)) as GenerateContentResponse;
    expect(geminiInputs(gemini, gemini.candidates![0]!.content!)).toHaveLength(2);
    const bedrock = (await recordedResponse('bedrock', 3)) as ConverseResponse;
    expect(bedrockInputs(bedrock, bedrock.output!.message!)).toHaveLength(2);

    const registry = await loadRegistry({ dirs: ['schemas'], strict: true });
    const context = { user_id: 'types' };
    const denyAll = { approve: () => false, needsApproval: true };
    expect(
      chatMessages((await registry.executeToolCalls('openai', chat, context, denyAll)).messages),
    ).toHaveLength(3);
    expect(
      responsesItems(
        (await registry.executeToolCalls('openai-responses', responses, context, denyAll)).messages,
      ),
    ).toHaveLength(3);
    // one output item, as the docs allow (`response.output[i]`)
    const call = responses.output.find((item) => item.type === 'function_call');
    expect(call).toBeDefined();
    expect(
      responsesItems(
        (await registry.executeToolCalls('openai-responses', call!, context, denyAll)).messages,
      ),
    ).toHaveLength(1);
    expect(
      anthropicMessages(
        (await registry.executeToolCalls('anthropic', anthropic, context, denyAll)).messages,
      ),
    ).toHaveLength(1);
    expect(
      geminiContents(
        (await registry.executeToolCalls('google', gemini, context, denyAll)).messages,
      ),
    ).toHaveLength(1);
    expect(
      bedrockMessages(
        (await registry.executeToolCalls('bedrock', bedrock, context, denyAll)).messages,
      ),
    ).toHaveLength(1);

    expect(chatToolChoice(['list_tasks'])).toMatchObject({ type: 'allowed_tools' });
    expect(responsesToolChoice(['list_tasks'])).toMatchObject({ type: 'allowed_tools' });
    const payloads = deliveryPayloads(registry);
    expect(payloads.responses[0]).toMatchObject({ type: 'tool_search', execution: 'client' });
    expect(payloads.anthropic[0]).toMatchObject({ name: 'search_tools' });
    expect(payloads.gemini[0]).toHaveProperty('parametersJsonSchema');
    expect(payloads.bedrock).toHaveLength(17);
  });
});
