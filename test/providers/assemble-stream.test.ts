import { describe, expect, it } from 'vitest';
import { assembleStream } from '../../src/providers/assemble-stream.js';
import { ProviderResponseError } from '../../src/providers/provider-response-error.js';

async function* asAsync<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

async function rejection(promise: Promise<unknown>): Promise<ProviderResponseError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ProviderResponseError);
  return error as ProviderResponseError;
}

// a Bedrock ConverseStream: text, then two tool calls whose input arrives in fragments
const BEDROCK_EVENTS = [
  { messageStart: { role: 'assistant' } },
  { contentBlockDelta: { delta: { text: 'Let me ' }, contentBlockIndex: 0 } },
  { contentBlockDelta: { delta: { text: 'check.' }, contentBlockIndex: 0 } },
  { contentBlockStop: { contentBlockIndex: 0 } },
  {
    contentBlockStart: {
      start: { toolUse: { toolUseId: 'tooluse_1', name: 'list_tasks' } },
      contentBlockIndex: 1,
    },
  },
  { contentBlockDelta: { delta: { toolUse: { input: '{"sta' } }, contentBlockIndex: 1 } },
  { contentBlockDelta: { delta: { toolUse: { input: 'tus": "open"}' } }, contentBlockIndex: 1 } },
  { contentBlockStop: { contentBlockIndex: 1 } },
  {
    contentBlockStart: {
      start: { toolUse: { toolUseId: 'tooluse_2', name: 'get_time' } },
      contentBlockIndex: 2,
    },
  },
  { contentBlockStop: { contentBlockIndex: 2 } },
  { messageStop: { stopReason: 'tool_use' } },
  {
    metadata: {
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      metrics: { latencyMs: 9 },
    },
  },
];

describe('assembleStream("bedrock")', () => {
  it('rebuilds the ConverseResponse: blocks in index order, inputs parsed, stop reason and usage', async () => {
    const response = await assembleStream('bedrock', asAsync(BEDROCK_EVENTS));
    expect(response).toEqual({
      output: {
        message: {
          role: 'assistant',
          content: [
            { text: 'Let me check.' },
            { toolUse: { toolUseId: 'tooluse_1', name: 'list_tasks', input: { status: 'open' } } },
            // a tool with no input deltas gets {}
            { toolUse: { toolUseId: 'tooluse_2', name: 'get_time', input: {} } },
          ],
        },
      },
      stopReason: 'tool_use',
      usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
      metrics: { latencyMs: 9 },
    });
  });

  it('takes an array of events as well as the SDK’s async iterable', async () => {
    expect(await assembleStream('bedrock', BEDROCK_EVENTS)).toEqual(
      await assembleStream('bedrock', asAsync(BEDROCK_EVENTS)),
    );
  });

  it('orders blocks by contentBlockIndex, not by arrival', async () => {
    const response = await assembleStream('bedrock', [
      { contentBlockDelta: { delta: { text: 'second' }, contentBlockIndex: 1 } },
      { contentBlockDelta: { delta: { text: 'first' }, contentBlockIndex: 0 } },
    ]);
    expect(response.output.message.content).toEqual([{ text: 'first' }, { text: 'second' }]);
  });

  it('keeps reasoning text with its signature, and redacted reasoning, for the next request', async () => {
    const redacted = new Uint8Array([1, 2, 3]);
    const response = await assembleStream('bedrock', [
      {
        contentBlockDelta: {
          delta: { reasoningContent: { text: 'The user ' } },
          contentBlockIndex: 0,
        },
      },
      {
        contentBlockDelta: {
          delta: { reasoningContent: { text: 'wants tasks.' } },
          contentBlockIndex: 0,
        },
      },
      {
        contentBlockDelta: {
          delta: { reasoningContent: { signature: 'sig-1' } },
          contentBlockIndex: 0,
        },
      },
      {
        contentBlockDelta: {
          delta: { reasoningContent: { redactedContent: redacted } },
          contentBlockIndex: 1,
        },
      },
    ]);
    expect(response.output.message.content).toEqual([
      {
        reasoningContent: { reasoningText: { text: 'The user wants tasks.', signature: 'sig-1' } },
      },
      { reasoningContent: { redactedContent: redacted } },
    ]);
  });

  it('keeps tool input that is not JSON as text, so the call gets INVALID_INPUT, not the turn', async () => {
    const response = await assembleStream('bedrock', [
      {
        contentBlockStart: {
          start: { toolUse: { toolUseId: 't', name: 'x' } },
          contentBlockIndex: 0,
        },
      },
      { contentBlockDelta: { delta: { toolUse: { input: '{"a": ' } }, contentBlockIndex: 0 } },
    ]);
    expect(response.output.message.content).toEqual([
      { toolUse: { toolUseId: 't', name: 'x', input: '{"a": ' } },
    ]);
  });

  it('rejects with STREAM_ERROR, naming the exception and its message, when the service ends the stream', async () => {
    const error = await rejection(
      assembleStream('bedrock', [
        { contentBlockDelta: { delta: { text: 'Hi' }, contentBlockIndex: 0 } },
        { throttlingException: { message: 'Too many requests, please wait before trying again.' } },
      ]),
    );
    expect(error.code).toBe('STREAM_ERROR');
    expect(error.provider).toBe('bedrock');
    expect(error.message).toBe(
      'the Bedrock stream ended with throttlingException at event 1: Too many requests, please wait before trying again.. Retry the request (throttling and service errors are temporary); the partial message is not usable',
    );
  });

  it('names the event that is not an event, and one whose block index is missing', async () => {
    const notObject = await rejection(assembleStream('bedrock', [BEDROCK_EVENTS[0], 'oops']));
    expect(notObject.code).toBe('INVALID_RESPONSE');
    expect(notObject.message).toBe(
      'assembleStream("bedrock"): event 1 of the stream cannot be read: it is string, not an event object. Pass the SDK\'s stream (the ConverseStream events) unchanged',
    );
    const noIndex = await rejection(
      assembleStream('bedrock', [{ contentBlockDelta: { delta: { text: 'x' } } }]),
    );
    expect(noIndex.message).toBe(
      'assembleStream("bedrock"): event 0 of the stream cannot be read: its contentBlockDelta.contentBlockIndex is undefined, not a block index (0, 1, ...). Pass the SDK\'s stream (the ConverseStream events) unchanged',
    );
  });

  it('ignores event kinds it does not know, and keeps blocks of unknown kinds as they came', async () => {
    const response = await assembleStream('bedrock', [
      { somethingNew: { x: 1 } },
      { contentBlockStart: { start: { image: { format: 'png' } }, contentBlockIndex: 0 } },
      { contentBlockDelta: { delta: { text: 'done' }, contentBlockIndex: 1 } },
    ]);
    expect(response.output.message.content).toEqual([
      { image: { format: 'png' } },
      { text: 'done' },
    ]);
  });
});

