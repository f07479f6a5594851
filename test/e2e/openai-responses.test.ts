import type {
  Response,
  ResponseCreateParamsNonStreaming,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { allowedToolChoice } from '../../src/providers/allowed-tools.js';
import type { HistoryEntry } from '../../src/select/types.js';
import {
  approve,
  CONTEXT,
  expectRequest,
  openConversation,
  recordedResponse,
  SYSTEM_PROMPT,
  TURNS,
} from './conversation.js';

const PROVIDER = 'openai-responses';

describe('a two-turn conversation over the OpenAI Responses API', () => {
  it('keeps tools stable, narrows each turn with allowed_tools, and appends function_call_output items', async () => {
    const { registry, close } = await openConversation();
    try {
      const tools = registry.translate(registry.list(), 'openai-responses').payload;
      // stateless (store: false): every request carries the whole conversation
      const input: ResponseInputItem[] = [];
      const history: HistoryEntry[] = [];
      const request = (selection: { names: readonly string[] }) =>
        ({
          model: 'gpt-5-mini',
          instructions: SYSTEM_PROMPT,
          input,
          tools,
          tool_choice: allowedToolChoice('openai-responses', selection),
          store: false,
          include: ['reasoning.encrypted_content'],
        }) satisfies ResponseCreateParamsNonStreaming;

      // turn 1
      input.push({ role: 'user', content: TURNS[0] });
      const first = registry.select(TURNS[0], { context: CONTEXT, history });
      history.push(TURNS[0]);
      await expectRequest(PROVIDER, 1, request(first));
      const calls = (await recordedResponse(PROVIDER, 1)) as Response;
      input.push(...(calls.output as ResponseInputItem[]));
      const turn1 = await registry.executeToolCalls(PROVIDER, calls, CONTEXT, {
        allowed: first,
        approve,
      });
      expect(turn1.results.map((result) => (result.ok ? 'ok' : result.error.code))).toEqual(['ok']);
      input.push(...turn1.messages);
      for (const result of turn1.results) if (result.ok) history.push({ tool: result.name });
      await expectRequest(PROVIDER, 2, request(first));
      input.push(
        ...(((await recordedResponse(PROVIDER, 2)) as Response).output as ResponseInputItem[]),
      );

      // turn 2
      input.push({ role: 'user', content: TURNS[1] });
      const second = registry.select(TURNS[1], { context: CONTEXT, history });
      await expectRequest(PROVIDER, 3, request(second));
      const moreCalls = (await recordedResponse(PROVIDER, 3)) as Response;
      input.push(...(moreCalls.output as ResponseInputItem[]));
      const turn2 = await registry.executeToolCalls(PROVIDER, moreCalls, CONTEXT, {
        allowed: second,
        approve,
      });
      expect(turn2.results.map((result) => (result.ok ? 'ok' : result.error.code))).toEqual([
        'ok',
        'NOT_APPROVED',
        'ok',
      ]);
      input.push(...turn2.messages);
      await expectRequest(PROVIDER, 4, request(second));
    } finally {
      await close();
    }
  });
});
