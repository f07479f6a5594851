import valid from 'semver/functions/valid.js';
import type { DiagnosticCode } from '../format/diagnostic-codes.js';
import {
  validateGroupHeader,
  validateTool,
  validateToolFast,
} from '../format/generated/group-validators.js';
import { abbreviatePointer, escapePointerToken, getAtPointer } from '../format/json-pointer.js';
import type { LoadLimits } from '../format/limits.js';
import { groupNameFromFileName, isValidGroupName, normalizeTags } from '../format/names.js';
import type {
  CostEstimate,
  DiagnosticSeverity,
  JsonObject,
  JsonSchema,
  LatencyEstimate,
  SelectionStrategy,
  ToolAnnotations,
  ToolCategory,
  ToolDefinition,
  ToolGroupDefinition,
} from '../format/types.js';
import {
  checkSchema,
  measureAndFreeze,
  schemaDialect,
  suggestJsonSchemaType,
} from '../json-schema/check-schema.js';
import { findStopwordOfTerm } from '../text/stopword-terms.js';
import { ENGLISH_STOPWORDS } from '../text/stopwords.js';
import { getDefaultTextAnalyzer } from '../text/text-analyzer.js';
import { tokenize } from '../text/tokenize.js';
import { quoteValue } from '../util/quote-value.js';
import { suggestSimilar } from '../util/suggest-similar.js';
import { checkExampleRequests } from './check-example-requests.js';
import { validateExamples } from './validate-examples.js';

/** A problem found in one group document; `pointer` is absolute within the file. */
export interface GroupProblem {
  severity: DiagnosticSeverity;
  code: DiagnosticCode;
  pointer: string;
  message: string;
}

/** The outcome of validating one group document. */
export interface GroupValidation {
  /** The group with its valid tools, or undefined when a group-level error skips it. */
  group: ToolGroupDefinition | undefined;
  /** Pointers (`/tools/N`) of the tools that were kept, in order. */
  toolPointers: string[];
  problems: GroupProblem[];
  /**
   * Names of the kept tools by their `x-original-name` (the name `toolcap import` converted),
   * when any has one; the first tool keeps an original name two tools share.
   */
  originalNames?: ReadonlyMap<string, string>;
}

/** Options for `validateGroupDocument`. */
export interface ValidateGroupOptions {
  /**
   * The words keyword matching finds in a text, to report keywords that can never match (only
   * whether there is one counts). Default: the default tokenizer.
   */
  words?: (text: string) => readonly unknown[];
  limits: LoadLimits;
  /** File base name, to check `group` against `<group>_tools.json`; omit for `register()`. */
  fileName?: string;
  /** Names of registered context predicates; undefined skips the check. */
  contextChecks?: ReadonlySet<string>;
  /** Validate `examples` against `input_schema` (compiles the schema). Default false. */
  checkExamples?: boolean;
}

interface AjvError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

type Validator = ((data: unknown) => boolean) & { errors?: AjvError[] | null };

const GROUP_FIELD_HELP: Readonly<Record<string, string>> = {
  group: 'add "group": "<name>", the snake_case prefix of the file name <name>_tools.json',
  version: 'add "version": "1.0.0" (strict semver)',
  description: 'add "description": a sentence saying what this group of tools does',
  selection: 'add "selection": {"strategy": "always"} (or "keyword" with "keywords", or "context")',
  tools: 'add "tools": [ ... ] with the group\'s tool definitions',
  strategy: 'add "strategy": "always", "keyword" or "context"',
};

const TOOL_FIELD_HELP: Readonly<Record<string, string>> = {
  name: 'add "name": a snake_case identifier such as "create_event"',
  description: 'add "description": what the tool does, for the model',
  category: 'add "category": one of "creation", "retrieval", "mutation", "analysis"',
  input_schema:
    'add "input_schema": {"type": "object", "properties": {...}} ({"type": "object", "properties": {}} for no arguments)',
  metadata: 'add "metadata": {"executor": "<handler module>"}',
  executor: 'add "executor": the handler module name (handlers/<executor>)',
  type: 'add "type": "object"',
  properties: 'add "properties": {} (an object of parameter schemas)',
};

const GROUP_FIELDS = ['$schema', 'group', 'version', 'description', 'selection', 'tools'];
const SELECTION_FIELDS = ['strategy', 'keywords', 'context_check'];
const TOOL_FIELDS = [
  'name',
  'title',
  'description',
  'category',
  'tags',
  'annotations',
  'examples',
  'example_requests',
  'input_schema',
  'output_schema',
  'metadata',
];
const METADATA_FIELDS = ['executor', 'requires_context', 'cost_estimate', 'latency_estimate'];
const ANNOTATION_FIELDS = [
  'title',
  'readOnlyHint',
  'destructiveHint',
  'idempotentHint',
  'openWorldHint',
];

/**
 * Validates one parsed group document: the header with the generated ajv validator, then each
 * tool on its own, so a bad tool skips only that tool and a group-level error skips the group.
 */
