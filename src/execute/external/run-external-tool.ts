import { basename } from 'node:path';
import type { RegisteredTool } from '../../format/types.js';
import { errorMessage } from '../../util/error-message.js';
import type { ToolCallError } from '../types.js';
import { type ExternalEnvironmentOptions, externalEnvironment } from './external-environment.js';
import { runExecutable } from './run-executable.js';

const PREVIEW_CHARACTERS = 200;

/**
 * Calls an external `--schema` tool: runs the executable with the JSON input on stdin and
 * parses one JSON value from stdout. A non-zero exit, a signal, output that is not JSON or
 * too large become tool errors; the caller's signal (timeout or cancel) kills the process.
 * Tool errors reach the model, so they name the executable by its file name, never by its
 * absolute path.
 */
export async function runExternalTool(
  tool: RegisteredTool,
  command: string,
  input: Record<string, unknown>,
  options: {
    signal: AbortSignal;
    maxOutputBytes: number;
    /** Which host variables the tool sees (default: all). */
    externalEnv?: ExternalEnvironmentOptions | undefined;
  },
): Promise<{ output: unknown } | { error: ToolCallError }> {
  const outcome = await runExecutable(command, [], {
    stdin: `${JSON.stringify(input)}\n`,
    signal: options.signal,
    maxOutputBytes: options.maxOutputBytes,
    env: externalEnvironment(options.externalEnv),
  });
  const shown = basename(command);
  switch (outcome.kind) {
    case 'aborted':
      // the deadline reports TIMEOUT or ABORTED; this value is never seen
      return { error: { code: 'ABORTED', message: 'aborted', details: {} } };
    case 'spawn-error':
      return {
        error: {
          code: 'EXTERNAL_TOOL_FAILED',
          // spawn errors quote the path they were given ("spawn /abs/tool EACCES")
          message: `External tool "${tool.name}" (${shown}) could not be started: ${outcome.message.replaceAll(command, shown)}`,
          details: { command: shown, error_code: outcome.code },
        },
      };
    case 'output-too-large':
      return {
        error: {
          code: 'OUTPUT_TOO_LARGE',
          message: `External tool "${tool.name}" printed more than ${options.maxOutputBytes} bytes (maxOutputBytes) and was stopped. Ask for less data.`,
          details: { limit: options.maxOutputBytes },
        },
      };
    case 'exit':
      break;
  }
  // a shell names a failing script by the path it was run as
  const stderr = outcome.stderr.trim().replaceAll(command, shown);
  if (outcome.exitCode !== 0) {
    const status =
      outcome.signal !== null
        ? `was killed by ${outcome.signal}`
        : `exited with status ${outcome.exitCode}`;
    return {
      error: {
        code: 'EXTERNAL_TOOL_FAILED',
        message: `External tool "${tool.name}" ${status}${stderr === '' ? '' : `: ${lastLine(stderr)}`}`,
        details: {
          command: shown,
          exit_code: outcome.exitCode,
          signal: outcome.signal,
          stderr,
        },
      },
    };
  }
  const text = outcome.stdout.trim();
  if (text === '') {
    return {
      error: {
        code: 'INVALID_OUTPUT',
        message: `External tool "${tool.name}" exited successfully but printed nothing; it must print one JSON value on stdout.${stderr === '' ? '' : ` Its stderr ends with: ${lastLine(stderr)}`}`,
        details: { reason: 'stdout is empty' },
      },
    };
  }
  try {
    return { output: JSON.parse(text) };
  } catch (error) {
    const reason = errorMessage(error);
    return {
      error: {
        code: 'INVALID_OUTPUT',
        message: `External tool "${tool.name}" printed output that is not JSON (${reason}); it starts with ${JSON.stringify(text.slice(0, PREVIEW_CHARACTERS))}.`,
        details: { reason, preview: text.slice(0, PREVIEW_CHARACTERS) },
      },
    };
  }
}

function lastLine(text: string): string {
  const lines = text.split('\n');
  return (lines[lines.length - 1] ?? '').slice(0, 500);
}
