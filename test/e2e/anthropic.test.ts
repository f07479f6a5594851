import type {
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
} from '@anthropic-ai/sdk/resources/messages/messages';
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

const PROVIDER = 'anthropic';

describe('a two-turn conversation over the Anthropic Messages API', () => {
  it('loads the selection, defers the rest behind a client-side search, and sends one user message of results', async () => {
    const { registry, close } = await openConversation();
    try {
      const everything = registry.list();
      const deferredOutside = (selection: Selection) =>
        everything.map((tool) => tool.name).filter((name) => !selection.names.includes(name));
      const messages: MessageParam[] = [];
      const history: HistoryEntry[] = [];
      const request = (selection: Selection) =>
        ({
          model: 'claude-sonnet-4-5',
          max_tokens: 1024,
          system: SYSTEM_PROMPT,
          // every tool is declared; the turn's selection is loaded, the rest is deferred
          tools: registry.translate(everything, 'anthropic', {
            deferLoading: deferredOutside(selection),
            toolSearch: 'client',
            inputExamples: true,
            cacheControl: true,
          }).payload,
          messages,
        }) satisfies MessageCreateParamsNonStreaming;

      // turn 1
      messages.push({ role: 'user', content: TURNS[0] });
      const first = registry.select(TURNS[0], { context: CONTEXT, history });
      history.push(TURNS[0]);
      await expectRequest(PROVIDER, 1, request(first));
      const calls = (await recordedResponse(PROVIDER, 1)) as Message;
      messages.push({ role: 'assistant', content: calls.content });
      const turn1 = await registry.executeToolCalls(PROVIDER, calls, CONTEXT, { approve });
      expect(turn1.results.map((result) => (result.ok ? 'ok' : result.error.code))).toEqual(['ok']);
      messages.push(...turn1.messages);
      for (const result of turn1.results) if (result.ok) history.push({ tool: result.name });
      await expectRequest(PROVIDER, 2, request(first));
      messages.push({
        role: 'assistant',
        content: ((await recordedResponse(PROVIDER, 2)) as Message).content,
      });

      // turn 2
      messages.push({ role: 'user', content: TURNS[1] });
      const second = registry.select(TURNS[1], { context: CONTEXT, history });
      await expectRequest(PROVIDER, 3, request(second));
      const moreCalls = (await recordedResponse(PROVIDER, 3)) as Message;
      messages.push({ role: 'assistant', content: moreCalls.content });
      const turn2 = await registry.executeToolCalls(PROVIDER, moreCalls, CONTEXT, {
        approve,
        // the file tools' workspace: a search loads only tools whose context is present
        services: { workspace_root: '/home/u_42' },
        // a tool_reference may only name a tool the request declares as deferred
        toolSearch: { within: deferredOutside(second), limit: 3 },
      });
      expect(turn2.results.map((result) => (result.ok ? 'ok' : result.error.code))).toEqual([
        'ok',
        'NOT_APPROVED',
        'INVALID_INPUT',
        'ok',
      ]);
      expect(turn2.results[3]).toMatchObject({
        name: 'search_tools',
        output: {
          query: 'read a text file',
          // read_project_doc matches too, but its project_id is missing: it could not run
          tools: ['file_read', 'file_edit'],
        },
      });
      messages.push(...turn2.messages);
      await expectRequest(PROVIDER, 4, request(second));
    } finally {
      await close();
    }
  });
});