export function validateGroupDocument(
  document: unknown,
  options: ValidateGroupOptions,
): GroupValidation {
  const problems: GroupProblem[] = [];
  if (document === null || typeof document !== 'object' || Array.isArray(document)) {
    problems.push({
      severity: 'error',
      code: 'ROOT_NOT_OBJECT',
      pointer: '',
      message: `the file must contain one JSON object ({"group": ..., "tools": [...]}), not ${describeJsonType(document)}`,
    });
    return { group: undefined, toolPointers: [], problems };
  }
  const root = document as Record<string, unknown>;

  runValidator(validateGroupHeader as Validator, root, '', 'group', problems);
  checkGroupSemantics(root, options, problems);
  const groupFailed = problems.some((problem) => problem.severity === 'error');

  const tools: ToolDefinition[] = [];
  const toolPointers: string[] = [];
  const rawTools = Array.isArray(root.tools) ? root.tools : [];
  if (rawTools.length > options.limits.maxToolsPerGroup) {
    problems.push({
      severity: 'error',
      code: 'TOO_MANY_TOOLS',
      pointer: '/tools',
      message: `the group has ${rawTools.length} tools, more than ${options.limits.maxToolsPerGroup} (limits.maxToolsPerGroup); split it into several groups`,
    });
    return { group: undefined, toolPointers, problems };
  }
  const seenNames = new Map<string, number>();
  const originalNames = new Map<string, string>();
  rawTools.forEach((rawTool, index) => {
    const pointer = `/tools/${index}`;
    const toolProblems: GroupProblem[] = [];
    const tool = validateToolEntry(rawTool, pointer, options, toolProblems);
    if (tool !== undefined) {
      const previous = seenNames.get(tool.name);
      if (previous === undefined) {
        seenNames.set(tool.name, index);
      } else {
        toolProblems.push({
          severity: 'error',
          code: 'DUPLICATE_TOOL',
          pointer: `${pointer}/name`,
          message: `tool "${tool.name}" is defined twice in this group (also at /tools/${previous}); rename or remove one`,
        });
      }
    }
    problems.push(...toolProblems);
    if (tool !== undefined && !toolProblems.some((problem) => problem.severity === 'error')) {
      tools.push(tool);
      toolPointers.push(pointer);
      const original = (rawTool as Record<string, unknown>)['x-original-name'];
      if (typeof original === 'string' && original !== tool.name && !originalNames.has(original)) {
        originalNames.set(original, tool.name);
      }
    }
  });

  if (groupFailed) return { group: undefined, toolPointers: [], problems };
  const selection = root.selection as Record<string, unknown>;
  const group: ToolGroupDefinition = Object.freeze({
    group: root.group as string,
    version: root.version as string,
    description: root.description as string,
    selection: Object.freeze({
      strategy: selection.strategy as SelectionStrategy,
      keywords: Object.freeze([...((selection.keywords as string[] | undefined) ?? [])]),
      ...(typeof selection.context_check === 'string'
        ? { context_check: selection.context_check }
        : {}),
    }),
    tools: Object.freeze(tools),
  });
  return originalNames.size > 0
    ? { group, toolPointers, problems, originalNames }
    : { group, toolPointers, problems };
}

