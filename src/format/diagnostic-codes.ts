/**
 * The catalogue of load diagnostic codes. Codes are stable (semver-minor safe); the README
 * table "Diagnostics catalogue" lists every one, and a test keeps the two in step.
 */
export const DIAGNOSTIC_CODES = {
  FILE_UNREADABLE:
    'The file or directory could not be read (missing, permission denied, not a file).',
  SCHEMAS_DIR_NOT_FOUND:
    'A schema directory does not exist, or names a file that is not a `*_tools.json` group file.',
  FILE_TOO_LARGE: 'The file is larger than limits.maxFileBytes.',
  EMPTY_FILE: 'The file is empty or only whitespace.',
  JSON_SYNTAX:
    'The file is not valid JSON (or not UTF-8); line and column point at the first error.',
  DUPLICATE_KEY:
    'A key appears twice in one object (warning): JSON keeps the last value, a reader sees the first.',
  ROOT_NOT_OBJECT: 'The top level of the file is not a JSON object.',
  MISSING_FIELD: 'A required field is absent.',
  INVALID_FIELD: 'A field has the wrong type or an invalid value.',
  UNKNOWN_FIELD:
    'A field is not part of the format (warning; it is ignored). Use an `x-` prefix for extensions.',
  INVALID_GROUP_NAME: 'The group name is not snake_case.',
  GROUP_NAME_MISMATCH: 'The group name does not equal the file-name prefix (`<group>_tools.json`).',
  INVALID_VERSION: 'The version is not a strict semantic version.',
  UNKNOWN_STRATEGY: 'selection.strategy is not always, keyword or context.',
  KEYWORDS_REQUIRED: 'A keyword group has no keywords.',
  INVALID_KEYWORD: 'A keyword is empty, too long, or not a string.',
  DUPLICATE_KEYWORD: 'The same keyword appears twice in a group after normalization (warning).',
  UNKNOWN_CONTEXT_CHECK: 'selection.context_check names a predicate that was not registered.',
  SELECTION_FIELD_IGNORED:
    'A selection field has no effect for the strategy (warning): context_check on an always or keyword group, which never asks it.',
  CONTEXT_GROUP_UNCONDITIONAL:
    'A context group has no context_check and none of its tools has requires_context keys, so it is offered on every turn (warning).',
  TOOLS_DIR_NOT_FOUND:
    'A --tools-dir (toolsDirs) directory does not exist; commands stop on it as on a missing --schemas path.',
  KEYWORD_NEVER_MATCHES:
    'A keyword contains no word keyword matching can find (no letter or digit, such as "!!!"), so it never matches (warning).',
  KEYWORD_TOO_COMMON:
    'A keyword is made only of common English words ("the", "can you") or of words whose stem is one ("ups" is matched as "up"), so its group would be offered on nearly every turn (warning).',
  INVALID_TOOL_NAME: 'A tool name does not match ^[A-Za-z_][A-Za-z0-9_]{0,63}$.',
  INVALID_CATEGORY: 'category is not creation, retrieval, mutation or analysis.',
  INVALID_COST: 'metadata.cost_estimate is not low, medium or high.',
  INVALID_LATENCY: 'metadata.latency_estimate is not fast, medium or slow.',
  INVALID_EXECUTOR: 'metadata.executor is not a plain identifier (paths are never accepted).',
  TAGS_NORMALIZED: 'Tags were changed by normalization (warning); write them in normalized form.',
  ROOT_SCHEMA_NOT_OBJECT: 'input_schema is not an object schema with properties.',
  INVALID_SCHEMA: 'A schema is not valid JSON Schema for its dialect.',
  INVALID_PROPERTY_TYPE: 'A schema type is not a JSON Schema type (e.g. "dict", "float").',
  PROPERTY_TYPE_MISSING: 'A property or array item has neither a type nor a composition keyword.',
  REQUIRED_NOT_DEFINED: 'required names a property that is not defined in properties.',
  ARRAY_ITEMS_MISSING: 'An array schema has no items.',
  EXTERNAL_REF:
    '$ref points outside the file; only local refs (#/...) are allowed, nothing is fetched.',
  REF_NOT_FOUND: 'A local $ref does not resolve to a schema in the same document.',
  REF_CYCLE:
    'A `$ref` leads back to itself (directly, through other `$ref`s, or through allOf, anyOf, oneOf, not, if/then/else) without passing through properties or items, so it never reaches a schema that describes the value and validating would loop forever.',
  UNKNOWN_FORMAT:
    'A schema names a `format` that is not checked (warning; any string passes it). The message lists the known formats.',
  INVALID_PATTERN:
    'A pattern or patternProperties key is not a valid regular expression, or is too complex.',
  SCHEMA_TOO_DEEP: 'A schema nests deeper than limits.maxSchemaDepth.',
  SCHEMA_TOO_LARGE: 'A schema has more nodes than limits.maxSchemaNodes.',
  DESCRIPTION_TOO_LONG: 'A description is longer than limits.maxDescriptionLength.',
  TOO_MANY_TOOLS: 'A group or the whole registry has more tools than the limits allow.',
  TOO_MANY_KEYWORDS: 'A group has more keywords than limits.maxKeywords.',
  INVALID_EXAMPLE: 'An example input does not validate against the input_schema.',
  INVALID_EXAMPLE_REQUEST:
    'An example request is not a string, is empty, or is longer than limits.maxExampleRequestLength.',
  TOO_MANY_EXAMPLE_REQUESTS: 'A tool has more example requests than limits.maxExampleRequests.',
  DUPLICATE_EXAMPLE_REQUEST:
    'The same example request appears twice in a tool after normalization (warning; the repeat is ignored).',
  DUPLICATE_TOOL:
    'Two groups (or one group twice) define the same tool name; the later one is skipped.',
  DUPLICATE_GROUP: 'register() was given a group whose name is already in the registry.',
  NOT_JSON_VALUE:
    'register() was given a group holding a value no group file could: a BigInt, a function, a symbol, NaN or an infinity, undefined in an array, a Date, Map or other non-plain object, a circular reference; or reading the group threw (a getter, a revoked Proxy).',
  DUPLICATE_GROUP_VERSION:
    'Two files define the same group and version (versions that differ only in build metadata, such as 1.2.0 and 1.2.0+b, are the same version); the later one is skipped.',
  UNSATISFIED_PIN:
    'A version pin matches no loaded version of the group, or register() was given a version outside its pin.',
  INVALID_PIN: 'A version pin is not a valid semver range.',
  INVALID_FALLBACK_TOOL: 'A code-defined fallback tool is invalid.',
  EXTERNAL_SCHEMA_FAILED:
    'An external tool did not answer --schema: it failed, timed out, or printed too much.',
  EXTERNAL_NAME_MISMATCH:
    "An external tool's --schema name does not match its kebab-case binary name.",
  EXTERNAL_NOT_EXECUTABLE:
    'A file in a --tools-dir is not executable, so it is not registered (warning).',
  NO_GROUP_FILES: 'A directory contains no *_tools.json files (warning).',
  ENTRY_SKIPPED:
    'An entry of a schema directory is not loaded (warning): a symbolic link named `*_tools.json` or to a directory (links are never followed), or an entry named `*_tools.json` that is not a regular file (a directory, a FIFO, a device). The message says what to do instead.',
  HANDLERS_DIR_NOT_FOUND:
    'toolcap validate and run: a --handlers directory (or, with validate --check-handlers, the default ./handlers) does not exist or is not a directory (warning).',
  HANDLER_NOT_FOUND:
    "toolcap validate --check-handlers: a tool's handler module handlers/<executor> is in no handler directory, or exports neither the tool's function nor execute; a call would fail with the same code.",
  HANDLER_LOAD_FAILED:
    "toolcap validate --check-handlers: a tool's handler module exists but could not be imported (syntax error, a failing top-level statement, TypeScript that is not built); a call would fail with the same code.",
  MISNAMED_GROUP_FILE:
    'A .json file whose name is close to `<group>_tools.json` (such as `billing-tools.json` or `billing_tools.JSON`) holds a group, but only `*_tools.json` files are loaded (warning); the message gives the name to use.',
  INVALID_OVERLAY:
    'toolcap validate: a group file with an x-upstream field (an overlay of an MCP server) has tools of its own, or an x-upstream field toolcap mcp --upstream would refuse; or another file defines the same group (error when it is the version loaded, else a warning).',
} as const;

/** A stable diagnostic code. */
export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;
