import { ToolcapError } from '../errors/toolcap-error.js';
import type { ToolCallError } from '../execute/types.js';
import type { JsonValue } from '../format/types.js';

/**
 * A failed tool call (`{ ok: false }` from `registry.execute`) thrown inside a framework's tool
 * so the framework reports it to the model its own way. The message is what the model reads:
 * `CODE: message`; `code` and `details` are the tool error's.
 */
export class ToolCallFailure extends ToolcapError {
  /** The tool that failed. */
  readonly toolName: string;
  /** The tool error's particulars (for `INVALID_INPUT`, the list of input problems). */
  readonly details: JsonValue;

  constructor(toolName: string, error: ToolCallError) {
    super(error.code, formatToolCallError(error));
    this.name = 'ToolCallFailure';
    this.toolName = toolName;
    this.details = error.details;
  }
}

/** The text a model reads for a failed call: the stable code, then what to fix. */
export function formatToolCallError(error: ToolCallError): string {
  return `${error.code}: ${error.message}`;
}
