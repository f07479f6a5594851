import { readdir, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { DEFAULT_LOAD_LIMITS } from '../../format/limits.js';
import { isValidToolName } from '../../format/names.js';
import type { Diagnostic, JsonSchema } from '../../format/types.js';
import { measureAndFreeze } from '../../json-schema/check-schema.js';
import { displayPath } from '../../load/display-path.js';
import { parseJsonDocument } from '../../load/parse-json-document.js';
import { errorMessage } from '../../util/error-message.js';
import { DEFAULT_EXECUTION_LIMITS } from '../execution-limits.js';
import { isTimerDelay } from '../run-with-deadline.js';
import { checkExternalToolSchema } from './check-external-schema.js';
import { type ExternalEnvironmentOptions, externalEnvironment } from './external-environment.js';
import { toolNameFromBinary } from './external-tool-names.js';
import { runExecutable } from './run-executable.js';

/** Options of `discoverExternalTools`. */
export interface DiscoverExternalToolsOptions {
  /** Directories of executables, searched in order (not recursively). */
  dirs: readonly string[];
  /** Base for relative dirs and for paths in diagnostics. Default `process.cwd()`. */
  cwd?: string;
  /** Run-time limit of one `--schema` answer. Default 5,000 ms. */
  timeoutMs?: number;
  /** Largest `--schema` answer in bytes. Default 256 KiB. */
  maxSchemaBytes?: number;
  /** Executables asked at the same time. Default 8. */
  concurrency?: number;
  /** Which host variables the executables see (default: all; see `externalEnvironment`). */
  externalEnv?: ExternalEnvironmentOptions | undefined;
  /** Stops discovery: running `--schema` processes are killed with their process group. */
  signal?: AbortSignal | undefined;
}

/** An executable whose `--schema` answer passed the external tool `--schema` rules. */
export interface DiscoveredExternalTool {
  name: string;
  description: string;
  parameters: JsonSchema;
  /** Absolute path of the executable. */
  command: string;
}

/**
 * Finds the executables in `dirs`, runs each with `--schema` (in parallel, each with a time
 * limit) and checks the answers with the external tool `--schema` rules. An executable that
 * fails, hangs, prints too much or answers badly is skipped with an error diagnostic naming
 * its path and the reason; the others are returned. Hidden files and directories are ignored; a regular file
 * without an execute bit gets a warning (`EXTERNAL_NOT_EXECUTABLE`).
 */
export async function discoverExternalTools(
  options: DiscoverExternalToolsOptions,
): Promise<{ tools: DiscoveredExternalTool[]; diagnostics: Diagnostic[] }> {
  const cwd = options.cwd ?? process.cwd();
  const timeoutMs = options.timeoutMs ?? DEFAULT_EXECUTION_LIMITS.discoveryTimeoutMs;
  const maxSchemaBytes = options.maxSchemaBytes ?? DEFAULT_EXECUTION_LIMITS.maxSchemaBytes;
  const concurrency = Math.max(
    1,
    options.concurrency ?? DEFAULT_EXECUTION_LIMITS.discoveryConcurrency,
  );
  const diagnostics: Diagnostic[] = [];
  const executables: string[] = [];
  for (const dir of options.dirs) {
    const absolute = resolve(cwd, dir);
    let names: string[];
    try {
      names = (await readdir(absolute)).sort();
    } catch (error) {
      const missing = ['ENOENT', 'ENOTDIR'].includes((error as NodeJS.ErrnoException).code ?? '');
      diagnostics.push({
        severity: 'error',
        // a typo in a path must stop a command as a missing --schemas path does
        code: missing ? 'TOOLS_DIR_NOT_FOUND' : 'FILE_UNREADABLE',
        file: displayPath(absolute, cwd),
        pointer: '',
        message: missing
          ? `tools directory ${displayPath(absolute, cwd)} does not exist; check the path (--tools-dir DIR)`
          : `tools directory ${displayPath(absolute, cwd)} could not be read (${errorMessage(error)}); check the path (--tools-dir DIR)`,
      });
      continue;
    }
    for (const name of names) {
      if (name.startsWith('.')) continue;
      const file = join(absolute, name);
      const kind = await classifyEntry(file);
      if (kind === 'executable') executables.push(file);
      else if (kind === 'not-executable') {
        const display = displayPath(file, cwd);
        // a tool whose mode lost its x bit (a copy, an unzip) would otherwise vanish unexplained
        diagnostics.push({
          severity: 'warning',
          code: 'EXTERNAL_NOT_EXECUTABLE',
          file: display,
          pointer: '',
          message: `${display} is not executable, so it is not registered as a tool; make it executable (chmod +x) if it is one, or move it out of the tools directory`,
        });
      }
    }
  }

  const env = externalEnvironment(options.externalEnv);
  const answers = await mapWithConcurrency(executables, concurrency, (file) =>
    askSchema(file, {
      timeoutMs,
      maxSchemaBytes,
      display: displayPath(file, cwd),
      env,
      signal: options.signal,
    }),
  );
  const tools: DiscoveredExternalTool[] = [];
  for (const answer of answers) {
    if ('diagnostic' in answer) diagnostics.push(answer.diagnostic);
    else tools.push(answer.tool);
  }
  return { tools, diagnostics };
}

async function askSchema(
  file: string,
  options: {
    timeoutMs: number;
    maxSchemaBytes: number;
    display: string;
    env: NodeJS.ProcessEnv;
    signal: AbortSignal | undefined;
  },
): Promise<{ tool: DiscoveredExternalTool } | { diagnostic: Diagnostic }> {
  const { display } = options;
  const fail = (code: string, message: string, pointer = '', line?: number, column?: number) => {
    const diagnostic: Diagnostic = {
      severity: 'error',
      code,
      file: display,
      pointer,
      message: `${message}; the tool is not registered`,
    };
    if (line !== undefined) diagnostic.line = line;
    if (column !== undefined) diagnostic.column = column;
    return { diagnostic };
  };
  const expectedName = toolNameFromBinary(basename(file));
  if (!isValidToolName(expectedName)) {
    return fail(
      'INVALID_TOOL_NAME',
      `the executable's name maps to the tool name ${JSON.stringify(expectedName)}, which is not valid; name binaries in kebab-case (e.g. file-edit for file_edit)`,
    );
  }
  const controller = new AbortController();
  const timer = isTimerDelay(options.timeoutMs)
    ? setTimeout(() => controller.abort(), options.timeoutMs)
    : undefined;
  const stop = () => controller.abort();
  options.signal?.addEventListener('abort', stop, { once: true });
  if (options.signal?.aborted === true) stop();
  const outcome = await runExecutable(file, ['--schema'], {
    signal: controller.signal,
    maxOutputBytes: options.maxSchemaBytes,
    env: options.env,
  });
  clearTimeout(timer);
  options.signal?.removeEventListener('abort', stop);
  switch (outcome.kind) {
    case 'aborted':
      return fail(
        'EXTERNAL_SCHEMA_FAILED',
        options.signal?.aborted === true
          ? `"${display} --schema" was stopped (discovery was cancelled)`
          : `"${display} --schema" did not answer within ${options.timeoutMs} ms`,
      );
    case 'spawn-error':
      return fail(
        'EXTERNAL_SCHEMA_FAILED',
        `"${display} --schema" could not be run (${outcome.message})`,
      );
    case 'output-too-large':
      return fail(
        'EXTERNAL_SCHEMA_FAILED',
        `"${display} --schema" printed more than ${options.maxSchemaBytes} bytes (maxSchemaBytes)`,
      );
    case 'exit':
      break;
  }
  if (outcome.exitCode !== 0) {
    const stderr = outcome.stderr.trim();
    return fail(
      'EXTERNAL_SCHEMA_FAILED',
      `"${display} --schema" ${outcome.signal !== null ? `was killed by ${outcome.signal}` : `exited with status ${outcome.exitCode}`}${stderr === '' ? '' : ` (${stderr.split('\n').pop()?.slice(0, 300)})`}`,
    );
  }
  const parsed = parseJsonDocument(outcome.stdout);
  if (!parsed.ok) {
    return parsed.reason === 'empty'
      ? fail(
          'JSON_SYNTAX',
          `"${display} --schema" printed nothing; it must print the tool's JSON schema`,
        )
      : fail(
          'JSON_SYNTAX',
          `"${display} --schema" printed invalid JSON: ${parsed.message}`,
          '',
          parsed.position.line,
          parsed.position.column,
        );
  }
  const { value } = parsed.document;
  if (value !== null && typeof value === 'object') {
    const tooBig = measureAndFreeze(value, DEFAULT_LOAD_LIMITS);
    if (tooBig !== undefined) return fail(tooBig.code, tooBig.message, tooBig.pointer);
  }
  const checked = checkExternalToolSchema(value);
  if (!checked.ok) {
    const [first, ...rest] = checked.problems;
    const position = first === undefined ? undefined : parsed.document.locate(first.pointer);
    return fail(
      first?.code ?? 'INVALID_FIELD',
      `invalid --schema answer: ${checked.problems.map((problem) => `${problem.message}${problem.pointer === '' ? '' : ` (at ${problem.pointer})`}`).join('; ')}`,
      rest.length === 0 ? (first?.pointer ?? '') : '',
      position?.line,
      position?.column,
    );
  }
  const { schema } = checked;
  if (schema.name !== expectedName) {
    return fail(
      'EXTERNAL_NAME_MISMATCH',
      `the --schema answer names the tool "${schema.name}", but the executable's name gives "${expectedName}" (binaries are kebab-case, tools snake_case: rename the binary to ${schema.name.replaceAll('_', '-')} or fix the name)`,
      '/name',
    );
  }
  return { tool: { ...schema, command: file } };
}

/** A regular file with an execute bit, one without, or anything else (directories, vanished). */
async function classifyEntry(file: string): Promise<'executable' | 'not-executable' | 'other'> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return 'other';
    return (info.mode & 0o111) !== 0 ? 'executable' : 'not-executable';
  } catch {
    return 'other';
  }
}

async function mapWithConcurrency<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
