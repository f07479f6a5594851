import type { JsonValue } from '../format/types.js';
import { describeValue, isRecord, ProviderResponseError } from './provider-response-error.js';

/** The providers whose SDKs stream without an accumulator of their own. */
export type StreamedProviderId = 'bedrock' | 'google';

/** A stream of events: what an SDK's stream gives (`AsyncIterable`), or an array of them. */
export type StreamEvents = AsyncIterable<unknown> | Iterable<unknown>;

/**
 * A Bedrock Converse content block as `assembleStream` rebuilds it (a block of a kind not listed
 * here is kept as its start and delta events gave it).
 */
export type AssembledBedrockBlock =
  | { text: string }
  | { toolUse: { toolUseId: string; name: string; input: JsonValue } }
  | { reasoningContent: { reasoningText: { text: string; signature?: string } } }
  | { reasoningContent: { redactedContent: Uint8Array } };

/** What `assembleStream('bedrock', ...)` returns: the `ConverseResponse` the stream stood for. */
export interface AssembledBedrockResponse {
  output: { message: { role: 'assistant'; content: AssembledBedrockBlock[] } };
  /** From the `messageStop` event (`tool_use` when the model called tools). */
  stopReason?: string;
  /** From the `metadata` event. */
  usage?: unknown;
  metrics?: unknown;
}

/**
 * What `assembleStream('google', ...)` returns: the `GenerateContentResponse` of the stream, its
 * fields other than the parts (`finishReason`, `usageMetadata`, which Gemini sends as running
 * totals, `modelVersion`, ...) as the latest chunk that had them gave them.
 */
export interface AssembledGeminiResponse {
  candidates: [
    {
      content: { role: 'model'; parts: Record<string, unknown>[] };
      finishReason?: string;
      [field: string]: unknown;
    },
  ];
  usageMetadata?: unknown;
  [field: string]: unknown;
}

/** The result type of `assembleStream` for each provider. */
export interface AssembledResponseMap {
  bedrock: AssembledBedrockResponse;
  google: AssembledGeminiResponse;
}

/** Bedrock's exception events: the stream failed on the service's side. */
const BEDROCK_EXCEPTIONS = [
  'internalServerException',
  'modelStreamErrorException',
  'validationException',
  'throttlingException',
  'serviceUnavailableException',
] as const;

/**
 * The complete response of a streamed Bedrock (`ConverseStreamCommand`) or Gemini
 * (`generateContentStream`) request, rebuilt from its events, to pass to `executeToolCalls`
 * and to append to the conversation. The OpenAI and Anthropic SDKs assemble their own
 * (`finalChatCompletion()`, `finalResponse()`, `finalMessage()`); these two do not.
 *
 * - Bedrock: content blocks in `contentBlockIndex` order. A `toolUse` block's `input` is the
 *   concatenated input deltas parsed as JSON (`{}` when none came); text that is not JSON is
 *   kept as it is, so `executeToolCalls` answers that one call with an `INVALID_INPUT` error the
 *   model can act on. Text and reasoning deltas are joined per block. An exception event
 *   (throttling, a model error) rejects with `STREAM_ERROR`, naming it and its message.
 * - Gemini: the first candidate's parts of every chunk, in order, with adjacent plain text parts
 *   joined (parts carrying anything else, such as a thought signature, are kept as they came);
 *   the other fields as the latest chunk gave them.
 *
 * Text can be shown to the user while it streams: iterate the SDK's stream yourself, collect
 * the events into an array, and pass the array.
 */
export async function assembleStream<P extends StreamedProviderId>(
  provider: P,
  events: StreamEvents,
): Promise<AssembledResponseMap[P]> {
  if (!isIterable(events)) {
    throw new ProviderResponseError(
      'INVALID_RESPONSE',
      String(provider),
      `assembleStream("${String(provider)}", events) expects the stream (an async iterable of events) or an array of its events; got ${describeValue(events)}`,
    );
  }
  if (provider === 'bedrock') return (await assembleBedrock(events)) as AssembledResponseMap[P];
  if (provider === 'google') return (await assembleGemini(events)) as AssembledResponseMap[P];
  throw new ProviderResponseError(
    'UNSUPPORTED_PROVIDER',
    String(provider),
    `assembleStream: "${String(provider)}" is not a provider it assembles; it assembles "bedrock" and "google" streams (the OpenAI and Anthropic SDKs assemble theirs: finalChatCompletion(), finalResponse(), finalMessage())`,
  );
}

function isIterable(value: unknown): value is StreamEvents {
  if (value === null || typeof value !== 'object') return false;
  return Symbol.asyncIterator in value || Symbol.iterator in value;
}

/** A block being assembled: its start event's fields and the deltas so far. */
interface OpenBlock {
  toolUse?: { toolUseId: string; name: string };
  text: string[];
  input: string[];
  reasoning: string[];
  signature?: string;
  redacted?: Uint8Array;
  /** A start or delta of a kind this version does not know, kept as it came. */
  other?: Record<string, unknown>;
}