function checkGroupSemantics(
  root: Record<string, unknown>,
  options: ValidateGroupOptions,
  problems: GroupProblem[],
): void {
  const { limits } = options;
  if (typeof root.group === 'string' && options.fileName !== undefined) {
    const expected = groupNameFromFileName(options.fileName);
    if (expected !== root.group) {
      problems.push({
        severity: 'error',
        code: 'GROUP_NAME_MISMATCH',
        pointer: '/group',
        message: `group ${quoteValue(root.group)} does not match the file name ${quoteValue(options.fileName)}; ${fixGroupNameMismatch(root.group, expected)}`,
      });
    }
  }
  if (typeof root.version === 'string' && valid(root.version) === null) {
    // the header pattern already reported most of these; semver catches what a regex cannot
    if (!problems.some((problem) => problem.pointer === '/version')) {
      problems.push({
        severity: 'error',
        code: 'INVALID_VERSION',
        pointer: '/version',
        message: `version ${quoteValue(root.version)} is not a strict semantic version; use MAJOR.MINOR.PATCH such as "1.0.0"`,
      });
    }
  }
  if (
    typeof root.description === 'string' &&
    root.description.length > limits.maxDescriptionLength
  ) {
    const group = typeof root.group === 'string' ? `group ${quoteValue(root.group)}` : 'the group';
    problems.push(descriptionTooLong(group, '/description', root.description.length, limits));
  }
  const selection = root.selection;
  if (selection === null || typeof selection !== 'object' || Array.isArray(selection)) return;
  const { strategy, keywords, context_check: contextCheck } = selection as Record<string, unknown>;
  checkSelectionEffect(strategy, contextCheck, root.tools, problems);
  if (Array.isArray(keywords)) {
    if (keywords.length > limits.maxKeywords) {
      problems.push({
        severity: 'error',
        code: 'TOO_MANY_KEYWORDS',
        pointer: '/selection/keywords',
        message: `the group has ${keywords.length} keywords, more than ${limits.maxKeywords} (limits.maxKeywords); keep the distinctive ones`,
      });
    }
    const seen = new Map<string, number>();
    keywords.forEach((keyword, index) => {
      if (typeof keyword !== 'string') return;
      if (keyword.length > limits.maxKeywordLength) {
        problems.push({
          severity: 'error',
          code: 'INVALID_KEYWORD',
          pointer: `/selection/keywords/${index}`,
          message: `keyword is ${keyword.length} characters, longer than ${limits.maxKeywordLength} (limits.maxKeywordLength); use a word or short phrase`,
        });
      } else if (strategy === 'keyword' && keyword !== '') {
        const words = (options.words ?? tokenize)(keyword);
        if (words.length === 0) {
          // "!!!" or "--" hold no word, so no message can ever contain them
          problems.push({
            severity: 'warning',
            code: 'KEYWORD_NEVER_MATCHES',
            pointer: `/selection/keywords/${index}`,
            message: `keyword ${quoteValue(keyword)} can never match: keyword matching finds no word in it (a word needs a letter or digit); write a word or phrase such as "invoice", or remove it`,
          });
        } else if (options.words === undefined) {
          const message = describeCommonKeyword(keyword);
          if (message !== undefined) {
            problems.push({
              severity: 'warning',
              code: 'KEYWORD_TOO_COMMON',
              pointer: `/selection/keywords/${index}`,
              message,
            });
          }
        }
      }
      const folded = keyword.normalize('NFKC').trim().toLowerCase();
      const previous = seen.get(folded);
      if (previous !== undefined) {
        problems.push({
          severity: 'warning',
          code: 'DUPLICATE_KEYWORD',
          pointer: `/selection/keywords/${index}`,
          message: `keyword ${quoteValue(keyword)} repeats /selection/keywords/${previous}; remove the duplicate`,
        });
      } else {
        seen.set(folded, index);
      }
    });
  }
  // only a context group asks its check; on another one it is reported as ignored
  if (
    strategy === 'context' &&
    typeof contextCheck === 'string' &&
    options.contextChecks !== undefined
  ) {
    if (!options.contextChecks.has(contextCheck)) {
      const known = [...options.contextChecks];
      const similar = suggestSimilar(contextCheck, known);
      const hint =
        similar.length > 0
          ? `did you mean "${similar[0]}"?`
          : known.length > 0
            ? `registered: ${known.join(', ')}`
            : 'none are registered';
      problems.push({
        severity: 'error',
        code: 'UNKNOWN_CONTEXT_CHECK',
        pointer: '/selection/context_check',
        message: `context_check "${contextCheck}" is not a registered predicate (${hint}); register it with loadRegistry({ contextChecks: { ${contextCheck}: (context, message) => ... } }) or the CLI's --context-checks MODULE`,
      });
    }
  }
}

/**
 * Warnings for selection settings that have no effect: a `context_check` on an `always` or
 * `keyword` group, and a `context` group that nothing conditions, so it is offered on every turn. Keywords on an
 * `always` or `context` group are not reported: they do not decide inclusion, but search and
 * relevance rank by them.
 */
function checkSelectionEffect(
  strategy: unknown,
  contextCheck: unknown,
  tools: unknown,
  problems: GroupProblem[],
): void {
  const warn = (code: DiagnosticCode, pointer: string, message: string) =>
    problems.push({ severity: 'warning', code, pointer, message });
  if ((strategy === 'always' || strategy === 'keyword') && typeof contextCheck === 'string') {
    warn(
      'SELECTION_FIELD_IGNORED',
      '/selection/context_check',
      `context_check ${quoteValue(contextCheck)} is ignored for ${strategy === 'always' ? 'an "always" group, which is offered on every turn' : 'a "keyword" group, which its keywords select'}: use strategy "context" for the check to decide, or remove context_check`,
    );
  }
  if (
    strategy === 'context' &&
    contextCheck === undefined &&
    Array.isArray(tools) &&
    tools.length > 0 &&
    !tools.some(hasRequiredContext)
  ) {
    warn(
      'CONTEXT_GROUP_UNCONDITIONAL',
      '/selection',
      'a "context" group with no context_check and no tool with requires_context is offered on every turn: add a context_check (a predicate registered with contextChecks), add metadata.requires_context keys to its tools, or use strategy "always"',
    );
  }
}

/** Whether a raw tool entry lists `requires_context` keys. */
function hasRequiredContext(tool: unknown): boolean {
  if (tool === null || typeof tool !== 'object') return false;
  const metadata = (tool as Record<string, unknown>).metadata;
  if (metadata === null || typeof metadata !== 'object') return false;
  const keys = (metadata as Record<string, unknown>).requires_context;
  return Array.isArray(keys) && keys.length > 0;
}

