import type { PassThrough } from 'node:stream';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** A client transport that talks to `toolcap mcp` running in-process through its CliIo. */
export class CliIoTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #buffer = new ReadBuffer();
  readonly #stdin: PassThrough;
  constructor(stdin: PassThrough) {
    this.#stdin = stdin;
  }
  async start(): Promise<void> {}
  /** Feeds text the server wrote to its stdout. */
  receive(text: string): void {
    this.#buffer.append(Buffer.from(text));
    for (
      let message = this.#buffer.readMessage();
      message !== null;
      message = this.#buffer.readMessage()
    ) {
      this.onmessage?.(message);
    }
  }
  async send(message: JSONRPCMessage): Promise<void> {
    this.#stdin.write(serializeMessage(message));
  }
  async close(): Promise<void> {
    this.#stdin.end();
    this.onclose?.();
  }
}
