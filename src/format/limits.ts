/** Loader limits: each protects memory, CPU or a provider limit; each has a diagnostic when hit. */
export interface LoadLimits {
  /** Largest group file read, in bytes (FILE_TOO_LARGE). Default 5 MiB. */
  maxFileBytes: number;
  /** Most tools in one group (TOO_MANY_TOOLS). Default 1,000. */
  maxToolsPerGroup: number;
  /** Most tools in the whole registry (TOO_MANY_TOOLS). Default 100,000. */
  maxTools: number;
  /** Deepest JSON nesting inside one schema (SCHEMA_TOO_DEEP). Default 64. */
  maxSchemaDepth: number;
  /** Most JSON nodes inside one schema (SCHEMA_TOO_LARGE). Default 20,000. */
  maxSchemaNodes: number;
  /** Most keywords in one group (TOO_MANY_KEYWORDS). Default 500. */
  maxKeywords: number;
  /** Longest keyword, in characters (INVALID_KEYWORD). Default 100. */
  maxKeywordLength: number;
  /** Longest tool or group description, in characters (DESCRIPTION_TOO_LONG). Default 10,000. */
  maxDescriptionLength: number;
  /** Longest `pattern` regex source, in characters (INVALID_PATTERN). Default 1,000. */
  maxPatternLength: number;
  /** Most `example_requests` of one tool (TOO_MANY_EXAMPLE_REQUESTS). Default 50. */
  maxExampleRequests: number;
  /** Longest example request, in characters (INVALID_EXAMPLE_REQUEST). Default 500. */
  maxExampleRequestLength: number;
}

/** The defaults; see each field. */
export const DEFAULT_LOAD_LIMITS: Readonly<LoadLimits> = Object.freeze({
  maxFileBytes: 5 * 1024 * 1024,
  maxToolsPerGroup: 1_000,
  maxTools: 100_000,
  maxSchemaDepth: 64,
  maxSchemaNodes: 20_000,
  maxKeywords: 500,
  maxKeywordLength: 100,
  maxDescriptionLength: 10_000,
  maxPatternLength: 1_000,
  maxExampleRequests: 50,
  maxExampleRequestLength: 500,
});

/** Fills unspecified limits with the defaults. */
export function resolveLoadLimits(limits: Partial<LoadLimits> | undefined): LoadLimits {
  return { ...DEFAULT_LOAD_LIMITS, ...limits };
}
