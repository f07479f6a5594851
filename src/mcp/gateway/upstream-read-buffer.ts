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

/** Marks the error responses this module makes up: a server cannot forge an object's identity. */
const unreadable = new WeakMap<object, UnreadableAnswer>();

/** Code of the made-up error responses (the SDK's `ConnectionClosed` is -32000: not that). */
const UNREADABLE_CODE = -32_603;

/** The unreadable answer behind an SDK client's request error, if it was one. */
export function unreadableAnswer(error: unknown): UnreadableAnswer | undefined {
  const data = (error as { data?: unknown } | null)?.data;
  return data !== null && typeof data === 'object' ? unreadable.get(data) : undefined;
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
      oversized: (bytes, head, tail) => {
        const id = sniffResponseId(head, tail);
        const answer = { kind: 'too-large', bytes, limit: this.#maxBytes } as const;
        if (id === null) {
          this.#onProblem(
            `a message of ${bytes} bytes on its stdout, more than the limit of ${this.#maxBytes} bytes, was dropped unread; it showed no response id at either end, so a call waiting for it ends at its time limit`,
          );
          return;
        }
        this.#queue.push(
          madeUpError(
            id,
            `the answer is ${bytes} bytes, more than the gateway's limit of ${this.#maxBytes} bytes for a message from an upstream server; it was not read (raise the limit with maxUpstreamMessageBytes, --max-upstream-message-bytes on the command line)`,
            answer,
          ),
        );
      },
    });
  }

  #read(line: string): void {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.#onProblem(
        `a line on its stdout is not JSON (${errorMessage(error)}), dropped: ${JSON.stringify(shortenName(line))}`,
      );
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (parsed.success) {
      this.#queue.push(parsed.data);
      return;
    }
    const id = responseId(value);
    if (id === undefined) {
      this.#onProblem(`a message on its stdout is not JSON-RPC, dropped: ${describeValue(value)}`);
      return;
    }
    const problem = describeInvalidResponse(value as Record<string, unknown>);
    this.#queue.push(
      madeUpError(id, `the answer is not a valid JSON-RPC response: ${problem}`, {
        kind: 'invalid',
        problem,
      }),
    );
  }
}

function madeUpError(
  id: string | number,
  message: string,
  answer: UnreadableAnswer,
): JSONRPCErrorResponse {
  const data = { ...answer };
  unreadable.set(data, answer);
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
function describeInvalidResponse(message: Record<string, unknown>): string {
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
function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(shortenName(value));
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
