import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from 'node:fs';
import { getAtPointer } from '../format/json-pointer.js';
import type { LoadLimits } from '../format/limits.js';
import type { Diagnostic } from '../format/types.js';
import { errorMessage } from '../util/error-message.js';
import { quoteValue } from '../util/quote-value.js';
import { type DuplicateKey, type JsonDocument, parseJsonDocument } from './parse-json-document.js';
import {
  type GroupValidation,
  type ValidateGroupOptions,
  validateGroupDocument,
} from './validate-group-file.js';

/** A group file's text parsed and validated, with every problem as a positioned diagnostic. */
export interface CheckedGroupText {
  /** The parsed document (absent when the text is empty or not JSON). */
  document: JsonDocument | undefined;
  /** The validation outcome (absent when the text is empty or not JSON). */
  validation: GroupValidation | undefined;
  /** Syntax and validation problems, labelled with `label` and located in the text. */
  diagnostics: Diagnostic[];
}

/**
 * Reads one group file synchronously, refusing files over `limits.maxFileBytes` and anything
 * that is not a regular file. Both are checked on the open descriptor, so a file replaced after
 * listing is judged as read; the open never blocks (a FIFO swapped in would otherwise wait
 * forever for a writer).
 */
export function readGroupFileText(
  file: string,
  limits: LoadLimits,
  label: string,
): { text: string } | { diagnostic: Diagnostic } {
  let descriptor: number | undefined;
  const unreadable = (message: string) => ({
    diagnostic: {
      severity: 'error' as const,
      code: 'FILE_UNREADABLE',
      file: label,
      pointer: '',
      message,
    },
  });
  try {
    descriptor = openSync(file, OPEN_NONBLOCKING);
    const info = fstatSync(descriptor);
    if (!info.isFile()) {
      return unreadable(
        `the path is not a regular file (it is ${describeFileType(info)}); a group file must be a plain JSON file`,
      );
    }
    if (info.size > limits.maxFileBytes) {
      return {
        diagnostic: {
          severity: 'error',
          code: 'FILE_TOO_LARGE',
          file: label,
          pointer: '',
          message: `the file is ${info.size} bytes, larger than ${limits.maxFileBytes} (limits.maxFileBytes); split the group or raise the limit`,
        },
      };
    }
    return { text: readFileSync(descriptor, 'utf8') };
  } catch (error) {
    return unreadable(
      `the file could not be read (${errorMessage(error)}); check that it exists and is readable`,
    );
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/** Read-only and non-blocking: opening a FIFO or a device returns at once (no-op on Windows). */
export const OPEN_NONBLOCKING = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** "a directory", "a FIFO (named pipe)", ...: what a path that is not a regular file is. */
export function describeFileType(
  info: Pick<Stats, 'isDirectory' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>,
): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  return 'a special file';
}

/**
 * Parses `text` as a group file and validates it: an empty text is `EMPTY_FILE`, invalid JSON
 * is `JSON_SYNTAX` at its position, and every validation problem gets the line and column of
 * its pointer. The loader and `toolcap diff` read group files through this one function.
 */
export function checkGroupText(
  text: string,
  label: string,
  options: ValidateGroupOptions,
): CheckedGroupText {
  const parsed = parseJsonDocument(text);
  if (!parsed.ok) {
    const diagnostic: Diagnostic =
      parsed.reason === 'empty'
        ? {
            severity: 'error',
            code: 'EMPTY_FILE',
            file: label,
            pointer: '',
            line: 1,
            column: 1,
            message:
              'the file is empty; a group file is a JSON object with group, version, description, selection and tools',
          }
        : {
            severity: 'error',
            code: 'JSON_SYNTAX',
            file: label,
            pointer: '',
            line: parsed.position.line,
            column: parsed.position.column,
            message:
              parsed.reason === 'encoding'
                ? parsed.message
                : `invalid JSON: ${parsed.message}; fix the syntax at this position`,
          };
    return { document: undefined, validation: undefined, diagnostics: [diagnostic] };
  }
  const { document } = parsed;
  const validation = validateGroupDocument(document.value, options);
  const diagnostics = document
    .findDuplicateKeys()
    .map((duplicate) => describeDuplicateKey(duplicate, document, label));
  for (const problem of validation.problems) {
    const position = document.locate(problem.pointer);
    diagnostics.push({
      ...problem,
      file: label,
      ...(position !== undefined ? { line: position.line, column: position.column } : {}),
    });
  }
  return { document, validation, diagnostics };
}

/**
 * A `DUPLICATE_KEY` warning: JSON keeps the last of two equal keys while a reviewer reads the
 * first, so `"name": "safe_tool", "name": "dangerous_tool"` registers `dangerous_tool`.
 */
function describeDuplicateKey(
  duplicate: DuplicateKey,
  document: JsonDocument,
  label: string,
): Diagnostic {
  const kept = getAtPointer(document.value, duplicate.pointer);
  return {
    severity: 'warning',
    code: 'DUPLICATE_KEY',
    file: label,
    pointer: duplicate.pointer,
    line: duplicate.position.line,
    column: duplicate.position.column,
    message: `the key ${quoteValue(duplicate.key)} appears again in this object (first at line ${duplicate.first.line}, column ${duplicate.first.column}); JSON keeps the last value, ${quoteValue(kept)}, while a reader sees the first: remove one of them`,
  };
}
