import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import type { Embedder } from '../embeddings/embedder.js';
import { ToolcapError } from '../errors/toolcap-error.js';
import { type ExecutionLimitsInput, resolveExecutionLimits } from '../execute/execution-limits.js';
import { isEnvironmentPattern } from '../execute/external/external-environment.js';
import type { HandlerModule } from '../execute/load-handler.js';
import { DEFAULT_LOAD_LIMITS, type LoadLimits, resolveLoadLimits } from '../format/limits.js';
import { isValidExecutorName } from '../format/names.js';
import type { FallbackExecute, FallbackTool } from '../registry/fallback-tools.js';
import { DEFAULT_SEMANTIC_WEIGHT } from '../select/fuse-scores.js';
import type { ContextCheck } from '../select/types.js';
import {
  resolveTextAnalyzer,
  type TextAnalyzer,
  type TextAnalyzerOptions,
} from '../text/text-analyzer.js';
import {
  describeValue,
  isBoolean,
  isFunction,
  isObject,
  isPathList,
  isRecordOf,
  isString,
  type OptionCheck,
  type OptionSpec,
  toStringList,
} from '../util/check-options.js';
import type { RegistrySettings } from './registry.js';

/** The `loadRegistry` / `createRegistry` options that configure `execute`. */
export interface ExecutionOptions {
  /**
   * Values handed to every handler in `options.services`; a service also satisfies a
   * `requires_context` key the call context lacks (e.g. a `calendar_manager` instance).
   */
  services?: Readonly<Record<string, unknown>>;
  /** Where the bundled handlers keep their stores (relative to cwd). Default `.toolcap/data`. */
  dataDir?: string;
  /** Timeouts and size limits; see `DEFAULT_EXECUTION_LIMITS`. */
  executionLimits?: ExecutionLimitsInput;
  /**
   * The default of `execute`'s (and `executeToolCalls`' and the adapters') `applyDefaults`:
   * `true` fills in the input schema's `default`s before every call's handler runs, as the
   * Zod or Python code a migrated tool came from did; a call's own `applyDefaults` wins.
   * Default false.
   */
  applyDefaults?: boolean;
}

/** The semantic scorer of a registry (off unless given); see `SemanticOptions`. */
export interface SemanticOptions {
  /**
   * Turns texts into vectors: `createWordVectorEmbedder` or `createOpenAICompatibleEmbedder`
   * (from `tool-capabilities/embeddings`), or any object with an `id` and `embed(texts)`.
   */
  embedder: Embedder;
  /**
   * Weight of the semantic score in the fused score, above 0 and at most 1: a tool sharing no
   * word with the message scores at most this much. Default `DEFAULT_SEMANTIC_WEIGHT`.
   */
  weight?: number;
  /**
   * Directory of the tool-vector cache (one file per embedder), relative to `cwd`; `false`
   * keeps vectors in memory only. Default `.toolcap/cache/embeddings`.
   */
  cacheDir?: string | false;
}

/** Options of `createRegistry`: everything that does not involve reading files. */
export interface CreateRegistryOptions extends ExecutionOptions {
  /** Base for relative paths. Default `process.cwd()`. */
  cwd?: string;
  /** Version ranges per group (`{ calendar: "^1.0.0" }`); default: the highest version wins. */
  pins?: Readonly<Record<string, string>>;
  /** Predicates that `context` groups name in `selection.context_check`, by name. */
  contextChecks?: Readonly<Record<string, ContextCheck>>;
  /**
   * Code-defined tools still being migrated; JSON definitions win on a name collision. A
   * framework's tools or a whole module go through `toFallbackTools` (`tool-capabilities/migrate`).
   */
  fallbackTools?: readonly FallbackTool[];
  /** Size limits; see `DEFAULT_LOAD_LIMITS`. */
  limits?: Partial<LoadLimits>;
  /**
   * Directories holding `<executor>.js` (or `.mjs`, `.cjs`, `.ts`) handler modules, relative to
   * `cwd`; a single string is one directory. Default `["handlers"]`.
   */
  handlers?: string | readonly string[];
  /**
   * Handler modules given as objects instead of files, by executor name: what a handler file
   * would export (a function per tool name, or `execute(toolName, input, context, options)`),
   * e.g. `{ tasks: { add_task: (input, context) => ... } }` or `{ tasks: await
   * import('./tasks.js') }`. An executor found here is not looked for in `handlers`.
   */
  handlerModules?: Readonly<Record<string, HandlerModule>>;
  /**
   * Tokenizer, stemmer and stopwords for keyword matching and ranking: an analyzer or options
   * for `createTextAnalyzer`. Default: Unicode folding, symbol-aware words, English Porter.
   */
  analyzer?: TextAnalyzer | TextAnalyzerOptions;
  /**
   * A semantic scorer fused with the lexical score by `selectAsync`, `searchAsync`, and
   * `select`/`search` given a `queryVector`. Off by default.
   */
  semantic?: SemanticOptions;
}

