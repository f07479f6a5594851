import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions/completions';
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

const PROVIDER = 'openai';

describe('a two-turn conversation over OpenAI Chat Completions', () => {
  it('keeps tools stable, narrows each turn with allowed_tools, and sends every result back', async () => {
    const { registry, close } = await openConversation();
    try {
      // the full list every turn: the prompt cache keeps it; allowed_tools narrows the turn
      const tools = registry.translate(registry.list(), 'openai').payload;
      const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: SYSTEM_PROMPT }];
      const history: HistoryEntry[] = [];
      const request = (selection: { names: readonly string[] }) =>
        ({
          model: 'gpt-5-mini',
          messages,
          tools,
          tool_choice: allowedToolChoice('openai', selection),
        }) satisfies ChatCompletionCreateParamsNonStreaming;

      // turn 1
      messages.push({ role: 'user', content: TURNS[0] });
      const first = registry.select(TURNS[0], { context: CONTEXT, history });
      history.push(TURNS[0]);
      await expectRequest(PROVIDER, 1, request(first));
      const calls = (await recordedResponse(PROVIDER, 1)) as ChatCompletion;
      messages.push(calls.choices[0]!.message);
      const turn1 = await registry.executeToolCalls(PROVIDER, calls, CONTEXT, {
        allowed: first,
        approve,
      });
      expect(turn1.results.map((result) => (result.ok ? 'ok' : result.error.code))).toEqual(['ok']);
      messages.push(...turn1.messages);
      for (const result of turn1.results) if (result.ok) history.push({ tool: result.name });
      await expectRequest(PROVIDER, 2, request(first));
      messages.push(((await recordedResponse(PROVIDER, 2)) as ChatCompletion).choices[0]!.message);

      // turn 2
      messages.push({ role: 'user', content: TURNS[1] });
      const second = registry.select(TURNS[1], { context: CONTEXT, history });
      await expectRequest(PROVIDER, 3, request(second));
      const moreCalls = (await recordedResponse(PROVIDER, 3)) as ChatCompletion;
      messages.push(moreCalls.choices[0]!.message);
      const turn2 = await registry.executeToolCalls(PROVIDER, moreCalls, CONTEXT, {
        allowed: second,
        approve,
      });
      expect(turn2.results.map((result) => (result.ok ? 'ok' : result.error.code))).toEqual([
        'ok',
        'NOT_APPROVED',
        'ok',
      ]);
      messages.push(...turn2.messages);
      await expectRequest(PROVIDER, 4, request(second));

      // the milk task is done in the store: the approved call really ran
      const open = await registry.execute('list_tasks', { status: 'open' }, CONTEXT);
      expect(open).toMatchObject({ ok: true, output: { count: 1 } });
    } finally {
      await close();
    }
  });
});
