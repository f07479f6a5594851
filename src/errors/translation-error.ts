import { ToolcapError } from './toolcap-error.js';

/** Stable codes of `TranslationError`. */
export type TranslationErrorCode =
  /** The provider id is not one of PROVIDER_IDS. */
  | 'UNKNOWN_PROVIDER'
  /** A tool is not an object with a string `name` and a `metadata` object. */
  | 'INVALID_TOOL'
  /** A tool name does not match `^[A-Za-z_][A-Za-z0-9_]{0,63}$` (valid for every provider). */
  | 'INVALID_TOOL_NAME'
  /** Two tools in one list share a name; every provider rejects that. */
  | 'DUPLICATE_TOOL_NAME'
  /** The input schema cannot describe an object of arguments (not an object, root type not object). */
  | 'INVALID_INPUT_SCHEMA'
  /** A `$ref` is external or does not resolve inside the schema. */
  | 'UNRESOLVABLE_REF'
  /** A schema nests too deeply or expands (through `$ref`) beyond the size limit. */
  | 'SCHEMA_TOO_COMPLEX'
  /** An option has a value of the wrong type. */
  | 'INVALID_OPTIONS'
  /** `fromProvider` got a payload that is not that provider's tool list. */
  | 'INVALID_PAYLOAD';

/**
 * Thrown by `translate` and `fromProvider` for input no translation can fix. Features a provider
 * lacks never throw: they become warnings.
 */
export class TranslationError extends ToolcapError {
  override readonly code: TranslationErrorCode;
  /** The tool concerned, if any. */
  readonly tool: string | undefined;
  /** JSON pointer inside the tool's input schema, if any. */
  readonly pointer: string | undefined;

  constructor(
    code: TranslationErrorCode,
    message: string,
    details: { tool?: string; pointer?: string; cause?: unknown } = {},
  ) {
    super(code, message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'TranslationError';
    this.code = code;
    this.tool = details.tool;
    this.pointer = details.pointer;
  }
}