/** Options of `loadRegistry`. */
export interface LoadRegistryOptions extends CreateRegistryOptions {
  /**
   * Directories searched (recursively) for `*_tools.json`, or single `*_tools.json` files, in
   * order, relative to `cwd`; a single string is one directory. Default `["schemas"]`.
   */
  dirs?: string | readonly string[];
  /** Throw a `RegistryLoadError` when any error diagnostic is found. Default false. */
  strict?: boolean;
  /**
   * Validate each tool's `examples` against its `input_schema`. This compiles those schemas, so
   * it is off by default (loading never compiles); `toolcap validate` turns it on.
   */
  checkExamples?: boolean;
  /** Directories of external `--schema` executables to discover and register. */
  toolsDirs?: string | readonly string[];
  /** Group name for the discovered external tools. Default `external`. */
  externalGroup?: string;
}

const isLimits: OptionCheck = (value) => {
  const shape = `an object of non-negative integers with keys among ${Object.keys(DEFAULT_LOAD_LIMITS).join(', ')}`;
  if (isObject(value) !== undefined) return shape;
  return Object.entries(value as object).every(
    ([key, limit]) =>
      Object.hasOwn(DEFAULT_LOAD_LIMITS, key) &&
      (limit === undefined || (Number.isInteger(limit) && limit >= 0)),
  )
    ? undefined
    : shape;
};

const isExecutionLimits: OptionCheck = (value) => {
  const shape =
    'an object such as { timeoutsMs: { fast: 5000 }, maxInputBytes: 1048576 } of positive numbers, with externalEnv: { allow: ["NAME", "PREFIX_*"] }';
  if (isObject(value) !== undefined) return shape;
  const positive = (number: unknown) =>
    number === undefined || (typeof number === 'number' && number > 0);
  for (const [key, limit] of Object.entries(value as object)) {
    if (key === 'externalEnv') {
      const allow = (limit as { allow?: unknown } | undefined)?.allow;
      if (
        limit !== undefined &&
        (isObject(limit) !== undefined ||
          !Array.isArray(allow) ||
          !allow.every((name) => typeof name === 'string' && isEnvironmentPattern(name)))
      ) {
        return shape;
      }
    } else if (key === 'timeoutsMs') {
      if (isObject(limit) !== undefined) return shape;
      if (!Object.values(limit as object).every(positive)) return shape;
    } else if (!positive(limit)) {
      return shape;
    }
  }
  return undefined;
};

const isAnalyzer: OptionCheck = (value) =>
  isObject(value) === undefined
    ? undefined
    : 'a TextAnalyzer or createTextAnalyzer options ({ tokenizer?, stemmer?, stopwords? })';

const isSemantic: OptionCheck = (value) => {
  const shape =
    '{ embedder, weight?, cacheDir? } with embedder an object with a string id and an embed(texts) method (createWordVectorEmbedder or createOpenAICompatibleEmbedder from tool-capabilities/embeddings)';
  if (isObject(value) !== undefined) return shape;
  const { embedder, weight, cacheDir, ...rest } = value as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) {
    return {
      problem: `has the member "${unknown[0]}", which is not one of embedder, weight, cacheDir`,
    };
  }
  const { id, embed } = (embedder ?? {}) as { id?: unknown; embed?: unknown };
  if (
    embedder === null ||
    typeof embedder !== 'object' ||
    typeof id !== 'string' ||
    id === '' ||
    typeof embed !== 'function'
  ) {
    return shape;
  }
  if (weight !== undefined && !(typeof weight === 'number' && weight > 0 && weight <= 1)) {
    return {
      problem: `has weight ${JSON.stringify(weight) ?? typeof weight}; weight must be a number above 0 and at most 1`,
    };
  }
  if (
    cacheDir !== undefined &&
    cacheDir !== false &&
    (typeof cacheDir !== 'string' || cacheDir === '')
  ) {
    return {
      problem: `has cacheDir ${JSON.stringify(cacheDir) ?? typeof cacheDir}; cacheDir must be a directory path or false`,
    };
  }
  return undefined;
};

const isFallbackToolList: OptionCheck = (value) =>
  Array.isArray(value)
    ? undefined
    : {
        problem: `is ${describeValue(value)}, not an array: it takes tool objects ({ name, description, inputSchema | input_schema | parameters | params }, see FallbackTool). For an AI SDK ToolSet, OpenAI Agents SDK or LangChain tools, an MCP SDK server or a whole module, convert them with toFallbackTools from "tool-capabilities/migrate": fallbackTools: await toFallbackTools(tools)`,
      };
const HANDLER_MODULES_SHAPE =
  'an object of handler modules by executor name, such as { tasks: { add_task: (input, context) => ... } } or { tasks: await import("./handlers/tasks.js") }';

