import { suggestSimilar } from '../util/suggest-similar.js';
import { hasContentWords } from './has-content-words.js';

/** The transcript formats `toolcap learn --from` reads, one JSON object per line. */
export const TRANSCRIPT_FORMATS = ['openai', 'anthropic', 'pairs'] as const;

/** One of TRANSCRIPT_FORMATS. */
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

/** A tool call and the user message that led to it. */
export interface TranscriptCall {
  /**
   * The text of the latest user message before the assistant turn that made the call, or, when
   * that message has no content words (a confirmation such as "yes go ahead"), of the nearest
   * earlier user message of the conversation that has some.
   */
  message: string;
  tool: string;
  /** `pairs` only: the tool's group, as `toolcap mcp --record-pairs` writes it. */
  group?: string;
  /** `pairs` only: an upstream MCP tool's own name on its server (`--record-pairs`). */
  serverTool?: string;
}

/** What one line holds: the calls it records, or why it was skipped. */
export type ParsedTranscriptLine =
  | {
      ok: true;
      calls: TranscriptCall[];
      /** Calls made before any user message (nothing to learn from them). */
      unprompted: number;
      /**
       * Calls whose user message has no content words (a confirmation such as "yes go ahead",
       * or a pairs line's message) and no earlier user message with some, or whose earlier
       * request already led to a call of another tool: not added.
       */
      unconfirmed: number;
    }
  | { ok: false; problem: string };

/** Nothing visible: learning reports such a message as empty, so it is kept as it is. */
const BLANK = /^[\s\p{Cc}\p{Cf}]*$/u;
const OPENAI_ROLES = new Set(['system', 'developer', 'user', 'assistant', 'tool', 'function']);
const ANTHROPIC_ROLES = new Set(['user', 'assistant']);

/**
 * Parses one non-blank line of a transcript file. `openai`: `{"messages": [...]}` as in
 * OpenAI's chat fine-tuning files, calls in assistant `tool_calls[].function.name` (or the
 * older `function_call.name`). `anthropic`: `{"messages": [...]}` with `tool_use` content
 * blocks. `pairs`: `{"message": "...", "tool": "name"}`, optionally with `group` and
 * `server_tool` (what `toolcap mcp --record-pairs` adds). A call is paired with the latest
 * user message before the assistant turn that made it; user turns holding only tool results
 * are not user messages. When that message has no content words (`hasContentWords`: "yes go
 * ahead", "ok do it"), the call is paired with the nearest earlier user message that has some,
 * or left out (`unconfirmed`) when there is none or when that request already led to a call of
 * another tool (a follow-up the assistant proposed); so is a pairs line whose message has none. A tool called twice in one assistant turn counts once. Any problem
 * skips the whole line and is described for the user (which field, what is wrong, the fix).
 */
export function parseTranscriptLine(line: string, format: TranscriptFormat): ParsedTranscriptLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return fail(`not valid JSON (${detail}); each line must be one JSON object`);
  }
  if (!isObject(value)) {
    return fail(
      `expected a JSON object ${format === 'pairs' ? '{"message": ..., "tool": ...}' : '{"messages": [...]}'}, got ${describeType(value)}`,
    );
  }
  if (format === 'pairs') return parsePair(value);
  if (!Array.isArray(value.messages)) {
    return fail(
      `no "messages" array; an ${format === 'openai' ? 'OpenAI chat' : 'Anthropic'} line is {"messages": [{"role": "user", ...}, ...]}${typeof value.message === 'string' ? ' (a {"message", "tool"} line is --from pairs)' : ''}`,
    );
  }
  return format === 'openai' ? parseOpenAI(value.messages) : parseAnthropic(value.messages);
}

