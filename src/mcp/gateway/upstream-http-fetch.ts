import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { isPlainObject } from '../../json-schema/schema-node.js';
import { errorMessage } from '../../util/error-message.js';
import { LineSplitter } from './line-splitter.js';
import {
  describeInvalidResponse,
  describeValue,
  invalidAnswer,
  oversizedUpstreamMessage,
  readUpstreamMessage,
  tooLargeAnswer,
  type UpstreamMessageOutcome,
  type UpstreamSource,
} from './upstream-read-buffer.js';

const SSE: UpstreamSource = { unit: 'an event on its SSE stream', where: 'on its SSE stream' };
/** Room for a field name (`data: `) on an SSE line beyond the message limit. */
const FIELD_ROOM = 16;
/** Characters kept of each end of an SSE event's data over the limit (where its `id` is). */
const SNIFF_CHARS = 512;

/**
 * A `fetch` for the SDK's `StreamableHTTPClientTransport` that reads an upstream server's
 * answers as the gateway reads a stdio server's messages, so the SDK only sees what it can use:
 * - a JSON body (`application/json`) over `maxBytes` is never held whole, and becomes an error
 *   response to the request it answers (`UPSTREAM_RESULT_TOO_LARGE` for its call); one that is
 *   not a JSON-RPC response becomes an error response too (`UPSTREAM_INVALID_RESULT`);
 * - on an SSE stream (`text/event-stream`), each event is checked the same way: one over the
 *   limit or an invalid answer becomes an error response to its request (its id read from the
 *   message), which the SDK would otherwise drop, leaving its call to wait for its time limit;
 *   what matches no request is dropped and described to `onProblem`;
 * - an error status's body is cut at `maxBytes` (the SDK puts it in its error message).
 * Responses are otherwise passed through as they stream.
 */
export function createUpstreamFetch(
  maxBytes: number,
  onProblem: (problem: string) => void,
  baseFetch: FetchLike = fetch,
): FetchLike {
  return async (url, init) => {
    const response = await baseFetch(url, init);
    const body = response.body;
    if (body === null) return response;
    if (response.status >= 400) return withBody(response, body.pipeThrough(cutAfter(maxBytes)));
    if (!response.ok) return response;
    const type = mediaType(response.headers.get('content-type'));
    if (type === 'text/event-stream') {
      return withBody(response, body.pipeThrough(filterEvents(maxBytes, onProblem)));
    }
    if (type !== 'application/json') return response;
    const requestId = requestIdOf(init?.body);
    if (requestId === undefined) return response;
    const declared = Number(response.headers.get('content-length'));
    if (Number.isFinite(declared) && declared > maxBytes) {
      await body.cancel().catch(() => {});
      return withBody(response, JSON.stringify(tooLargeAnswer(requestId, declared, maxBytes)));
    }
    const read = await readUpTo(body, maxBytes);
    if (read.text === undefined) {
      return withBody(response, JSON.stringify(tooLargeAnswer(requestId, read.bytes, maxBytes)));
    }
    const problem = jsonAnswerProblem(read.text);
    return withBody(
      response,
      problem === undefined ? read.text : JSON.stringify(invalidAnswer(requestId, problem)),
    );
  };
}

/** Why the JSON body answering a request is no JSON-RPC message the SDK can use, if it is not. */
function jsonAnswerProblem(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `it is not JSON (${errorMessage(error)})`;
  }
  // a batch is left to the SDK: the gateway sends one message per request
  if (Array.isArray(value) || JSONRPCMessageSchema.safeParse(value).success) return undefined;
  return isPlainObject(value) && !Object.hasOwn(value, 'method')
    ? describeInvalidResponse(value)
    : `it is ${describeValue(value)}, not a JSON-RPC response`;
}

/** The JSON-RPC request id of a POST body the SDK sent (one message), if it is a request. */
function requestIdOf(body: unknown): string | number | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    const message: unknown = JSON.parse(body);
    if (!isPlainObject(message) || typeof message.method !== 'string') return undefined;
    const { id } = message;
    return typeof id === 'string' || typeof id === 'number' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** The body as text, or only its size when it is larger than `maxBytes` (read, not held). */
