import { MessageStream } from '@anthropic-ai/sdk/lib/MessageStream';
import { ChatCompletionStream } from 'openai/lib/ChatCompletionStream';
import { ResponseStream } from 'openai/lib/responses/ResponseStream';
import { describe, expect, it } from 'vitest';
import { CONTEXT, openConversation } from './conversation.js';

/**
 * Streamed responses reach `executeToolCalls` through each SDK's own accumulator
 * (`finalChatCompletion()`, `finalResponse()`, `finalMessage()`), as the agent loop guide
 * shows: the tool call's arguments arrive in fragments, and the accumulated message is an
 * ordinary response. The events are fed as the SDKs' `fromReadableStream` expects them
 * (one JSON event per line).
 */
function eventStream(events: readonly unknown[]): ReadableStream {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const event of events) controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`));
      controller.close();
    },
  });
}

// list_tasks's arguments, cut into fragments as a stream delivers them
const ARGUMENT_FRAGMENTS = ['{"sta', 'tus": "o', 'pen"}'];

describe('streamed responses', () => {
  it('OpenAI Chat: the stream’s finalChatCompletion() carries the call', async () => {
    const { registry, close } = await openConversation();
    try {
      const chunk = (delta: object, finish: string | null = null) => ({
        id: 'chatcmpl-1',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'gpt-test',
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
      const stream = ChatCompletionStream.fromReadableStream(
        eventStream([
          chunk({ role: 'assistant', content: null }),
          chunk({
            tool_calls: [
              {
                index: 0,
                id: 'call_1',
                type: 'function',
                function: { name: 'list_tasks', arguments: '' },
              },
            ],
          }),
          ...ARGUMENT_FRAGMENTS.map((fragment) =>
            chunk({ tool_calls: [{ index: 0, function: { arguments: fragment } }] }),
          ),
          chunk({}, 'tool_calls'),
        ]),
      );
      const completion = await stream.finalChatCompletion();
      const turn = await registry.executeToolCalls('openai', completion, CONTEXT);
      expect(turn.results).toMatchObject([{ id: 'call_1', name: 'list_tasks', ok: true }]);
      expect(turn.messages).toMatchObject([{ role: 'tool', tool_call_id: 'call_1' }]);
    } finally {
      await close();
    }
  });

  it('OpenAI Responses: the stream’s finalResponse() carries the call', async () => {
    const { registry, close } = await openConversation();
    try {
      const call = {
        type: 'function_call',
        id: 'fc_1',
        call_id: 'call_1',
        name: 'list_tasks',
        arguments: '',
        status: 'in_progress',
      };
      const response = (status: string, output: unknown[]) => ({
        id: 'resp_1',
        object: 'response',
        created_at: 1,
        status,
        model: 'gpt-test',
        output,
        parallel_tool_calls: true,
        tool_choice: 'auto',
        tools: [],
      });
      const stream = ResponseStream.fromReadableStream(
        eventStream([
          { type: 'response.created', sequence_number: 0, response: response('in_progress', []) },
          { type: 'response.output_item.added', sequence_number: 1, output_index: 0, item: call },
          ...ARGUMENT_FRAGMENTS.map((delta, index) => ({
            type: 'response.function_call_arguments.delta',
            sequence_number: 2 + index,
            output_index: 0,
            item_id: 'fc_1',
            delta,
          })),
          {
            type: 'response.output_item.done',
            sequence_number: 9,
            output_index: 0,
            item: { ...call, arguments: ARGUMENT_FRAGMENTS.join(''), status: 'completed' },
          },
          {
            type: 'response.completed',
            sequence_number: 10,
            response: response('completed', [
              { ...call, arguments: ARGUMENT_FRAGMENTS.join(''), status: 'completed' },
            ]),
          },
        ]),
      );
      const final = await stream.finalResponse();
      const turn = await registry.executeToolCalls('openai-responses', final, CONTEXT);
      expect(turn.results).toMatchObject([{ id: 'call_1', name: 'list_tasks', ok: true }]);
      expect(turn.messages).toMatchObject([{ type: 'function_call_output', call_id: 'call_1' }]);
    } finally {
      await close();
    }
  });

  it('Anthropic: the stream’s finalMessage() carries the tool_use block', async () => {
    const { registry, close } = await openConversation();
    try {
      const stream = MessageStream.fromReadableStream(
        eventStream([
          {
            type: 'message_start',
            message: {
              id: 'msg_1',
              type: 'message',
              role: 'assistant',
              model: 'claude-test',
              content: [],
              stop_reason: null,
              stop_sequence: null,
              usage: { input_tokens: 10, output_tokens: 1 },
            },
          },
          {
            type: 'content_block_start',
            index: 0,
            content_block: { type: 'tool_use', id: 'toolu_1', name: 'list_tasks', input: {} },
          },
          ...ARGUMENT_FRAGMENTS.map((partial_json) => ({
            type: 'content_block_delta',
            index: 0,
            delta: { type: 'input_json_delta', partial_json },
          })),
          { type: 'content_block_stop', index: 0 },
          {
            type: 'message_delta',
            delta: { stop_reason: 'tool_use', stop_sequence: null },
            usage: { output_tokens: 12 },
          },
          { type: 'message_stop' },
        ]),
      );
      const message = await stream.finalMessage();
      const turn = await registry.executeToolCalls('anthropic', message, CONTEXT);
      expect(turn.results).toMatchObject([{ id: 'toolu_1', name: 'list_tasks', ok: true }]);
      expect(turn.messages).toMatchObject([
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1' }] },
      ]);
    } finally {
      await close();
    }
  });
});