function parsePair(value: Record<string, unknown>): ParsedTranscriptLine {
  if (Array.isArray(value.messages)) {
    return fail(
      'this line is a conversation ("messages"); read it with --from openai or --from anthropic',
    );
  }
  if (typeof value.message !== 'string') {
    return fail(
      `"message" must be a string (the user's message), got ${describeType(value.message)}${misspeltField(value, 'message')}`,
    );
  }
  if (typeof value.tool !== 'string' || value.tool === '') {
    return fail(
      `"tool" must be the name of the tool the message led to, got ${describeType(value.tool)}${misspeltField(value, 'tool')}`,
    );
  }
  const call: TranscriptCall = { message: value.message, tool: value.tool };
  for (const [field, key] of [
    ['group', 'group'],
    ['server_tool', 'serverTool'],
  ] as const) {
    const item = value[field];
    if (item === undefined) continue;
    if (typeof item !== 'string' || item === '') {
      return fail(
        `"${field}" must be a non-empty string (${field === 'group' ? "the tool's group" : "the tool's name on its MCP server"}), got ${describeType(item)}; leave it out when unknown`,
      );
    }
    call[key] = item;
  }
  // a recorded "yes go ahead" says nothing about the tool, and a pair has no earlier message
  if (!BLANK.test(value.message) && !hasContentWords(value.message)) {
    return { ok: true, calls: [], unprompted: 0, unconfirmed: 1 };
  }
  return { ok: true, calls: [call], unprompted: 0, unconfirmed: 0 };
}

/** The fields of a pairs line (`server` is what `--record-pairs` adds for upstream tools). */
const PAIR_FIELDS = new Set(['message', 'tool', 'group', 'server_tool', 'server']);

/** `; the line has "mesage": did you mean "message"?` when an unknown key is like `field`. */
function misspeltField(value: Record<string, unknown>, field: string): string {
  if (value[field] !== undefined) return '';
  for (const key of Object.keys(value)) {
    if (!PAIR_FIELDS.has(key) && suggestSimilar(key, [field]).length > 0) {
      return `; the line has ${JSON.stringify(key)}: did you mean "${field}"?`;
    }
  }
  return '';
}

function parseOpenAI(messages: unknown[]): ParsedTranscriptLine {
  const calls: TranscriptCall[] = [];
  const user = new UserMessages();
  for (const [index, message] of messages.entries()) {
    const at = `messages[${index}]`;
    if (!isObject(message)) return fail(`${at} must be an object, got ${describeType(message)}`);
    const role = message.role;
    if (typeof role !== 'string' || !OPENAI_ROLES.has(role)) {
      return fail(
        `${at} has ${typeof role === 'string' ? `unknown role ${JSON.stringify(role)}` : 'no "role"'}; OpenAI chat roles are system, developer, user, assistant and tool`,
      );
    }
    if (role === 'user') {
      const text = openAIText(message.content);
      if (text === undefined) {
        return fail(
          `${at}.content must be a string or an array of content parts, got ${describeType(message.content)}`,
        );
      }
      user.add(text);
      continue;
    }
    if (role !== 'assistant') continue;
    const names: string[] = [];
    if (message.tool_calls !== undefined && message.tool_calls !== null) {
      if (!Array.isArray(message.tool_calls)) {
        return fail(`${at}.tool_calls must be an array, got ${describeType(message.tool_calls)}`);
      }
      for (const [callIndex, call] of message.tool_calls.entries()) {
        const name = isObject(call) && isObject(call.function) ? call.function.name : undefined;
        if (typeof name !== 'string' || name === '') {
          return fail(
            `${at}.tool_calls[${callIndex}] has no function.name; each call is {"type": "function", "function": {"name": ..., "arguments": ...}}`,
          );
        }
        names.push(name);
      }
    }
    if (isObject(message.function_call)) {
      const name = message.function_call.name;
      if (typeof name !== 'string' || name === '') {
        return fail(`${at}.function_call has no "name"`);
      }
      names.push(name);
    }
    if (names.length === 0 && hasBlock(message.content, 'tool_use')) {
      return fail(
        `${at} holds an Anthropic "tool_use" block; read this file with --from anthropic`,
      );
    }
    user.addCalls(names, calls);
  }
  return { ok: true, calls, unprompted: user.unprompted, unconfirmed: user.unconfirmed };
}

