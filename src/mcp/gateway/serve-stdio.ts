import { once } from 'node:events';
import { PassThrough, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCErrorResponse } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../../util/error-message.js';
import {
  checkJsonRpcMessage,
  errorResponse,
  JSON_RPC_ERRORS,
  sniffRequestId,
} from './check-json-rpc-message.js';
import { LineSplitter } from './line-splitter.js';
import { TrackingTransport } from './tracking-transport.js';

/** Default largest message, in bytes: the SDK's HTTP transport limit. */
export const DEFAULT_MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** Options of `serveStdio`. */
export interface ServeStdioOptions {
  /** Where messages come from, one JSON-RPC message per line (process.stdin). */
  input: NodeJS.ReadableStream;
  /** Writes protocol text (process.stdout); nothing else may be written there. */
  write: (text: string) => void;
  /** Largest message; a longer line is refused with an error and skipped. Default 4 MiB. */
  maxMessageBytes?: number;
  /** How long to wait at end of input for requests still running. Default 60 s. */
  drainTimeoutMs?: number;
  /** A message that was refused or dropped, described for the operator. */
  onProblem?: (problem: string) => void;
  /**
   * Stops as the end of input does when it aborts (a stop signal): no further message is read,
   * the requests in progress are answered, then the server closes; but once it has aborted, they
   * get at most 1 s more before they are cancelled (their handlers aborted).
   */
  signal?: AbortSignal;
}

/**
 * Serves `server` over stdio through the SDK's `StdioServerTransport`, behind a guard that
 * frames lines itself: a line longer than `maxMessageBytes` is skipped as it streams (never
 * buffered whole) and refused with an error naming the limit; text that is not JSON, a message
 * that is no valid JSON-RPC request and malformed parameters get an error answer instead of
 * silence. At end of input, or when `signal` aborts, the requests still running are answered
 * before the server closes. Resolves when the server has closed.
 */
export async function serveStdio(server: Server, options: ServeStdioOptions): Promise<void> {
  const maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const forward = new PassThrough();
  const output = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      options.write(chunk.toString('utf8'));
      callback();
    },
  });
  const transport = new TrackingTransport(
    new StdioServerTransport(forward, output, { maxBufferSize: Math.max(maxBytes * 2, 1024) }),
  );
  const closed = new Promise<void>((resolve) => {
    const previous = server.onclose;
    server.onclose = () => {
      previous?.();
      resolve();
    };
  });
  await server.connect(transport);

  const reply = (response: JSONRPCErrorResponse, problem: string) => {
    options.write(`${JSON.stringify(response)}\n`);
    options.onProblem?.(problem);
  };
  const splitter = new LineSplitter(maxBytes, {
    line(text) {
      const line = text.endsWith('\r') ? text.slice(0, -1) : text;
      if (line.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        const problem = `the message is not valid JSON (${errorMessage(error)}); send one JSON-RPC message per line`;
        reply(errorResponse(null, JSON_RPC_ERRORS.parseError, problem), problem);
        return;
      }
      const check = checkJsonRpcMessage(value);
      if (check.ok) forward.write(`${line}\n`);
      else if (check.reply !== undefined) reply(check.reply, check.problem);
      else options.onProblem?.(check.problem);
    },
    oversized(bytes, head, tail) {
      const problem = `the message is ${bytes} bytes, more than the limit of ${maxBytes} bytes; it was not read. Send smaller arguments`;
      reply(
        errorResponse(sniffRequestId(head, tail), JSON_RPC_ERRORS.invalidRequest, problem),
        problem,
      );
    },
  });
  const onData = (chunk: Buffer | string) => {
    splitter.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  };
  options.input.on('data', onData);
  const stopReading = () => {
    options.input.off('data', onData);
    // stopped before the input ended (a signal): a stream still flowing keeps the process up
    options.input.pause();
  };
  const { signal } = options;
  let onAbort: (() => void) | undefined;
  const ended = new Promise<void>((resolve) => {
    options.input.once('end', resolve);
    options.input.once('close', resolve);
    options.input.once('error', resolve);
    // at once, not after an await: a line arriving meanwhile must not be read
    onAbort = () => {
      stopReading();
      resolve();
    };
    if (signal?.aborted === true) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  await Promise.race([ended, closed]);
  if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  stopReading();
  splitter.end();
  // every forwarded line reaches the server before we look for requests still running
  forward.end();
  if (!forward.readableEnded) await once(forward, 'end');
  // the requests in progress are answered first (a piped request gets its answer), but a stop
  // signal, before or during that wait, leaves them at most SIGNAL_GRACE_MS more: on stdio it
  // comes from a client that closed our input and kills us 2 s later (SIGTERM, then SIGKILL),
  // and closing the server aborts their handlers, so external tools are killed, not orphaned
  await waitForIdle(transport, options.drainTimeoutMs ?? 60_000, signal);
  await server.close();
  await closed;
}

/** How long requests in progress may still run once a stop signal has come. */
const SIGNAL_GRACE_MS = 1_000;

/** Waits for the requests in progress: at most `timeoutMs`, and SIGNAL_GRACE_MS after `signal` aborts. */
function waitForIdle(
  transport: TrackingTransport,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  return new Promise((resolve) => {
    let grace: NodeJS.Timeout | undefined;
    const onAbort = () => {
      grace = setTimeout(done, SIGNAL_GRACE_MS);
    };
    function done() {
      clearTimeout(grace);
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }
    if (signal?.aborted === true) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    void transport.idle(timeoutMs).then(done);
  });
}
