import type { JsonValue } from '../format/types.js';

const marker = Symbol.for('tool-capabilities.tool-error');
const CODE_PATTERN = /^[A-Z][A-Z0-9_]{0,63}$/;

/**
 * What a handler throws for an expected failure it wants the model to see with its own code
 * (`OLD_STRING_NOT_FOUND`, `TASK_NOT_FOUND`, ...). `registry.execute` turns it into
 * `{ ok: false, error: { code, message, details } }`; any other exception becomes
 * `HANDLER_ERROR`. Recognized across duplicate copies of the package.
 */
export class ToolError extends Error {
  /** UPPER_SNAKE_CASE code; an invalid one is reported as `HANDLER_ERROR`. */
  readonly code: string;
  /** JSON details for the caller. */
  readonly details: JsonValue;

  constructor(code: string, message: string, details: JsonValue = {}) {
    super(message);
    this.name = 'ToolError';
    this.code = CODE_PATTERN.test(code) ? code : 'HANDLER_ERROR';
    this.details = details;
    Object.defineProperty(this, marker, { value: true });
  }

  /** Whether `error` is a ToolError, even one from another copy of this package. */
  static isInstance(error: unknown): error is ToolError {
    return error !== null && typeof error === 'object' && marker in error;
  }
}
