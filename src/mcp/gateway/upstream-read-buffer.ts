import { randomUUID } from 'node:crypto';
import {
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { isPlainObject } from '../../json-schema/schema-node.js';
import { errorMessage } from '../../util/error-message.js';
import { shortenName } from '../../util/shorten-name.js';
import { sniffRequestId } from './check-json-rpc-message.js';
import { LineSplitter } from './line-splitter.js';

/** The SDK stdio transport's own limit (`STDIO_DEFAULT_MAX_BUFFER_SIZE`): 10 MiB. */
export const DEFAULT_MAX_UPSTREAM_MESSAGE_BYTES = 10 * 1024 * 1024;

/** An answer of an upstream server that the gateway could not read, and why. */
export type UnreadableAnswer =
  | { kind: 'too-large'; bytes: number; limit: number }
  | { kind: 'invalid'; problem: string };

/**
 * Marks the error responses this module makes up. Over HTTP they pass through the SDK as text,
 * so the mark is a value no server can know: it never leaves this process.
 */
const MADE_UP_MARK = randomUUID();

/** Code of the made-up error responses (the SDK's `ConnectionClosed` is -32000: not that). */
const UNREADABLE_CODE = -32_603;

/** The unreadable answer behind an SDK client's request error, if it was one. */
export function unreadableAnswer(error: unknown): UnreadableAnswer | undefined {
  const data = (error as { data?: unknown } | null)?.data;
  if (!isPlainObject(data) || data.madeUpBy !== MADE_UP_MARK) return undefined;
  const { madeUpBy: _mark, ...answer } = data;
  return answer as UnreadableAnswer;
}

/** Where an upstream server's messages come from, for the problems reported about them. */
export interface UpstreamSource {
  /** One unit of what it writes, with where: `a line on its stdout`. */
  unit: string;
  /** Where it writes: `on its stdout`. */
  where: string;
}

const STDOUT: UpstreamSource = { unit: 'a line on its stdout', where: 'on its stdout' };

/**
 * One message of an upstream server as read: a message to deliver (`replaced` when it is an
 * error response standing for an answer the gateway could not use), or a problem to report.
 */
export type UpstreamMessageOutcome =
  | { message: JSONRPCMessage; replaced: boolean }
  | { problem: string };

/**
 * Reads the text of one message. A valid JSON-RPC message is delivered as it is; an answer the
 * SDK would drop without a word (its call would wait for its time limit), such as
 * `"result": null`, becomes an error response to its request; anything else is a problem.
 */
export function readUpstreamMessage(text: string, source: UpstreamSource): UpstreamMessageOutcome {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      problem: `${source.unit} is not JSON (${errorMessage(error)}), dropped: ${JSON.stringify(shortenName(text))}`,
    };
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (parsed.success) return { message: parsed.data, replaced: false };
  const id = responseId(value);
  if (id === undefined) {
    return {
      problem: `a message ${source.where} is not JSON-RPC, dropped: ${describeValue(value)}`,
    };
  }
  return {
    message: invalidAnswer(id, describeInvalidResponse(value as Record<string, unknown>)),
    replaced: true,
  };
}

/**
 * A message over the limit, of which only `head` and `tail` were kept: an error response to the
 * request whose answer it was (its id read from either end), or a problem when no id shows.
 */
export function oversizedUpstreamMessage(
  bytes: number,
  head: string,
  tail: string,
  limit: number,
  source: UpstreamSource,
): UpstreamMessageOutcome {
  const id = sniffResponseId(head, tail);
  if (id === null) {
    return {
      problem: `a message of ${bytes} bytes ${source.where}, more than the limit of ${limit} bytes, was dropped unread; it showed no response id at either end, so a call waiting for it ends at its time limit`,
    };
  }
  return { message: tooLargeAnswer(id, bytes, limit), replaced: true };
}

/** The error response standing for an answer of `bytes` bytes, over `limit`, to request `id`. */
export function tooLargeAnswer(
  id: string | number,
  bytes: number,
  limit: number,
): JSONRPCErrorResponse {
  return madeUpError(
    id,
    `the answer is ${bytes} bytes, more than the gateway's limit of ${limit} bytes for a message from an upstream server; it was not read (raise the limit with maxUpstreamMessageBytes, --max-upstream-message-bytes on the command line)`,
    { kind: 'too-large', bytes, limit },
  );
}

/** The error response standing for an answer to request `id` that is no JSON-RPC response. */
export function invalidAnswer(id: string | number, problem: string): JSONRPCErrorResponse {
  return madeUpError(id, `the answer is not a valid JSON-RPC response: ${problem}`, {
    kind: 'invalid',
    problem,
  });
}

