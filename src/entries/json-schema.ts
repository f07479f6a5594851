/**
 * `tool-capabilities/json-schema`: input checks outside `registry.execute`, for hosts that
 * run tools themselves, and the tool-name rules every provider accepts.
 * @module
 */
export { type InputValidation, validateToolInput } from '../execute/validate-tool-input.js';
export { isValidToolName, normalizeTags, TOOL_NAME_PATTERN } from '../format/names.js';
export { removeNullOptionals } from '../json-schema/remove-null-optionals.js';
