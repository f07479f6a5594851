import { type ParseArgsConfig, parseArgs } from 'node:util';
import { errorMessage } from '../util/error-message.js';
import { suggestSimilar } from '../util/suggest-similar.js';
import { CliUsageError } from './cli-usage-error.js';

/** One option: a flag (`boolean`) or a value (`string`), possibly repeatable. */
export interface CliOption {
  type: 'boolean' | 'string';
  multiple?: boolean;
  short?: string;
}

/** Parsed command line. */
export interface ParsedArgs {
  values: Record<string, string | boolean | string[] | boolean[] | undefined>;
  positionals: string[];
}

/**
 * Parses a command's arguments with node:util parseArgs, turning its exceptions into usage
 * errors that name the bad option and suggest the closest valid one.
 */
export function parseCliArgs(
  command: string,
  args: readonly string[],
  options: Readonly<Record<string, CliOption>>,
  positionals: { min: number; max: number; names: string },
): ParsedArgs {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...args],
      options: { ...options, help: { type: 'boolean', short: 'h' } } as ParseArgsConfig['options'],
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    const message = errorMessage(error);
    const unknown = /Unknown option '([^']+)'/.exec(message);
    if (unknown !== null) {
      const name = (unknown[1] ?? '').replace(/^-+/, '');
      const similar = suggestSimilar(name, Object.keys(options));
      const hint = similar.length > 0 ? `; did you mean --${similar[0]}?` : '';
      throw new CliUsageError(
        `unknown option ${unknown[1]} for "toolcap ${command}"${hint}`,
        command,
      );
    }
    const ambiguous = /Option '(--[^']+)' argument is ambiguous/.exec(message);
    if (ambiguous !== null) {
      // parseArgs reads "--max-tools -1" as a flag without its value
      const flag = ambiguous[1]!;
      const value = args[args.indexOf(flag) + 1] ?? '';
      throw new CliUsageError(
        `${flag} ${value}: a value that starts with "-" is read as an option; write ${flag}=${value} to pass it`,
        command,
      );
    }
    throw new CliUsageError(`${message.replace(/\.$/, '')} (toolcap ${command})`, command);
  }
  const values = parsed.values as ParsedArgs['values'];
  const count = parsed.positionals.length;
  // --help shows the usage even when required arguments are missing, but a stray argument is
  // the same mistake with or without --help
  if (values.help === true && count <= positionals.max) throw new CliUsageError('', command);
  if (count < positionals.min || count > positionals.max) {
    const expected =
      positionals.min === positionals.max
        ? `${positionals.min}`
        : `${positionals.min} to ${positionals.max}`;
    throw new CliUsageError(
      describeArgumentCount(command, expected, positionals.names, parsed.positionals),
      command,
    );
  }
  return { values, positionals: parsed.positionals };
}

/** The message for a wrong number of arguments: what the command takes and what it got. */
export function describeArgumentCount(
  command: string,
  expected: string,
  names: string,
  given: readonly string[],
): string {
  const listed =
    given.length > 0 ? `: ${given.map((value) => JSON.stringify(value)).join(' ')}` : '';
  return `"toolcap ${command}" takes ${expected} argument(s) (${names}), got ${given.length}${listed}`;
}

/** A repeatable string option as an array. */
export function stringList(value: ParsedArgs['values'][string]): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.map(String);
  return [String(value)];
}

/** An optional string option. */
export function optionalString(value: ParsedArgs['values'][string]): string | undefined {
  if (value === undefined) return undefined;
  return Array.isArray(value) ? String(value[value.length - 1]) : String(value);
}

/** A positive integer option (e.g. `--max-tools 5`). */
export function positiveInteger(
  command: string,
  name: string,
  value: ParsedArgs['values'][string],
): number | undefined {
  const text = optionalString(value);
  if (text === undefined) return undefined;
  if (!/^[1-9]\d*$/.test(text)) {
    throw new CliUsageError(
      `--${name} must be a positive integer, got ${JSON.stringify(text)}`,
      command,
    );
  }
  return Number(text);
}

/** A whole-number option that may be 0 (e.g. `--history-window 0`: no history counts). */
export function wholeNumber(
  command: string,
  name: string,
  value: ParsedArgs['values'][string],
  meaning: string,
): number | undefined {
  const text = optionalString(value);
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text))) {
    throw new CliUsageError(
      `--${name} must be a whole number, 0 or more (${meaning}), got ${JSON.stringify(text)}`,
      command,
    );
  }
  return Number(text);
}

/** How a `KEY=VALUE` option is written: its shape and an example (`--pin calendar=^1.2.0`). */
export interface PairForm {
  shape: string;
  example: string;
}

/** `--context` pairs. */
export const CONTEXT_PAIR: PairForm = { shape: 'KEY=VALUE', example: 'user_id=u1' };

/** `--pin` pairs. */
export const PIN_PAIR: PairForm = { shape: 'GROUP=RANGE', example: 'calendar=^1.2.0' };

/**
 * `KEY=VALUE` pairs (e.g. `--context user_id=u1`) into an object with own properties only
 * (a key such as `__proto__` stays a plain key).
 */
export function keyValuePairs(
  command: string,
  option: string,
  value: ParsedArgs['values'][string],
  form: PairForm = CONTEXT_PAIR,
): Record<string, string> {
  const entries: [string, string][] = [];
  for (const pair of stringList(value)) {
    const separator = pair.indexOf('=');
    if (separator <= 0) {
      throw new CliUsageError(
        `--${option} expects ${form.shape} (e.g. --${option} ${form.example}), got ${JSON.stringify(pair)}`,
        command,
      );
    }
    entries.push([pair.slice(0, separator), pair.slice(separator + 1)]);
  }
  return Object.fromEntries(entries);
}
