/** Bytes kept of each end of a line over the limit. */
const SNIFF_BYTES = 512;

/** What a `LineSplitter` hands out. */
export interface LineHandlers {
  line(text: string): void;
  /** A line over the limit: its size and its first and last bytes. */
  oversized(bytes: number, head: string, tail: string): void;
}

/**
 * Splits a byte stream into lines, skipping (and reporting) lines over a size limit: such a
 * line is never held in memory whole, only its first and last 512 bytes (where a JSON-RPC
 * message's `id` is).
 */
export class LineSplitter {
  readonly #maxBytes: number;
  readonly #handlers: LineHandlers;
  #chunks: Buffer[] = [];
  #size = 0;
  #discarding = false;
  #head = '';
  #tail = Buffer.alloc(0);

  constructor(maxBytes: number, handlers: LineHandlers) {
    this.#maxBytes = maxBytes;
    this.#handlers = handlers;
  }

  push(chunk: Buffer): void {
    let start = 0;
    while (start <= chunk.length) {
      const newline = chunk.indexOf(10, start);
      const end = newline === -1 ? chunk.length : newline;
      if (end > start) this.#append(chunk.subarray(start, end));
      if (newline === -1) return;
      this.#finishLine();
      start = newline + 1;
    }
  }

  /** End of input: a last line without a newline still counts. */
  end(): void {
    if (this.#size > 0 || this.#discarding) this.#finishLine();
  }

  #append(piece: Buffer): void {
    if (!this.#discarding && this.#size + piece.length > this.#maxBytes) {
      // start skipping: keep only both ends, to find the request's id
      const whole = Buffer.concat([...this.#chunks, piece.subarray(0, SNIFF_BYTES)]);
      this.#head = whole.subarray(0, SNIFF_BYTES).toString('utf8');
      this.#discarding = true;
      this.#chunks = [];
    }
    this.#size += piece.length;
    if (this.#discarding) {
      const tail = Buffer.concat([this.#tail, piece]);
      this.#tail = tail.subarray(Math.max(0, tail.length - SNIFF_BYTES));
    } else {
      this.#chunks.push(piece);
    }
  }

  #finishLine(): void {
    const size = this.#size;
    const discarded = this.#discarding;
    const text = discarded ? '' : Buffer.concat(this.#chunks).toString('utf8');
    const head = this.#head;
    const tail = this.#tail.toString('utf8');
    this.#chunks = [];
    this.#size = 0;
    this.#discarding = false;
    this.#head = '';
    this.#tail = Buffer.alloc(0);
    if (discarded) this.#handlers.oversized(size, head, tail.replace(/\r$/, ''));
    else this.#handlers.line(text);
  }
}