/**
 * Frames what an upstream stdio server writes into JSON-RPC messages, in place of the SDK's
 * `ReadBuffer` (same methods). The SDK's buffer holds a whole line, and one over its limit makes
 * the transport close the connection and stop the server, so one large answer would fail every
 * call in progress as a crash. Here a line over `maxBytes` is skipped as it streams (never held
 * whole), and an answer whose `id` shows at one of its ends becomes an error response to that
 * request, so only that call fails. An answer the SDK would drop silently (its call would wait
 * for its time limit), such as `"result": null`, becomes an error response to its request too.
 * Such made-up responses are recognized by `unreadableAnswer`. What cannot be matched to a
 * request is dropped and described to `onProblem`.
 */
export class UpstreamReadBuffer {
  readonly #maxBytes: number;
  readonly #onProblem: (problem: string) => void;
  #queue: JSONRPCMessage[] = [];
  #splitter: LineSplitter;

  constructor(maxBytes: number, onProblem: (problem: string) => void) {
    this.#maxBytes = maxBytes;
    this.#onProblem = onProblem;
    this.#splitter = this.#createSplitter();
  }

  /** Adds bytes from the server's stdout. */
  append(chunk: Buffer): void {
    this.#splitter.push(chunk);
  }

  /** The next complete message, or null. */
  readMessage(): JSONRPCMessage | null {
    return this.#queue.shift() ?? null;
  }

  /** Forgets everything buffered (the transport closed). */
  clear(): void {
    this.#queue = [];
    this.#splitter = this.#createSplitter();
  }

  #createSplitter(): LineSplitter {
    return new LineSplitter(this.#maxBytes, {
      line: (text) => this.#read(text.endsWith('\r') ? text.slice(0, -1) : text),
      oversized: (bytes, head, tail) =>
        this.#deliver(oversizedUpstreamMessage(bytes, head, tail, this.#maxBytes, STDOUT)),
    });
  }

  #read(line: string): void {
    if (line.trim() === '') return;
    this.#deliver(readUpstreamMessage(line, STDOUT));
  }

  #deliver(outcome: UpstreamMessageOutcome): void {
    if ('message' in outcome) this.#queue.push(outcome.message);
    else this.#onProblem(outcome.problem);
  }
}

function madeUpError(
  id: string | number,
  message: string,
  answer: UnreadableAnswer,
): JSONRPCErrorResponse {
  const data = { ...answer, madeUpBy: MADE_UP_MARK };
  return { jsonrpc: '2.0', id, error: { code: UNREADABLE_CODE, message, data } };
}

/** The id of a message that is meant as a response (an id, no method), else undefined. */
function responseId(value: unknown): string | number | undefined {
  if (!isPlainObject(value) || Object.hasOwn(value, 'method')) return undefined;
  const { id } = value;
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id))
    ? id
    : undefined;
}

const RESPONSE_MEMBERS = new Set(['jsonrpc', 'id', 'result', 'error']);

/** What makes a message with an id and no method fail the JSON-RPC response schema. */
export function describeInvalidResponse(message: Record<string, unknown>): string {
  if (message.jsonrpc !== '2.0')
    return `its "jsonrpc" is ${describeValue(message.jsonrpc)}, not "2.0"`;
  const extra = Object.keys(message).filter((key) => !RESPONSE_MEMBERS.has(key));
  if (extra.length > 0) {
    return `it has members a response does not have (${describeKeys(extra)})`;
  }
  const hasResult = Object.hasOwn(message, 'result');
  const hasError = Object.hasOwn(message, 'error');
  if (hasResult && hasError) return 'it has both "result" and "error"';
  if (hasResult) return `its "result" is ${describeValue(message.result)}, not an object`;
  if (hasError) {
    return `its "error" is ${describeValue(message.error)}, not an object with an integer "code" and a string "message"`;
  }
  return 'it has neither "result" nor "error"';
}

/** A value a server sent, for a message: short, whatever it holds. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(shortenName(value));
  // a member the message lacks
  if (value === undefined) return 'missing';
  if (value === null || typeof value === 'number' || typeof value === 'boolean') {
    return String(value);
  }
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (isPlainObject(value)) return `an object with the members ${describeKeys(Object.keys(value))}`;
  return `a ${typeof value}`;
}

/** A few keys, quoted and shortened, then how many more. */
function describeKeys(keys: readonly string[]): string {
  const shown = keys.slice(0, 5).map((key) => JSON.stringify(shortenName(key)));
  return keys.length > 5 ? `${shown.join(', ')} and ${keys.length - 5} more` : shown.join(', ');
}

/**
 * The id of a response too large to parse: its first bytes must show a response (`result` or
 * `error` before any other member but `jsonrpc` and `id`), never a request or notification,
 * whose id is the server's own; the id is read from either end.
 */
function sniffResponseId(head: string, tail: string): string | number | null {
  const start =
    /^\s*\{\s*(?:"jsonrpc"\s*:\s*"[^"\\]*"\s*,\s*)?(?:"id"\s*:\s*(-?\d{1,15}|"[^"\\]{0,200}")\s*,\s*)?"(?:result|error)"\s*:/.exec(
      head,
    );
  if (start === null) return null;
  const raw = start[1];
  if (raw !== undefined) return raw.startsWith('"') ? raw.slice(1, -1) : Number(raw);
  return sniffRequestId('', tail);
}
