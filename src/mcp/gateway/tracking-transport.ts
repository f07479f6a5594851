import type {
  Transport,
  TransportSendOptions,
} from '@modelcontextprotocol/sdk/shared/transport.js';
import type {
  JSONRPCMessage,
  MessageExtraInfo,
  RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * Wraps an SDK transport and counts the requests it delivered that have no answer yet, so a
 * server can finish them before it stops (stdin closed while a call runs).
 */
export class TrackingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  readonly #inner: Transport;
  readonly #pending = new Set<RequestId>();
  #waiters: (() => void)[] = [];

  constructor(inner: Transport) {
    this.#inner = inner;
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      if ('method' in message) {
        if ('id' in message) this.#pending.add(message.id);
        else if (message.method === 'notifications/cancelled') {
          // a cancelled request gets no answer: stop waiting for it
          this.#settle((message.params as { requestId?: RequestId } | undefined)?.requestId);
        }
      }
      this.onmessage?.(message, extra);
    };
  }

  /** Requests delivered and not answered yet. */
  get pending(): number {
    return this.#pending.size;
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    await this.#inner.send(message, options);
    if (!('method' in message) && 'id' in message) this.#settle(message.id);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  /** Resolves when every delivered request has been answered, or after `timeoutMs`. */
  idle(timeoutMs: number): Promise<void> {
    if (this.#pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      // unref: a wait cut short (a stop signal's grace) must not hold the process open
      const timer = setTimeout(finish, timeoutMs).unref();
      function finish() {
        clearTimeout(timer);
        resolve();
      }
      this.#waiters.push(finish);
    });
  }

  #settle(id: RequestId | undefined): void {
    if (id === undefined || !this.#pending.delete(id) || this.#pending.size > 0) return;
    for (const waiter of this.#waiters.splice(0)) waiter();
  }
}