function parseAnthropic(messages: unknown[]): ParsedTranscriptLine {
  const calls: TranscriptCall[] = [];
  const user = new UserMessages();
  for (const [index, message] of messages.entries()) {
    const at = `messages[${index}]`;
    if (!isObject(message)) return fail(`${at} must be an object, got ${describeType(message)}`);
    const role = message.role;
    if (typeof role !== 'string' || !ANTHROPIC_ROLES.has(role)) {
      const hint =
        role === 'tool' || role === 'system'
          ? ` (a "${role}" message is OpenAI's format: use --from openai; Anthropic's system prompt is the top-level "system")`
          : '';
      return fail(
        `${at} has ${typeof role === 'string' ? `unknown role ${JSON.stringify(role)}` : 'no "role"'}; Anthropic roles are user and assistant${hint}`,
      );
    }
    const content = message.content;
    if (typeof content !== 'string' && !Array.isArray(content)) {
      return fail(
        `${at}.content must be a string or an array of content blocks, got ${describeType(content)}`,
      );
    }
    if (role === 'user') {
      // a user turn that only returns tool results continues the assistant's work
      const text = anthropicText(content);
      if (text !== undefined) user.add(text);
      continue;
    }
    if (message.tool_calls !== undefined) {
      return fail(`${at} has OpenAI "tool_calls"; read this file with --from openai`);
    }
    const names: string[] = [];
    if (Array.isArray(content)) {
      for (const [blockIndex, block] of content.entries()) {
        if (!isObject(block) || block.type !== 'tool_use') continue;
        if (typeof block.name !== 'string' || block.name === '') {
          return fail(`${at}.content[${blockIndex}] is a "tool_use" block without a "name"`);
        }
        names.push(block.name);
      }
    }
    user.addCalls(names, calls);
  }
  return { ok: true, calls, unprompted: user.unprompted, unconfirmed: user.unconfirmed };
}

/** The user messages of one conversation so far, and what its calls could not be paired with. */
class UserMessages {
  /** Whether the conversation has had a user message yet. */
  #prompted = false;
  /** The latest user message with content words. */
  #request: string | undefined;
  /** What the next calls are paired with. */
  #message: string | undefined;
  /** Whether the latest user message was a confirmation, so the calls borrow `#request`. */
  #borrowed = false;
  /** The tools called since `#request` was said, in earlier assistant turns. */
  #requestTools = new Set<string>();
  unprompted = 0;
  unconfirmed = 0;

  /**
   * A user message: a request when it has content words; a confirmation ("yes go ahead")
   * otherwise, which leaves the calls paired with the latest request. An empty message is kept
   * as it is: learning reports it as empty.
   */
  add(text: string): void {
    this.#prompted = true;
    this.#borrowed = false;
    if (BLANK.test(text)) {
      this.#message = text;
      return;
    }
    if (hasContentWords(text)) {
      this.#request = text;
      this.#requestTools = new Set();
    } else {
      this.#borrowed = true;
    }
    this.#message = this.#request;
  }

  /** Adds one call per distinct name of an assistant turn; counts the calls left out. */
  addCalls(names: readonly string[], calls: TranscriptCall[]): void {
    const distinct = new Set(names);
    const message = this.#message;
    if (message === undefined) {
      if (this.#prompted) this.unconfirmed += distinct.size;
      else this.unprompted += distinct.size;
      return;
    }
    const before = [...this.#requestTools];
    for (const tool of distinct) {
      // "add a task to buy milk" → add_task, "also on your calendar?", "yes" → create_event:
      // the request asked for add_task; pairing it with create_event would teach the wrong tool
      if (this.#borrowed && before.some((earlier) => earlier !== tool)) {
        this.unconfirmed += 1;
        continue;
      }
      calls.push({ message, tool });
    }
    if (message === this.#request) for (const tool of distinct) this.#requestTools.add(tool);
  }
}

/** The text of an OpenAI user message: a string, or its text parts joined by newlines. */
function openAIText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  return content
    .filter((part) => isObject(part) && part.type === 'text' && typeof part.text === 'string')
    .map((part) => (part as { text: string }).text)
    .join('\n');
}

/** The text of an Anthropic user turn, or undefined when it holds no text (only tool results). */
function anthropicText(content: string | unknown[]): string | undefined {
  if (typeof content === 'string') return content;
  const texts = content
    .filter((block) => isObject(block) && block.type === 'text' && typeof block.text === 'string')
    .map((block) => (block as { text: string }).text);
  return texts.length > 0 ? texts.join('\n') : undefined;
}

function hasBlock(content: unknown, type: string): boolean {
  return Array.isArray(content) && content.some((block) => isObject(block) && block.type === type);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function describeType(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function fail(problem: string): ParsedTranscriptLine {
  return { ok: false, problem };
}
