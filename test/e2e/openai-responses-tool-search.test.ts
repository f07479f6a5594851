import type {
  Response,
  ResponseCreateParamsNonStreaming,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
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
const SCRIPT = 'openai-responses-tool-search';

describe('the OpenAI Responses API with namespaces and a client-executed tool search', () => {
  it('declares every group as a deferred namespace and loads tools the model searches for', async () => {
    const { registry, close } = await openConversation();
    try {
      // pinned groups stay loaded, the rest is deferred: the list never changes between turns
      const pinned = new Set(
        registry
          .groups()
          .filter((group) => group.selection.strategy === 'always')
          .flatMap((group) => group.tools),
      );
      const options = {
        namespaces: true,
        deferLoading: registry
          .list()
          .map((tool) => tool.name)
          .filter((name) => !pinned.has(name)),
        toolSearch: 'client',
      } as const;
      const tools = registry.translate(registry.list(), PROVIDER, options).payload;
      const input: ResponseInputItem[] = [{ role: 'user', content: TURNS[0] }];
      const request = () =>
        ({
          model: 'gpt-5.4',
          instructions: SYSTEM_PROMPT,
          input,
          tools,
          store: false,
          include: ['reasoning.encrypted_content'],
        }) satisfies ResponseCreateParamsNonStreaming;

      await expectRequest(SCRIPT, 1, request());
      const search = (await recordedResponse(SCRIPT, 1)) as Response;
      input.push(...(search.output as ResponseInputItem[]));
      const searched = await registry.executeToolCalls(PROVIDER, search, CONTEXT, {
        approve,
        toolSearch: { limit: 3, translateOptions: options },
      });
      expect(searched.results).toEqual([
        {
          id: 'call_Tq4nZ8wKe1xRb6Vm3YpHs0Jd',
          name: 'tool_search',
          ok: true,
          output: { query: 'list open tasks', tools: ['list_tasks', 'add_task', 'complete_task'] },
        },
      ]);
      input.push(...searched.messages);
      await expectRequest(SCRIPT, 2, request());

      const calls = (await recordedResponse(SCRIPT, 2)) as Response;
      input.push(...(calls.output as ResponseInputItem[]));
      const ran = await registry.executeToolCalls(PROVIDER, calls, CONTEXT, { approve });
      expect(ran.results).toMatchObject([{ name: 'list_tasks', ok: true, output: { count: 2 } }]);
      input.push(...ran.messages);
      await expectRequest(SCRIPT, 3, request());
    } finally {
      await close();
    }
  });
});