async function readUpTo(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
): Promise<{ text?: string; bytes: number }> {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  for await (const chunk of body) {
    bytes += chunk.byteLength;
    if (bytes <= maxBytes) chunks.push(chunk);
    else chunks.length = 0;
  }
  if (bytes > maxBytes) return { bytes };
  return { text: Buffer.concat(chunks).toString('utf8'), bytes };
}

/** The response with another body; its length and encoding headers no longer apply. */
function withBody(response: Response, body: ReadableStream<Uint8Array> | string): Response {
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  headers.delete('content-encoding');
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/** `text/event-stream; charset=utf-8` → `text/event-stream`. */
function mediaType(contentType: string | null): string {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase();
}

/** Passes the first `maxBytes` bytes, then ends the stream. */
function cutAfter(maxBytes: number): TransformStream<Uint8Array, Uint8Array> {
  let left = maxBytes;
  return new TransformStream({
    transform(chunk, controller) {
      if (left <= 0) return;
      controller.enqueue(chunk.byteLength <= left ? chunk : chunk.subarray(0, left));
      left -= chunk.byteLength;
      if (left <= 0) controller.terminate();
    },
  });
}

/** Checks each event of an SSE stream; see `createUpstreamFetch`. */
function filterEvents(
  maxBytes: number,
  onProblem: (problem: string) => void,
): TransformStream<Uint8Array, Uint8Array> {
  let filter: SseEventFilter | undefined;
  return new TransformStream({
    start(controller) {
      filter = new SseEventFilter(maxBytes, onProblem, (text) =>
        controller.enqueue(new TextEncoder().encode(text)),
      );
    },
    transform(chunk) {
      filter?.push(chunk);
    },
  });
}

/**
 * Splits an SSE stream into events (lines end with LF, CRLF or CR; a blank line ends an event)
 * and writes each event on, with its `data` replaced when it is over the limit or an invalid
 * answer. An event's data is never held beyond the limit: past it, only both ends are kept.
 */
class SseEventFilter {
  readonly #maxBytes: number;
  readonly #onProblem: (problem: string) => void;
  readonly #write: (text: string) => void;
  readonly #splitter: LineSplitter;
  /** The stream's last chunk ended with CR: an LF starting the next one ends no other line. */
  #afterCr = false;
  /**
   * The event's last `id`, `event` and `retry` lines, as received: the only other fields the
   * SDK's parser reads, and the last of each wins. Comments and unknown fields are left out, so
   * a server cannot grow an event without bound with them.
   */
  #fields = new Map<string, string>();
  #data: string[] = [];
  /** Bytes of the event's data so far, and its data lines (joined with LF). */
  #dataBytes = 0;
  #dataLines = 0;
  #oversized: { head: string; tail: string } | undefined;

  constructor(
    maxBytes: number,
    onProblem: (problem: string) => void,
    write: (text: string) => void,
  ) {
    this.#maxBytes = maxBytes;
    this.#onProblem = onProblem;
    this.#write = write;
    this.#splitter = new LineSplitter(maxBytes + FIELD_ROOM, {
      line: (text) => this.#line(text),
      oversized: (bytes, head, tail) => {
        // only a data line can be that long; anything else is dropped
        const value = dataValue(head);
        if (value !== undefined) this.#addData(value, bytes - (head.length - value.length), tail);
      },
    });
  }

  push(chunk: Uint8Array): void {
    this.#splitter.push(
      this.#normalizeLineEnds(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)),
    );
  }

  /** CRLF and a lone CR become LF, so the splitter sees one line end. */
  #normalizeLineEnds(chunk: Buffer): Buffer {
    const start = this.#afterCr && chunk[0] === 10 ? 1 : 0;
    this.#afterCr = false;
    if (chunk.indexOf(13, start) === -1) return chunk.subarray(start);
    const out = Buffer.allocUnsafe(chunk.length - start);
    let length = 0;
    for (let index = start; index < chunk.length; index++) {
      const byte = chunk[index]!;
      if (byte !== 13) {
        out[length++] = byte;
        continue;
      }
      out[length++] = 10;
      if (index + 1 === chunk.length) this.#afterCr = true;
      else if (chunk[index + 1] === 10) index++;
    }
    return out.subarray(0, length);
  }

  #line(text: string): void {
    if (text === '') {
      this.#dispatch();
      return;
    }
    const value = dataValue(text);
    if (value !== undefined) {
      this.#addData(value, Buffer.byteLength(value), value.slice(-SNIFF_CHARS));
      return;
    }
    const colon = text.indexOf(':');
    const name = colon === -1 ? text : text.slice(0, colon);
    if (name === 'id' || name === 'event' || name === 'retry') this.#fields.set(name, text);
  }

  /** One `data` line's value (for a line over the limit: its first characters), size and end. */
  #addData(value: string, bytes: number, tail: string): void {
    // an event's data lines are joined with LF
    this.#dataBytes += (this.#dataLines > 0 ? 1 : 0) + bytes;
    this.#dataLines++;
    if (this.#oversized !== undefined) {
      this.#oversized.tail = `${this.#oversized.tail}\n${tail}`.slice(-SNIFF_CHARS);
    } else if (this.#dataBytes <= this.#maxBytes) {
      this.#data.push(value);
    } else {
      // past the limit: keep both ends only, to find the request's id
      this.#oversized = {
        head: [...this.#data, value].join('\n').slice(0, SNIFF_CHARS),
        tail: [...this.#data, tail].join('\n').slice(-SNIFF_CHARS),
      };
      this.#data = [];
    }
  }

  #dispatch(): void {
    const fields = [...this.#fields.values()];
    const type = fieldValue(this.#fields.get('event') ?? 'event');
    const data = this.#data;
    const oversized = this.#oversized;
    const bytes = this.#dataBytes;
    this.#fields = new Map();
    this.#data = [];
    this.#dataBytes = 0;
    this.#dataLines = 0;
    this.#oversized = undefined;
    // the SDK reads only `message` events (the default type)
    const isMessage = type === '' || type === 'message';
    const text = data.join('\n');
    if (oversized === undefined && (text === '' || !isMessage)) {
      // priming events (an id alone) and events the SDK skips pass as they are
      if (fields.length > 0 || data.length > 0) this.#writeEvent(fields, data);
      return;
    }
    const outcome: UpstreamMessageOutcome =
      oversized === undefined
        ? readUpstreamMessage(text, SSE)
        : isMessage
          ? oversizedUpstreamMessage(bytes, oversized.head, oversized.tail, this.#maxBytes, SSE)
          : {
              problem: `an event of ${bytes} bytes ${SSE.where}, more than the limit of ${this.#maxBytes} bytes, was dropped unread`,
            };
    if ('problem' in outcome) {
      this.#onProblem(outcome.problem);
      // the event's id still counts when the SDK resumes the stream
      this.#writeEvent(fields, []);
    } else if (outcome.replaced) {
      this.#writeEvent(fields, [JSON.stringify(outcome.message)]);
    } else {
      // a valid message goes on as the server wrote it
      this.#writeEvent(fields, data);
    }
  }

  #writeEvent(fields: readonly string[], data: readonly string[]): void {
    const lines = [...fields, ...data.map((value) => `data: ${value}`)];
    this.#write(`${lines.join('\n')}\n\n`);
  }
}

/** The value of a `data` line (`data: x` and `data:x` → `x`, `data` → empty), else undefined. */
function dataValue(line: string): string | undefined {
  if (line === 'data') return '';
  if (!line.startsWith('data:')) return undefined;
  return line.startsWith('data: ') ? line.slice(6) : line.slice(5);
}

/** The value of a field line (`event: x` and `event:x` → `x`, `event` → empty). */
function fieldValue(line: string): string {
  const colon = line.indexOf(':');
  if (colon === -1) return '';
  const value = line.slice(colon + 1);
  return value.startsWith(' ') ? value.slice(1) : value;
}
