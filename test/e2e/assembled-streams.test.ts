import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BedrockRuntimeClient,
  type ConverseResponse,
  ConverseStreamCommand,
  type Message,
} from '@aws-sdk/client-bedrock-runtime';
import { type Content, GoogleGenAI } from '@google/genai';
import { EventStreamCodec } from '@smithy/core/event-streams';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assembleStream } from '../../src/providers/assemble-stream.js';
import { CONTEXT, openConversation, recordedResponse } from './conversation.js';

/**
 * Bedrock and Gemini stream without an accumulator of their own: `assembleStream` rebuilds the
 * response from the events the real SDKs yield. A loopback server (started and stopped here)
 * streams the recorded first-turn responses in pieces, in each API's wire format (AWS event
 * stream frames; server-sent events); the SDK clients read them as in production, and the
 * assembled response must equal the recorded one and run its tool call.
 */

const encoder = new TextEncoder();
const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => encoder.encode(text),
);

/** One AWS event stream frame for the event `type` with the JSON `body`. */
function frame(type: string, body: unknown): Uint8Array {
  return codec.encode({
    headers: {
      ':event-type': { type: 'string', value: type },
      ':message-type': { type: 'string', value: 'event' },
      ':content-type': { type: 'string', value: 'application/json' },
    },
    body: encoder.encode(JSON.stringify(body)),
  });
}

/** Cuts a text into pieces of at most `size` characters, as a stream delivers it. */
function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let at = 0; at < text.length; at += size) out.push(text.slice(at, at + size));
  return out;
}

/** The ConverseStream events of a recorded ConverseResponse, text and input in small pieces. */
function bedrockFrames(response: ConverseResponse): Uint8Array[] {
  const frames = [frame('messageStart', { role: 'assistant' })];
  response.output!.message!.content!.forEach((block, contentBlockIndex) => {
    if (block.toolUse !== undefined) {
      const { toolUseId, name, input } = block.toolUse;
      frames.push(
        frame('contentBlockStart', { start: { toolUse: { toolUseId, name } }, contentBlockIndex }),
      );
      for (const piece of pieces(JSON.stringify(input), 5)) {
        frames.push(
          frame('contentBlockDelta', { delta: { toolUse: { input: piece } }, contentBlockIndex }),
        );
      }
    } else if (block.text !== undefined) {
      for (const piece of pieces(block.text, 7)) {
        frames.push(frame('contentBlockDelta', { delta: { text: piece }, contentBlockIndex }));
      }
    }
    frames.push(frame('contentBlockStop', { contentBlockIndex }));
  });
  frames.push(frame('messageStop', { stopReason: response.stopReason }));
  frames.push(frame('metadata', { usage: response.usage, metrics: response.metrics }));
  return frames;
}

/** The server-sent events of a recorded Gemini response: one part per chunk, text in pieces. */
function geminiEvents(response: {
  candidates: { content: { parts: Record<string, unknown>[] } }[];
}): string[] {
  const { candidates, ...rest } = response;
  const { content, ...candidate } = candidates[0]!;
  const chunks: unknown[] = [];
  for (const part of content.parts) {
    if (typeof part.text === 'string' && Object.keys(part).length === 1) {
      for (const text of pieces(part.text, 7)) {
        chunks.push({ candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0 }] });
      }
    } else {
      chunks.push({ candidates: [{ content: { role: 'model', parts: [part] }, index: 0 }] });
    }
  }
  chunks.push({ candidates: [{ ...candidate, content: { role: 'model', parts: [] } }], ...rest });
  return chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`);
}

let server: Server;
let base: string;
let bedrockBody: Uint8Array[] = [];
let geminiBody: string[] = [];
const requests: string[] = [];

beforeAll(async () => {
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    request.on('end', () => {
      requests.push(`${request.method} ${request.url}`);
      if (request.url?.includes('/converse-stream')) {
        response.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream' });
        for (const bytes of bedrockBody) response.write(bytes);
      } else {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const event of geminiBody) response.write(event);
      }
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('assembleStream with the real SDKs’ streams', () => {
  it('Bedrock: ConverseStreamCommand’s events become the recorded ConverseResponse', async () => {
    const recorded = (await recordedResponse('bedrock', 1)) as ConverseResponse;
    bedrockBody = bedrockFrames(recorded);
    const { registry, close } = await openConversation();
    const client = new BedrockRuntimeClient({
      region: 'us-east-1',
      endpoint: base,
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
      maxAttempts: 1,
      // the client speaks HTTP/2 by default; the loopback server speaks HTTP/1.1
      requestHandler: new NodeHttpHandler(),
    });
    try {
      const output = await client.send(
        new ConverseStreamCommand({
          modelId: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
          messages: [{ role: 'user', content: [{ text: 'What is still open?' }] }],
        }),
      );
      const response = await assembleStream('bedrock', output.stream!);
      expect(requests.at(-1)).toContain('/converse-stream');
      expect(response).toEqual(recorded);
      // the message goes back into the next request as the SDK types it
      const next: Message[] = [response.output.message];
      expect(next).toHaveLength(1);
      const turn = await registry.executeToolCalls('bedrock', response, CONTEXT);
      expect(turn.results).toMatchObject([
        { id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', name: 'list_tasks', ok: true },
      ]);
    } finally {
      client.destroy();
      await close();
    }
  });

  it('Gemini: generateContentStream’s chunks become the recorded GenerateContentResponse', async () => {
    const recorded = (await recordedResponse('google', 1)) as Parameters<typeof geminiEvents>[0];
    geminiBody = geminiEvents(recorded);
    const { registry, close } = await openConversation();
    try {
      const ai = new GoogleGenAI({ apiKey: 'test-key', httpOptions: { baseUrl: base } });
      const stream = await ai.models.generateContentStream({
        model: 'gemini-2.5-flash',
        contents: 'What is still open?',
      });
      const response = await assembleStream('google', stream);
      expect(requests.at(-1)).toContain(':streamGenerateContent');
      // the SDK adds the HTTP headers it received (sdkHttpResponse) to every chunk
      const { sdkHttpResponse, ...fields } = JSON.parse(JSON.stringify(response));
      expect(sdkHttpResponse.headers['content-type']).toBe('text/event-stream');
      expect(fields).toEqual(recorded);
      const next: Content[] = [response.candidates[0].content];
      expect(next).toHaveLength(1);
      const turn = await registry.executeToolCalls('google', response, CONTEXT);
      expect(turn.results).toMatchObject([{ id: 'call_0', name: 'list_tasks', ok: true }]);
    } finally {
      await close();
    }
  });
});