describe('assembleStream("google")', () => {
  const chunk = (parts: object[], extra: object = {}) => ({
    candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }],
  });

  it('joins the parts of every chunk, adjacent plain text joined, the latest other fields kept', async () => {
    const response = await assembleStream(
      'google',
      asAsync([
        chunk([{ text: 'Let me ' }]),
        chunk([{ text: 'look.' }]),
        chunk([
          {
            functionCall: { name: 'list_tasks', args: { status: 'open' } },
            thoughtSignature: 'sig',
          },
        ]),
        {
          ...chunk([], { finishReason: 'STOP' }),
          usageMetadata: { totalTokenCount: 7 },
          modelVersion: 'gemini-2.5-flash',
        },
      ]),
    );
    expect(response).toEqual({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'Let me look.' },
              {
                functionCall: { name: 'list_tasks', args: { status: 'open' } },
                thoughtSignature: 'sig',
              },
            ],
          },
          index: 0,
          finishReason: 'STOP',
        },
      ],
      usageMetadata: { totalTokenCount: 7 },
      modelVersion: 'gemini-2.5-flash',
    });
  });

  it('never joins thought text with answer text, nor a part that carries a signature', async () => {
    const response = await assembleStream('google', [
      chunk([{ text: 'thinking', thought: true }]),
      chunk([{ text: 'answer' }]),
      chunk([{ text: ' signed', thoughtSignature: 's' }]),
      chunk([{ text: ' more' }]),
    ]);
    expect(response.candidates[0].content.parts).toEqual([
      { text: 'thinking', thought: true },
      { text: 'answer' },
      { text: ' signed', thoughtSignature: 's' },
      { text: ' more' },
    ]);
  });

  it('names a chunk that is not a response chunk', async () => {
    const error = await rejection(assembleStream('google', [chunk([]), null]));
    expect(error.message).toBe(
      'assembleStream("google"): event 1 of the stream cannot be read: it is null, not a response chunk. Pass the SDK\'s stream (the generateContentStream chunks) unchanged',
    );
  });
});

describe('assembleStream: wrong arguments', () => {
  it('refuses a value that is not a stream, and a provider it does not assemble', async () => {
    const notStream = await rejection(assembleStream('bedrock', { output: {} } as never));
    expect(notStream.code).toBe('INVALID_RESPONSE');
    expect(notStream.message).toBe(
      'assembleStream("bedrock", events) expects the stream (an async iterable of events) or an array of its events; got an object with the keys "output"',
    );
    const openai = await rejection(assembleStream('openai' as never, []));
    expect(openai.code).toBe('UNSUPPORTED_PROVIDER');
    expect(openai.message).toBe(
      'assembleStream: "openai" is not a provider it assembles; it assembles "bedrock" and "google" streams (the OpenAI and Anthropic SDKs assemble theirs: finalChatCompletion(), finalResponse(), finalMessage())',
    );
  });
});
