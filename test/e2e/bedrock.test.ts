import type {
  ConverseCommandInput,
  ConverseResponse,
  Message,
  Tool,
} from '@aws-sdk/client-bedrock-runtime';
import { describe, expect, it } from 'vitest';
import type { HistoryEntry, Selection } from '../../src/select/types.js';
import {
  approve,
  CONTEXT,
  expectRequest,
  openConversation,
  recordedResponse,
  SYSTEM_PROMPT,
  TURNS,
} from './conversation.js';

const PROVIDER = 'bedrock';

describe('a two-turn conversation over the Bedrock Converse API', () => {
  it('sends the selection as toolSpecs and one user message of toolResult blocks', async () => {
    const { registry, close } = await openConversation();
    try {
      const messages: Message[] = [];
      const history: HistoryEntry[] = [];
      const request = (selection: Selection) =>
        ({
          modelId: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
          system: [{ text: SYSTEM_PROMPT }],
          messages,
          toolConfig: {
            // the SDK types a schema as its DocumentType, ours as { [key: string]: unknown }
            tools: registry.translate(selection.tools, 'bedrock', { cachePoint: true })
              .payload as Tool[],
          },
        }) satisfies ConverseCommandInput;

      // turn 1
      messages.push({ role: 'user', content: [{ text: TURNS[0] }] });
      const first = registry.select(TURNS[0], { context: CONTEXT, history });
      history.push(TURNS[0]);
      await expectRequest(PROVIDER, 1, request(first));
      const calls = (await recordedResponse(PROVIDER, 1)) as ConverseResponse;
      messages.push(calls.output!.message!);
      const turn1 = await registry.executeToolCalls(PROVIDER, calls, CONTEXT, {
        allowed: first,
        approve,
      });
      expect(turn1.results.map((result) => (result.ok ? 'ok' : result.error.code))).toEqual(['ok']);
      messages.push(...turn1.messages);
      for (const result of turn1.results) if (result.ok) history.push({ tool: result.name });
      await expectRequest(PROVIDER, 2, request(first));
      messages.push(((await recordedResponse(PROVIDER, 2)) as ConverseResponse).output!.message!);

      // turn 2
      messages.push({ role: 'user', content: [{ text: TURNS[1] }] });
      const second = registry.select(TURNS[1], { context: CONTEXT, history });
      await expectRequest(PROVIDER, 3, request(second));
      const moreCalls = (await recordedResponse(PROVIDER, 3)) as ConverseResponse;
      messages.push(moreCalls.output!.message!);
      const turn2 = await registry.executeToolCalls(PROVIDER, moreCalls, CONTEXT, {
        allowed: second,
        approve,
      });
      expect(turn2.results.map((result) => (result.ok ? 'ok' : result.error.code))).toEqual([
        'ok',
        'NOT_APPROVED',
        'INVALID_INPUT',
        'NOT_SELECTED',
      ]);
      messages.push(...turn2.messages);
      await expectRequest(PROVIDER, 4, request(second));
    } finally {
      await close();
    }
  });
});