async function assembleBedrock(events: StreamEvents): Promise<AssembledBedrockResponse> {
  const blocks = new Map<number, OpenBlock>();
  const response: Omit<AssembledBedrockResponse, 'output'> = {};
  const blockAt = (index: unknown, position: number, kind: string): OpenBlock => {
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0) {
      throw streamError(
        'bedrock',
        position,
        `its ${kind}.contentBlockIndex is ${describeValue(index)}, not a block index (0, 1, ...)`,
      );
    }
    let block = blocks.get(index);
    if (block === undefined) {
      block = { text: [], input: [], reasoning: [] };
      blocks.set(index, block);
    }
    return block;
  };
  let position = 0;
  for await (const event of events) {
    if (!isRecord(event)) {
      throw streamError('bedrock', position, `it is ${describeValue(event)}, not an event object`);
    }
    for (const name of BEDROCK_EXCEPTIONS) {
      if (event[name] !== undefined) {
        const detail = isRecord(event[name]) ? event[name].message : undefined;
        throw new ProviderResponseError(
          'STREAM_ERROR',
          'bedrock',
          `the Bedrock stream ended with ${name} at event ${position}${typeof detail === 'string' ? `: ${detail}` : ''}. Retry the request (throttling and service errors are temporary); the partial message is not usable`,
        );
      }
    }
    if (isRecord(event.contentBlockStart)) {
      const { start, contentBlockIndex } = event.contentBlockStart;
      const block = blockAt(contentBlockIndex, position, 'contentBlockStart');
      if (isRecord(start) && isRecord(start.toolUse)) {
        const { toolUseId, name } = start.toolUse;
        block.toolUse = {
          toolUseId:
            typeof toolUseId === 'string' ? toolUseId : `call_${String(contentBlockIndex)}`,
          name: typeof name === 'string' ? name : '',
        };
      } else if (isRecord(start)) {
        block.other = { ...start };
      }
    } else if (isRecord(event.contentBlockDelta)) {
      const { delta, contentBlockIndex } = event.contentBlockDelta;
      const block = blockAt(contentBlockIndex, position, 'contentBlockDelta');
      if (!isRecord(delta)) continue;
      if (typeof delta.text === 'string') block.text.push(delta.text);
      else if (isRecord(delta.toolUse) && typeof delta.toolUse.input === 'string') {
        block.input.push(delta.toolUse.input);
      } else if (isRecord(delta.reasoningContent)) {
        const reasoning = delta.reasoningContent;
        if (typeof reasoning.text === 'string') block.reasoning.push(reasoning.text);
        if (typeof reasoning.signature === 'string') block.signature = reasoning.signature;
        if (reasoning.redactedContent instanceof Uint8Array) {
          block.redacted = reasoning.redactedContent;
        }
      } else {
        block.other = { ...block.other, ...delta };
      }
    } else if (isRecord(event.messageStop)) {
      const { stopReason } = event.messageStop;
      if (typeof stopReason === 'string') response.stopReason = stopReason;
    } else if (isRecord(event.metadata)) {
      if (event.metadata.usage !== undefined) response.usage = event.metadata.usage;
      if (event.metadata.metrics !== undefined) response.metrics = event.metadata.metrics;
    }
    position++;
  }
  const content = [...blocks.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, block]) => bedrockBlock(block));
  return { output: { message: { role: 'assistant', content } }, ...response };
}

function bedrockBlock(block: OpenBlock): AssembledBedrockBlock {
  if (block.toolUse !== undefined) {
    return { toolUse: { ...block.toolUse, input: parseInput(block.input.join('')) } };
  }
  if (block.redacted !== undefined) {
    return { reasoningContent: { redactedContent: block.redacted } };
  }
  if (block.reasoning.length > 0 || block.signature !== undefined) {
    const reasoningText: { text: string; signature?: string } = { text: block.reasoning.join('') };
    if (block.signature !== undefined) reasoningText.signature = block.signature;
    return { reasoningContent: { reasoningText } };
  }
  if (block.text.length > 0 || block.other === undefined) return { text: block.text.join('') };
  return block.other as AssembledBedrockBlock;
}

/** The tool input: `{}` for none, the parsed JSON, or the text itself when it is not JSON. */
function parseInput(text: string): JsonValue {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

async function assembleGemini(chunks: StreamEvents): Promise<AssembledGeminiResponse> {
  const parts: Record<string, unknown>[] = [];
  let candidate: Record<string, unknown> = {};
  let response: Record<string, unknown> = {};
  let position = 0;
  for await (const chunk of chunks) {
    if (!isRecord(chunk)) {
      throw streamError('google', position, `it is ${describeValue(chunk)}, not a response chunk`);
    }
    // the other fields (finishReason, usageMetadata, modelVersion, ...): the latest chunk's
    const { candidates, ...rest } = chunk;
    response = { ...response, ...rest };
    const first = Array.isArray(candidates) ? (candidates[0] as unknown) : undefined;
    if (isRecord(first)) {
      const { content, ...fields } = first;
      candidate = { ...candidate, ...fields };
      if (isRecord(content) && Array.isArray(content.parts)) {
        for (const part of content.parts) {
          if (isRecord(part)) appendGeminiPart(parts, part);
        }
      }
    }
    position++;
  }
  return {
    ...response,
    candidates: [{ ...candidate, content: { role: 'model', parts } }],
  } as AssembledGeminiResponse;
}

/** A part with `text` and, at most, a `thought` flag: safe to join with its neighbour. */
function isPlainText(part: Record<string, unknown>): boolean {
  return (
    typeof part.text === 'string' &&
    Object.keys(part).every((key) => key === 'text' || key === 'thought')
  );
}

function appendGeminiPart(parts: Record<string, unknown>[], part: Record<string, unknown>): void {
  const last = parts[parts.length - 1];
  if (
    last !== undefined &&
    isPlainText(last) &&
    isPlainText(part) &&
    last.thought === part.thought
  ) {
    parts[parts.length - 1] = { ...last, text: `${last.text as string}${part.text as string}` };
    return;
  }
  parts.push({ ...part });
}

function streamError(provider: string, position: number, problem: string): ProviderResponseError {
  const what = provider === 'bedrock' ? 'ConverseStream events' : 'generateContentStream chunks';
  return new ProviderResponseError(
    'INVALID_RESPONSE',
    provider,
    `assembleStream("${provider}"): event ${position} of the stream cannot be read: ${problem}. Pass the SDK's stream (the ${what}) unchanged`,
  );
}
