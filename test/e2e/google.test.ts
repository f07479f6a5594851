import type { Content, GenerateContentResponse, Tool, ToolConfig } from '@google/genai';
import { describe, expect, it } from 'vitest';
import { allowedToolChoice } from '../../src/providers/allowed-tools.js';
import type { HistoryEntry, Selection } from '../../src/select/types.js';
import type { Registry } from '../../src/toolcap/registry.js';
import {
  approve,
  CONTEXT,
  expectRequest,
  openConversation,
  recordedResponse,
  SYSTEM_PROMPT,
  TURNS,
} from './conversation.js';

const PROVIDER = 'google';

/** The tool part of a request body (`tools`, and `toolConfig` when the turn is narrowed). */
type ToolFields = (registry: Registry, selection: Selection) => Record<string, unknown>;

/**
 * The scripted conversation over the Gemini API, its request bodies checked against
 * test/e2e/expected/<expected>/; `toolFields` is how each request offers the tools.
 */
async function converse(expected: string, toolFields: ToolFields): Promise<void> {
  const { registry, close } = await openConversation();
  try {
    const contents: Content[] = [];
    const history: HistoryEntry[] = [];
    // the REST body of models.generateContent
    const request = (selection: Selection) => ({
      systemInstruction: { parts: [{ text: SYSTEM_PROMPT }] },
      contents,
      ...toolFields(registry, selection),
    });

    // turn 1
    contents.push({ role: 'user', parts: [{ text: TURNS[0] }] });
    const first = registry.select(TURNS[0], { context: CONTEXT, history });
    history.push(TURNS[0]);
    await expectRequest(expected, 1, request(first));
    const calls = (await recordedResponse(PROVIDER, 1)) as GenerateContentResponse;
    // the model's content goes back unchanged: it carries the thought signatures
    contents.push(calls.candidates![0]!.content!);
    const turn1 = await registry.executeToolCalls(PROVIDER, calls, CONTEXT, {
      allowed: first,
      approve,
    });
    expect(turn1.results).toMatchObject([{ id: 'call_0', name: 'list_tasks', ok: true }]);
    contents.push(...turn1.messages);
    for (const result of turn1.results) if (result.ok) history.push({ tool: result.name });
    await expectRequest(expected, 2, request(first));
    contents.push(
      ((await recordedResponse(PROVIDER, 2)) as GenerateContentResponse).candidates![0]!.content!,
    );

    // turn 2
    contents.push({ role: 'user', parts: [{ text: TURNS[1] }] });
    const second = registry.select(TURNS[1], { context: CONTEXT, history });
    await expectRequest(expected, 3, request(second));
    const moreCalls = (await recordedResponse(PROVIDER, 3)) as GenerateContentResponse;
    contents.push(moreCalls.candidates![0]!.content!);
    const turn2 = await registry.executeToolCalls(PROVIDER, moreCalls, CONTEXT, {
      allowed: second,
      approve,
    });
    expect(
      turn2.results.map((result) => [result.id, result.ok ? 'ok' : result.error.code]),
    ).toEqual([
      ['call_0', 'ok'],
      ['call_1', 'NOT_APPROVED'],
      ['call_2', 'ok'],
      ['call_3', 'TOOL_NOT_FOUND'],
    ]);
    contents.push(...turn2.messages);
    await expectRequest(expected, 4, request(second));
  } finally {
    await close();
  }
}

describe('a two-turn conversation over the Gemini API', () => {
  it('sends the selection as JSON Schema declarations and answers calls without ids by name and order', async () => {
    await converse(PROVIDER, (registry, selection) => ({
      tools: registry.translate(selection.tools, 'google', { parametersJsonSchema: true })
        .payload as Tool[],
    }));
  });

  it('keeps every declaration on every turn and narrows each turn with toolConfig', async () => {
    // every declaration on every turn, so the cached prefix stays the same; toolConfig narrows
    // the turn to the selection (the API enforces it in VALIDATED mode)
    await converse('google-narrowed', (registry, selection) => ({
      tools: registry.translate(registry.list(), 'google', { parametersJsonSchema: true })
        .payload as Tool[],
      // the SDK types the modes as an enum whose values are these strings
      toolConfig: allowedToolChoice('google', selection) as ToolConfig,
    }));
  });
});
