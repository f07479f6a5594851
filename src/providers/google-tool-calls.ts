import type { JsonValue } from '../format/types.js';
import { contentText, onlyBlocks } from './content-text.js';
import {
  invalidField,
  invalidResponse,
  isRecord,
  rejectOtherProvider,
} from './provider-response-error.js';
import type {
  GeminiFunctionResponsePart,
  ProviderToolCall,
  ToolCallCodec,
} from './tool-call-types.js';

const EXPECTED =
  'a GenerateContentResponse (an object with "candidates"; the first candidate is read) or a Content (an object with "parts")';

/**
 * Gemini: calls are the `functionCall` parts (`args` is an object). The Gemini API often sends
 * no call id: such a call gets `call_<n>`, n its 0-based position among the response's calls,
 * so the same response always gives the same ids, and its answer carries no `id` (the model
 * matches answers by name and order). The results go in ONE `Content` with role `user` (the
 * `function` role is refused by current models) of `functionResponse` parts, in the calls'
 * order, each `response` being `{ output }` or `{ error: { code, message } }` as the SDK
 * documents. Append it after the model's own `Content`, unchanged (it may carry thought
 * signatures the next request must return). In a conversation (the `contents`), a user
 * `Content`'s text is its `text` parts, thoughts left out (one of `functionResponse` parts only
 * is no user turn; a `Content` without a role is the user's); a model `Content`'s calls are
 * its `functionCall` parts.
 */
export const googleToolCalls: ToolCallCodec<'google'> = {
  readCalls(response) {
    rejectOtherProvider('google', EXPECTED, response);
    let parts: unknown;
    let at = 'parts';
    if (isRecord(response) && Array.isArray(response.candidates)) {
      const candidate = response.candidates[0] as unknown;
      parts = isRecord(candidate) && isRecord(candidate.content) ? candidate.content.parts : [];
      at = 'candidates[0].content.parts';
    } else if (isRecord(response) && 'candidates' in response) {
      throw invalidField('google', EXPECTED, 'candidates', response.candidates, 'an array');
    } else if (isRecord(response) && 'parts' in response) {
      parts = response.parts;
    } else {
      throw invalidResponse('google', EXPECTED, response);
    }
    if (parts === undefined || parts === null) return [];
    if (!Array.isArray(parts)) throw invalidField('google', EXPECTED, at, parts, 'an array');
    const calls: ProviderToolCall[] = [];
    for (const part of parts) {
      if (!isRecord(part) || !isRecord(part.functionCall)) continue;
      const functionCall = part.functionCall;
      const position = calls.length;
      const call: ProviderToolCall = {
        kind: 'tool',
        id: typeof functionCall.id === 'string' ? functionCall.id : `call_${position}`,
        name: typeof functionCall.name === 'string' ? functionCall.name : '',
        arguments: functionCall.args ?? {},
      };
      if (typeof functionCall.id !== 'string') call.idGenerated = true;
      calls.push(call);
    }
    return calls;
  },
  conversationField: 'contents',
  messageShape: 'a Gemini Content: { role: "user" | "model", parts: an array of parts }',
  readMessage(content) {
    const { role } = content;
    if (role !== undefined && typeof role !== 'string') {
      return { problem: 'has a "role" that is not a string' };
    }
    const parts = content.parts ?? [];
    if (!Array.isArray(parts)) return { problem: '"parts" is not an array of parts' };
    if (role === undefined || role === 'user') {
      if (onlyBlocks(parts, (part) => isRecord(part.functionResponse))) return undefined;
      const text = contentText(parts, (part) => (part.thought === true ? undefined : part.text));
      return { role: 'user', text: text ?? '' };
    }
    if (role !== 'model') return undefined;
    const tools: string[] = [];
    for (const [index, part] of parts.entries()) {
      if (!isRecord(part) || !isRecord(part.functionCall)) continue;
      if (typeof part.functionCall.name !== 'string') {
        return { problem: `has parts[${index}], a "functionCall", without a "name"` };
      }
      tools.push(part.functionCall.name);
    }
    return { role: 'assistant', tools };
  },
  writeResults(outcomes) {
    if (outcomes.length === 0) return [];
    const parts = outcomes.map(
      ({ call, result }): GeminiFunctionResponsePart => ({
        functionResponse: {
          ...(call.idGenerated === true ? {} : { id: call.id }),
          name: call.name,
          response: result.ok
            ? { output: result.output as JsonValue }
            : { error: { code: result.error.code, message: result.error.message } },
        },
      }),
    );
    return [{ role: 'user', parts }];
  },
};