/**
 * The fixes of a group name that differs from its file's prefix, offering only valid group
 * names: renaming the file to an invalid name, or setting an invalid "group", fixes nothing.
 */
function fixGroupNameMismatch(group: string, prefix: string | undefined): string {
  const rename = `rename the file to ${quoteValue(`${group}_tools.json`)}`;
  const setGroup = (name: string) => `set "group": ${quoteValue(name)}`;
  const groupValid = isValidGroupName(group);
  const prefixValid = prefix !== undefined && isValidGroupName(prefix);
  if (groupValid && prefixValid) return `${rename} or ${setGroup(prefix)}`;
  if (groupValid) {
    return prefix === undefined
      ? rename
      : `${rename} (the file-name prefix ${quoteValue(prefix)} is not a snake_case group name)`;
  }
  if (prefixValid) return setGroup(prefix);
  const converted = group
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return isValidGroupName(converted)
    ? `rename the file to ${quoteValue(`${converted}_tools.json`)} and ${setGroup(converted)}`
    : 'use one snake_case name (such as "billing") for both "group" and the file name <group>_tools.json';
}

// module constants: array literals in the function would be allocated for every tool
const MEASURED_FIELDS = ['input_schema', 'output_schema', 'examples'] as const;
const SCHEMA_FIELDS = ['input_schema', 'output_schema'] as const;

function validateToolEntry(
  rawTool: unknown,
  pointer: string,
  options: ValidateGroupOptions,
  problems: GroupProblem[],
): ToolDefinition | undefined {
  const { limits } = options;
  if (rawTool === null || typeof rawTool !== 'object' || Array.isArray(rawTool)) {
    problems.push({
      severity: 'error',
      code: 'INVALID_FIELD',
      pointer,
      message: `each entry of "tools" must be a tool object, not ${describeJsonType(rawTool)}`,
    });
    return undefined;
  }
  const tool = rawTool as Record<string, unknown>;
  // bound the recursion of everything that walks schemas before anything walks them
  for (const field of MEASURED_FIELDS) {
    if (!Object.hasOwn(tool, field)) continue;
    const problem = measureAndFreeze(tool[field], limits);
    if (problem !== undefined) {
      problems.push({
        severity: 'error',
        code: problem.code,
        pointer: `${pointer}/${field}${problem.pointer}`,
        message: `${field}: ${problem.message}`,
      });
      return undefined;
    }
  }

  // the fast validator accepts a subset of what the full one accepts (schemas with the common
  // keywords only); the full one runs, and explains, whenever the fast one says no
  if (!validateToolFast(tool))
    runValidator(validateTool as Validator, tool, pointer, 'tool', problems);
  const structureFailed = problems.some((problem) => problem.severity === 'error');

  // the schema rules run even when the structure failed, so one pass reports every problem
  const inputSchema = tool.input_schema as JsonSchema;
  const outputSchema = tool.output_schema as JsonSchema | undefined;
  const reported =
    problems.length === 0 ? undefined : new Set(problems.map((problem) => problem.pointer));
  for (const field of SCHEMA_FIELDS) {
    const schema = tool[field] as JsonSchema | undefined;
    if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) continue;
    if (schemaDialect(schema) === undefined) {
      problems.push({
        severity: 'error',
        code: 'INVALID_SCHEMA',
        pointer: `${pointer}/${field}/$schema`,
        message: `unsupported $schema ${quoteValue(schema.$schema)}; omit it (2020-12 is the default) or use "http://json-schema.org/draft-07/schema#"`,
      });
      continue;
    }
    for (const problem of checkSchema(schema, limits)) {
      if (reported?.has(`${pointer}/${field}${problem.pointer}`) === true) continue;
      problems.push({
        severity: problem.severity ?? 'error',
        code: problem.code,
        pointer: `${pointer}/${field}${problem.pointer}`,
        message: `${toolLabel(tool, pointer)}: ${field}${abbreviatePointer(problem.pointer)}: ${problem.message}`,
      });
    }
  }
  // checked even when the structure failed, so a bad entry does not hide the others' problems
  const requests = Array.isArray(tool.example_requests)
    ? checkExampleRequests(tool.example_requests, pointer, toolLabel(tool, pointer), limits)
    : undefined;
  if (requests !== undefined) problems.push(...requests.problems);
  if (structureFailed) return undefined;
  const description = tool.description as string;
  if (description.length > limits.maxDescriptionLength) {
    problems.push(
      descriptionTooLong(
        toolLabel(tool, pointer),
        `${pointer}/description`,
        description.length,
        limits,
      ),
    );
  }
  if (problems.some((problem) => problem.severity === 'error')) return undefined;

  const metadata = tool.metadata as Record<string, unknown>;
  const definition: ToolDefinition = {
    name: tool.name as string,
    description,
    category: tool.category as ToolCategory,
    input_schema: inputSchema,
    metadata: Object.freeze({
      executor: metadata.executor as string,
      requires_context: Object.freeze([
        ...((metadata.requires_context as string[] | undefined) ?? []),
      ]),
      cost_estimate: (metadata.cost_estimate as CostEstimate | undefined) ?? 'medium',
      latency_estimate: (metadata.latency_estimate as LatencyEstimate | undefined) ?? 'medium',
    }),
  };
  if (outputSchema !== undefined) definition.output_schema = outputSchema;
  if (typeof tool.title === 'string') definition.title = tool.title;
  if (tool.annotations !== undefined) {
    definition.annotations = Object.freeze({ ...(tool.annotations as ToolAnnotations) });
  }
  if (Array.isArray(tool.tags)) {
    const tags = tool.tags as string[];
    const normalized = normalizeTags(tags);
    const unchanged =
      normalized.length === tags.length && normalized.every((tag, index) => tag === tags[index]);
    if (!unchanged) {
      problems.push({
        severity: 'warning',
        code: 'TAGS_NORMALIZED',
        pointer: `${pointer}/tags`,
        message: `tags were normalized to ${JSON.stringify(normalized)} (lowercase, [a-z0-9-_.], at most 64 characters and 20 tags, no duplicates); write them that way`,
      });
    }
    // the file's own array when nothing changed: the new one's spare capacity from push() is
    // ~120 bytes a tool (1 MB at 10,000 tools)
    definition.tags = Object.freeze(unchanged ? tags : normalized);
  }
  if (Array.isArray(tool.examples)) {
    const examples = tool.examples as JsonObject[];
    const exampleProblems =
      options.checkExamples === true ? validateExamples(inputSchema, examples) : [];
    for (const problem of exampleProblems) {
      problems.push({
        severity: 'error',
        code: 'INVALID_EXAMPLE',
        pointer: `${pointer}/examples/${problem.index}${problem.pointer}`,
        message: `${toolLabel(tool, pointer)}: example ${problem.index} does not match input_schema: ${problem.message}; fix the example or the schema`,
      });
    }
    definition.examples = examples;
  }
  if (requests !== undefined) definition.example_requests = Object.freeze(requests.kept);
  if (problems.some((problem) => problem.severity === 'error')) return undefined;
  return Object.freeze(definition);
}

