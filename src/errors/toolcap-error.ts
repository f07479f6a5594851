const marker = Symbol.for('tool-capabilities.error');

/**
 * Base class of every error the library throws. `code` is stable across minor versions;
 * `isInstance` works across duplicate copies of the package.
 */
export class ToolcapError extends Error {
  /** Stable machine-readable code, e.g. `TOOL_NOT_FOUND`. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ToolcapError';
    this.code = code;
    Object.defineProperty(this, marker, { value: true });
  }

  /** Whether `error` is a ToolcapError, even one from another copy of this package. */
  static isInstance(error: unknown): error is ToolcapError {
    return error !== null && typeof error === 'object' && marker in error;
  }
}
