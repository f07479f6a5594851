import type { JsonValue } from '../format/types.js';

const marker = Symbol.for('tool-capabilities.tool-error');
const CODE_PATTERN = /^[A-Z][A-Z0-9_]{0,63}$/;

/**
 * A handler's error code as UPPER_SNAKE_CASE: `task-not-found`, `taskNotFound` and
 * `task not found` become `TASK_NOT_FOUND`, `HTTPError` `HTTP_ERROR`, `über` `UBER`; what still
 * is not a code (empty, a leading digit, over 64 characters) becomes `HANDLER_ERROR` (a failed
 * call then keeps the code as given in `details.error_code`).
 */
export function toErrorCode(code: string): string {
  if (CODE_PATTERN.test(code)) return code;
  const converted = code
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return CODE_PATTERN.test(converted) ? converted : 'HANDLER_ERROR';
}

/**
 * What a handler throws for an expected failure it wants the model to see with its own code
 * (`OLD_STRING_NOT_FOUND`, `TASK_NOT_FOUND`, ...). `registry.execute` turns it into
 * `{ ok: false, error: { code, message, details } }`; any other exception becomes
 * `HANDLER_ERROR`. Recognized across duplicate copies of the package.
 */
export class ToolError extends Error {
  /** UPPER_SNAKE_CASE code, converted from kebab-, camel- or space-separated case (see `toErrorCode`). */
  readonly code: string;
  /** The code as the handler gave it, before conversion. */
  readonly givenCode: string;
  /** JSON details for the caller. */
  readonly details: JsonValue;

  constructor(code: string, message: string, details: JsonValue = {}) {
    super(message);
    this.name = 'ToolError';
    this.givenCode = String(code);
    this.code = toErrorCode(this.givenCode);
    this.details = details;
    Object.defineProperty(this, marker, { value: true });
  }

  /** Whether `error` is a ToolError, even one from another copy of this package. */
  static isInstance(error: unknown): error is ToolError {
    return error !== null && typeof error === 'object' && marker in error;
  }
}