function toolLabel(tool: Record<string, unknown>, pointer: string): string {
  return typeof tool.name === 'string' ? `tool ${quoteValue(tool.name)}` : `the tool at ${pointer}`;
}

/** `owner` names the tool or group (`tool "search"`, `group "docs"`). */
function descriptionTooLong(
  owner: string,
  pointer: string,
  length: number,
  limits: LoadLimits,
): GroupProblem {
  return {
    severity: 'error',
    code: 'DESCRIPTION_TOO_LONG',
    pointer,
    message: `${owner}: description is ${length} characters, longer than ${limits.maxDescriptionLength} (limits.maxDescriptionLength); shorten it to what the model needs to choose it (details of the arguments go in their own descriptions), or raise limits.maxDescriptionLength`,
  };
}

function runValidator(
  validator: Validator,
  data: Record<string, unknown>,
  basePointer: string,
  level: 'group' | 'tool',
  problems: GroupProblem[],
): void {
  if (validator(data)) return;
  const errors = relevantErrors(validator.errors ?? []);
  const seen = new Set<string>();
  for (const error of errors) {
    const problem =
      level === 'group'
        ? describeGroupError(error, data)
        : describeToolError(error, data, basePointer);
    // several ajv errors can describe one problem (e.g. a root schema that is not an object)
    const key = `${problem.code}|${problem.pointer}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
}

/** Drops the noise allErrors produces: `if` wrappers and the branches of a failed `anyOf`. */
function relevantErrors(errors: readonly AjvError[]): AjvError[] {
  const anyOfPaths = new Set(
    errors.filter((error) => error.keyword === 'anyOf').map((error) => error.instancePath),
  );
  const seen = new Set<string>();
  const kept: AjvError[] = [];
  for (const error of errors) {
    if (error.keyword === 'if') continue;
    if (error.keyword !== 'anyOf' && anyOfPaths.has(error.instancePath)) continue;
    const key = `${error.instancePath}|${error.keyword}|${String(error.params.missingProperty ?? error.params.additionalProperty ?? '')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    kept.push(error);
  }
  return kept;
}

function describeGroupError(error: AjvError, root: Record<string, unknown>): GroupProblem {
  const path = error.instancePath;
  const value = getAtPointer(root, path);
  const fail = (code: DiagnosticCode, pointer: string, message: string): GroupProblem => ({
    severity: 'error',
    code,
    pointer,
    message,
  });
  if (error.keyword === 'required') {
    const missing = String(error.params.missingProperty);
    if (path === '/selection' && missing === 'keywords') {
      return fail(
        'KEYWORDS_REQUIRED',
        '/selection',
        'a "keyword" group needs "keywords": add a non-empty list such as ["schedule", "meeting"], or use strategy "always" or "context"',
      );
    }
    return fail(
      'MISSING_FIELD',
      `${path}/${escapePointerToken(missing)}`,
      `missing required field "${missing}": ${GROUP_FIELD_HELP[missing] ?? `add "${missing}"`}`,
    );
  }
  if (error.keyword === 'additionalProperties') {
    const field = String(error.params.additionalProperty);
    return unknownField(path, field, path === '' ? GROUP_FIELDS : SELECTION_FIELDS);
  }
  switch (path) {
    case '/group':
      return fail(
        'INVALID_GROUP_NAME',
        path,
        `group ${quoteValue(value)} is not a snake_case name; use lowercase letters, digits and single underscores, starting with a letter (e.g. "project_docs"), at most 64 characters`,
      );
    case '/version':
      return fail(
        'INVALID_VERSION',
        path,
        `version ${quoteValue(value)} is not a strict semantic version; use MAJOR.MINOR.PATCH such as "1.0.0" (no "v" prefix)`,
      );
    case '/description':
      return fail(
        'INVALID_FIELD',
        path,
        'description must be a non-empty string saying what the group does',
      );
    case '/selection':
      return fail(
        'INVALID_FIELD',
        path,
        'selection must be an object such as {"strategy": "keyword", "keywords": ["schedule"]}',
      );
    case '/selection/strategy':
      return fail(
        'UNKNOWN_STRATEGY',
        path,
        `unknown selection strategy ${quoteValue(value)}; use "always", "keyword" or "context"`,
      );
    case '/selection/keywords':
      if (error.keyword === 'minItems') {
        return fail(
          'KEYWORDS_REQUIRED',
          path,
          'a "keyword" group needs at least one keyword; add some such as ["schedule", "meeting"], or use strategy "always" or "context"',
        );
      }
      return fail('INVALID_FIELD', path, 'keywords must be an array of strings');
    case '/selection/context_check':
      return fail(
        'INVALID_FIELD',
        path,
        `context_check ${quoteValue(value)} must be the name of a registered predicate (letters, digits, underscores)`,
      );
    case '/tools':
      return fail(
        'INVALID_FIELD',
        path,
        `tools must be an array of tool objects, not ${describeJsonType(value)}`,
      );
    default:
      if (path.startsWith('/selection/keywords/')) {
        return fail(
          'INVALID_KEYWORD',
          path,
          `keyword ${quoteValue(value)} must be a non-empty string (a word or phrase such as "pull request")`,
        );
      }
      if (path === '/$schema')
        return fail('INVALID_FIELD', path, '$schema must be a string (a URL or path)');
      return fail('INVALID_FIELD', path, `${path || 'the file'} ${error.message ?? 'is invalid'}`);
  }
}

function describeToolError(
  error: AjvError,
  tool: Record<string, unknown>,
  base: string,
): GroupProblem {
  const path = error.instancePath;
  const pointer = `${base}${path}`;
  const value = getAtPointer(tool, path);
  const toolName =
    typeof tool.name === 'string' ? `tool ${quoteValue(tool.name)}` : `the tool at ${base}`;
  const fail = (code: DiagnosticCode, at: string, message: string): GroupProblem => ({
    severity: 'error',
    code,
    pointer: at,
    message,
  });

  const schemaField = /^\/(input_schema|output_schema)(\/.*)?$/.exec(path);
  if (schemaField !== null) {
    const field = schemaField[1] as string;
    const inner = schemaField[2] ?? '';
    if (field === 'input_schema' && isRootShapeError(error, inner)) {
      return fail(
        'ROOT_SCHEMA_NOT_OBJECT',
        `${base}/input_schema`,
        `${toolName}: input_schema must be an object schema {"type": "object", "properties": {...}} (tool arguments are always a JSON object); use {"type": "object", "properties": {}} for no arguments`,
      );
    }
    if (isTypeKeywordError(error)) {
      const text = quoteValue(value);
      const hint = typeof value === 'string' ? suggestJsonSchemaType(value) : undefined;
      const fix =
        hint !== undefined
          ? `use "${hint}"`
          : typeof value === 'string' && value.toLowerCase() === 'any'
            ? 'remove "type" and use anyOf for the accepted types'
            : 'use one of string, integer, number, boolean, array, object, null (or an array of them)';
      return fail(
        'INVALID_PROPERTY_TYPE',
        pointer,
        `${toolName}: ${field}${abbreviatePointer(inner.replace(/\/type$/, ''))} has type ${text}, which is not a JSON Schema type; ${fix}`,
      );
    }
    if (inner === '' && error.keyword === 'type') {
      return fail('INVALID_SCHEMA', pointer, `${toolName}: ${field} must be a JSON Schema object`);
    }
    return fail(
      'INVALID_SCHEMA',
      pointer,
      `${toolName}: ${field}${abbreviatePointer(inner)} is not valid JSON Schema: ${describeSchemaError(error)}`,
    );
  }

  if (error.keyword === 'required') {
    const missing = String(error.params.missingProperty);
    return fail(
      'MISSING_FIELD',
      `${pointer}/${escapePointerToken(missing)}`,
      `${toolName} is missing "${path === '/metadata' ? `metadata.${missing}` : missing}": ${TOOL_FIELD_HELP[missing] ?? `add "${missing}"`}`,
    );
  }
  if (error.keyword === 'additionalProperties') {
    const field = String(error.params.additionalProperty);
    const known =
      path === '/metadata'
        ? METADATA_FIELDS
        : path === '/annotations'
          ? ANNOTATION_FIELDS
          : TOOL_FIELDS;
    return unknownField(pointer, field, known, base + path);
  }
  switch (path) {
    case '':
      return fail(
        'INVALID_FIELD',
        pointer,
        `each tool must be an object, not ${describeJsonType(value)}`,
      );
    case '/name': {
      return fail(
        'INVALID_TOOL_NAME',
        pointer,
        `tool name ${quoteValue(value)} is invalid: use letters, digits and underscores, starting with a letter or underscore, at most 64 characters${typeof value === 'string' ? suggestToolName(value) : ''}`,
      );
    }
    case '/description':
      return fail(
        'INVALID_FIELD',
        pointer,
        `${toolName}: description must be a non-empty string; the model reads it to decide when to call the tool`,
      );
    case '/category':
      return fail(
        'INVALID_CATEGORY',
        pointer,
        `${toolName}: category ${quoteValue(value)} is not one of creation, retrieval, mutation, analysis`,
      );
    case '/metadata':
      return fail(
        'INVALID_FIELD',
        pointer,
        `${toolName}: metadata must be an object such as {"executor": "calendar", "requires_context": [], "cost_estimate": "low", "latency_estimate": "fast"}`,
      );
    case '/metadata/executor':
      return fail(
        'INVALID_EXECUTOR',
        pointer,
        `${toolName}: executor ${quoteValue(value)} is not a plain identifier; use the handler module's name in lowercase letters, digits and underscores (e.g. "calendar" for handlers/calendar). Paths are never accepted`,
      );
    case '/metadata/cost_estimate':
      return fail(
        'INVALID_COST',
        pointer,
        `${toolName}: cost_estimate ${quoteValue(value)} is not one of low, medium, high`,
      );
    case '/metadata/latency_estimate':
      return fail(
        'INVALID_LATENCY',
        pointer,
        `${toolName}: latency_estimate ${quoteValue(value)} is not one of fast, medium, slow`,
      );
    case '/example_requests':
      return fail(
        'INVALID_FIELD',
        pointer,
        `${toolName}: example_requests must be an array of strings, the user messages the tool serves (e.g. ["book a room for Tuesday at 3"])`,
      );
    default:
      if (path.startsWith('/example_requests/')) {
        return fail(
          'INVALID_EXAMPLE_REQUEST',
          pointer,
          `${toolName}: ${path.slice(1)} must be a non-empty string, a user message the tool serves; write the request or remove the entry`,
        );
      }
      if (path === '/tags' || path.startsWith('/tags/')) {
        return fail(
          'INVALID_FIELD',
          pointer,
          path === '/tags'
            ? `${toolName}: tags must be an array of strings, short labels such as ["calendar", "scheduling"]; write them so or remove "tags"`
            : `${toolName}: ${path.slice(1)} is ${describeJsonType(value)}, not a string; write the tag as a string such as "calendar" or remove it`,
        );
      }
      if (path === '/title') {
        return fail(
          'INVALID_FIELD',
          pointer,
          `${toolName}: title is ${describeJsonType(value)}; write a display name as a string such as "Create event", or remove "title"`,
        );
      }
      if (path === '/annotations' || path.startsWith('/annotations/')) {
        return fail(
          'INVALID_FIELD',
          pointer,
          path === '/annotations'
            ? `${toolName}: annotations must be an object of MCP hints such as {"readOnlyHint": true}; write it so or remove "annotations"`
            : `${toolName}: ${path.slice(1)} is ${describeJsonType(value)}; ${path === '/annotations/title' ? 'write the title as a string' : 'write the hint as true or false'}`,
        );
      }
      if (path === '/examples' || path.startsWith('/examples/')) {
        return fail(
          'INVALID_FIELD',
          pointer,
          path === '/examples'
            ? `${toolName}: examples must be an array of example inputs, each an object of arguments such as [{"query": "weather in Paris"}]; write them so or remove "examples"`
            : `${toolName}: ${path.slice(1)} is ${describeJsonType(value)}; write the example input as an object of arguments such as {"query": "weather in Paris"}`,
        );
      }
      if (path.startsWith('/metadata/requires_context')) {
        return fail(
          'INVALID_FIELD',
          pointer,
          `${toolName}: ${requiresContextProblem(path, value, error)}`,
        );
      }
      return fail(
        'INVALID_FIELD',
        pointer,
        `${toolName}: ${path.slice(1)} ${error.message ?? 'is invalid'}`,
      );
  }
}

/** What is wrong with `metadata.requires_context` (at `path`) and how to write it. */
function requiresContextProblem(path: string, value: unknown, error: AjvError): string {
  if (error.keyword === 'uniqueItems') {
    const list = Array.isArray(value) ? value : [];
    return `requires_context lists ${quoteValue(list[Number(error.params.i)])} twice; remove the repeat`;
  }
  if (path === '/metadata/requires_context') {
    return typeof value === 'string' && value !== ''
      ? `requires_context is a string (${quoteValue(value)}); write a list of context keys: [${quoteValue(value)}]`
      : `requires_context is ${describeJsonType(value)}; write a list of the context keys the tool needs, such as ["user_id"], or [] for none`;
  }
  return `${path.slice('/metadata/'.length)} is ${value === '' ? 'empty' : describeJsonType(value)}; each entry is a context key name such as "user_id"`;
}

function isRootShapeError(error: AjvError, inner: string): boolean {
  if (inner === '' && (error.keyword === 'type' || error.keyword === 'required')) return true;
  if (inner === '/type' && error.keyword === 'const') return true;
  return (
    inner === '/properties' &&
    error.keyword === 'type' &&
    error.schemaPath.includes('/input_schema/')
  );
}

function isTypeKeywordError(error: AjvError): boolean {
  if (!/\/type(\/\d+)?$/.test(error.instancePath)) return false;
  return error.schemaPath.includes('/properties/type/') || error.schemaPath.includes('simpleType');
}

function describeSchemaError(error: AjvError): string {
  const keyword = error.instancePath.split('/').pop() ?? '';
  switch (error.keyword) {
    case 'type':
      return `"${keyword}" must be ${String(error.params.type).replace(',', ' or ')}`;
    case 'minimum':
      return `"${keyword}" must be >= ${String(error.params.limit)}`;
    case 'exclusiveMinimum':
      return `"${keyword}" must be > ${String(error.params.limit)}`;
    case 'minItems':
      return `"${keyword}" must have at least ${String(error.params.limit)} item(s)`;
    case 'uniqueItems':
      return `"${keyword}" must not repeat items`;
    case 'pattern':
      return `"${keyword}" must match ${String(error.params.pattern)}`;
    default:
      return error.message ?? 'invalid';
  }
}

function unknownField(
  pointer: string,
  field: string,
  known: readonly string[],
  parent = pointer,
): GroupProblem {
  const similar = suggestSimilar(field, known);
  const hint = similar.length > 0 ? `did you mean "${similar[0]}"? ` : '';
  return {
    severity: 'warning',
    code: 'UNKNOWN_FIELD',
    pointer: `${parent}/${escapePointerToken(field)}`,
    message: `unknown field ${quoteValue(field)} is ignored; ${hint}known fields here: ${known.join(', ')} (prefix extensions with "x-")`,
  };
}

function suggestToolName(name: string): string {
  const converted = name
    // fold diacritics (café → cafe) as tags and toolcap import do, before dropping the rest
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .replace(/^(\d)/, '_$1')
    .slice(0, 64);
  return converted !== '' && converted !== name ? ` (e.g. "${converted}")` : '';
}

function describeJsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value} (${quoteValue(value)})`;
}

/**
 * Why `keyword` would match nearly every message under the default analyzer, or undefined.
 * Keyword matching compares stems, so a keyword is too common when each of its words is a
 * common English word or stems to the same term as one (`ups` is matched as "up").
 */
function describeCommonKeyword(keyword: string): string | undefined {
  const tokens = getDefaultTextAnalyzer().analyze(keyword);
  const common: string[] = [];
  for (const token of tokens) {
    const word = ENGLISH_STOPWORDS.has(token.word) ? token.word : findStopwordOfTerm(token.term);
    if (word === undefined) return undefined;
    if (!common.includes(word)) common.push(word);
  }
  // "the" or "can you" is in almost every message: the group would be offered every turn
  if (tokens.every((token) => ENGLISH_STOPWORDS.has(token.word))) {
    return `keyword ${quoteValue(keyword)} is made only of common English words found in almost every message, so the group would be offered on nearly every turn; use words specific to the group's tools (such as "invoice" or "refund"), or the always strategy if that is the intent`;
  }
  const terms = tokens.map((token) => token.term).join(' ');
  const words = common.map((word) => quoteValue(word)).join(', ');
  return `keyword ${quoteValue(keyword)} is matched as ${quoteValue(terms)} (keyword matching compares word stems), the same as the common English ${common.length === 1 ? 'word' : 'words'} ${words} found in almost every message, so the group would be offered on nearly every turn; use a multi-word keyword that pairs it with a word of the group's domain, written as ${quoteValue(`${keyword} WORD`)} with WORD a word of the group's domain (a multi-word keyword matches only as a whole phrase, so "ups tracking" does not fire on "set up"), or words specific to the group's tools`;
}