const isHandlerModules: OptionCheck = (value) => {
  if (isObject(value) !== undefined) return HANDLER_MODULES_SHAPE;
  for (const [executor, module] of Object.entries(value as object)) {
    if (!isValidExecutorName(executor)) {
      return {
        problem: `has the executor ${describeValue(executor)}, which is not an executor name (lowercase letters, digits and _, starting with a letter, at most 64 characters): use the metadata.executor of its tools, such as "tasks"`,
      };
    }
    if (module === null || typeof module !== 'object' || Array.isArray(module)) {
      const given = typeof module === 'function' ? 'a function' : describeValue(module);
      return {
        problem: `has ${given} for executor ${describeValue(executor)}, not a module object: give what a handler file exports, an object of functions named after the tools ({ add_task(input, context) { ... } }) or with execute(toolName, input, context), or the module itself (await import("./handlers/${executor}.js"))`,
      };
    }
  }
  return undefined;
};

const PINS_SHAPE = 'an object of semver ranges by group, such as { calendar: "^1.0.0" }';

const isPins: OptionCheck = (value) => {
  const expected = isRecordOf(isString, PINS_SHAPE)(value);
  if (expected !== undefined) return expected;
  for (const [group, range] of Object.entries(value as Record<string, string>)) {
    // semver reads "" as "*": an unset environment variable would silently unpin the group
    if (range.trim() === '') {
      return {
        problem: `has an empty range for group ${describeValue(group)}; give a version or range such as "^1.0.0", or leave the group out for its highest version (an empty pin is usually an unset environment variable)`,
      };
    }
  }
  return undefined;
};

/** The checks of `createRegistry`'s options. */
export const CREATE_REGISTRY_OPTIONS: OptionSpec = {
  cwd: isString,
  pins: isPins,
  contextChecks: isRecordOf(
    isFunction,
    'an object of predicates by name, such as { has_project: (context, message) => ... }',
  ),
  fallbackTools: isFallbackToolList,
  limits: isLimits,
  handlers: isPathList('import handler modules from the working directory (cwd)', 'handlers'),
  handlerModules: isHandlerModules,
  analyzer: isAnalyzer,
  services: isObject,
  dataDir: isString,
  executionLimits: isExecutionLimits,
  applyDefaults: isBoolean,
  semantic: isSemantic,
};

/** The checks of `loadRegistry`'s options. */
export const LOAD_REGISTRY_OPTIONS: OptionSpec = {
  ...CREATE_REGISTRY_OPTIONS,
  dirs: isPathList('load every *_tools.json under the working directory (cwd)', 'schemas'),
  strict: isBoolean,
  checkExamples: isBoolean,
  toolsDirs: isPathList('register the executables of the working directory (cwd)', 'tools'),
  externalGroup: isString,
};

const require = createRequire(import.meta.url);

/**
 * Throws `INVALID_OPTION` for a pin of `createRegistry` that is not a semver range: with no
 * files to report it on, a bad range would otherwise only surface at `register()`.
 */
export function checkPinRanges(pins: Readonly<Record<string, string>> | undefined): void {
  const entries = Object.entries(pins ?? {});
  if (entries.length === 0) return;
  const validRange: (range: string) => string | null = require('semver/ranges/valid.js');
  for (const [group, range] of entries) {
    if (validRange(range) === null) {
      throw new ToolcapError(
        'INVALID_OPTION',
        `createRegistry: option "pins" has ${JSON.stringify(range)} for group "${group}", which is not a valid semver range; use a version or range such as "1.2.0", "^1.0.0" or "~2.1"`,
      );
    }
  }
}

/** The settings a registry built with `options` carries (fallback implementations come later). */
export function resolveRegistrySettings(
  options: CreateRegistryOptions,
  cwd: string,
  fallbackImplementations: ReadonlyMap<string, FallbackExecute>,
): RegistrySettings {
  const handlers = options.handlers === undefined ? ['handlers'] : toStringList(options.handlers);
  return {
    limits: resolveLoadLimits(options.limits),
    contextChecks: new Map(Object.entries(options.contextChecks ?? {})),
    pins: new Map(Object.entries(options.pins ?? {})),
    handlerDirs: handlers.map((dir) => resolve(cwd, dir)),
    // a Map: executor names come from group files, and an own key is all that counts
    handlerModules: new Map(Object.entries(options.handlerModules ?? {})),
    fallbackImplementations,
    services: new Map(Object.entries(options.services ?? {})),
    dataDir: resolve(cwd, options.dataDir ?? '.toolcap/data'),
    executionLimits: resolveExecutionLimits(options.executionLimits),
    ...(options.applyDefaults === undefined ? {} : { applyDefaults: options.applyDefaults }),
    ...(options.analyzer !== undefined ? { analyzer: resolveTextAnalyzer(options.analyzer) } : {}),
    ...(options.semantic !== undefined
      ? {
          semantic: {
            embedder: options.semantic.embedder,
            weight: options.semantic.weight ?? DEFAULT_SEMANTIC_WEIGHT,
            cacheDir:
              options.semantic.cacheDir === false
                ? undefined
                : resolve(cwd, options.semantic.cacheDir ?? '.toolcap/cache/embeddings'),
          },
        }
      : {}),
  };
}
