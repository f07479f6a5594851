import { createRequire } from 'node:module';
import type { JsonValue } from '../format/types.js';
import { errorMessage } from '../util/error-message.js';

/** A text position, 1-based. */
export interface TextPosition {
  line: number;
  column: number;
}

/** A parsed JSON file that can map JSON pointers back to text positions. */
export interface JsonDocument {
  value: JsonValue;
  /** Position of the value at `pointer`, or of its closest existing ancestor. Computed lazily. */
  locate(pointer: string): TextPosition | undefined;
}

/** The outcome of parsing a file's text. */
export type ParseJsonResult =
  | { ok: true; document: JsonDocument }
  | { ok: false; reason: 'empty' }
  | { ok: false; reason: 'syntax'; message: string; position: TextPosition };

const BYTE_ORDER_MARK = '\uFEFF';

/**
 * Parses JSON text. The fast path is the native `JSON.parse`; positions (for error messages)
 * come from jsonc-parser, which only runs when a syntax error or a diagnostic needs them.
 * A UTF-8 byte order mark is accepted and ignored.
 */
export function parseJsonDocument(rawText: string): ParseJsonResult {
  const text = rawText.startsWith(BYTE_ORDER_MARK) ? rawText.slice(1) : rawText;
  if (text.trim() === '') return { ok: false, reason: 'empty' };
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch (error) {
    return { ok: false, reason: 'syntax', ...describeSyntaxError(text, error) };
  }
  let locator: ((pointer: string) => TextPosition | undefined) | undefined;
  return {
    ok: true,
    document: {
      value,
      locate(pointer) {
        locator ??= createLocator(text);
        return locator(pointer);
      },
    },
  };
}

function describeSyntaxError(
  text: string,
  error: unknown,
): { message: string; position: TextPosition } {
  const errors = collectSyntaxErrors(text);
  const first = errors[0];
  if (first !== undefined) {
    return { message: first.message, position: positionAt(text, first.offset) };
  }
  // jsonc-parser accepted what JSON.parse rejected (e.g. a nesting depth V8 refuses).
  const detail = errorMessage(error);
  return { message: detail, position: { line: 1, column: 1 } };
}

interface SyntaxProblem {
  message: string;
  offset: number;
}

const SYNTAX_MESSAGES: Record<number, string> = {
  1: 'invalid symbol',
  2: 'invalid number format',
  3: 'expected a property name in double quotes',
  4: 'expected a value',
  5: 'expected ":" after the property name',
  6: 'expected "," between values',
  7: 'expected "}" to close the object',
  8: 'expected "]" to close the array',
  9: 'unexpected end of file',
  10: 'comments are not allowed in JSON',
  11: 'unexpected end of comment',
  12: 'unterminated string',
  13: 'unexpected end of number',
  14: 'invalid unicode escape',
  15: 'invalid escape character',
  16: 'invalid character in string',
};

function collectSyntaxErrors(text: string): SyntaxProblem[] {
  const problems: SyntaxProblem[] = [];
  try {
    visitWithJsonc(text, problems);
  } catch {
    // a pathological nesting depth can overflow the visitor's recursion; report what we have.
  }
  return problems;
}

// jsonc-parser is loaded on demand so the fast path (valid files) never pays for it.
const require = createRequire(import.meta.url);
type Jsonc = typeof import('jsonc-parser');
let jsonc: Jsonc | undefined;
function loadJsonc(): Jsonc {
  jsonc ??= require('jsonc-parser') as Jsonc;
  return jsonc;
}

function visitWithJsonc(text: string, problems: SyntaxProblem[]): void {
  const { visit } = loadJsonc();
  visit(
    text,
    {
      onError(errorCode, offset) {
        problems.push({
          message: SYNTAX_MESSAGES[errorCode] ?? `syntax error ${errorCode}`,
          offset,
        });
      },
      onComment(offset) {
        problems.push({ message: 'comments are not allowed in JSON', offset });
      },
    },
    { disallowComments: true, allowTrailingComma: false },
  );
  // jsonc-parser reports trailing commas as "expected a value"; name them plainly.
  for (const problem of problems) {
    if (
      problem.message === 'expected a value' ||
      problem.message.startsWith('expected a property')
    ) {
      const before = text.slice(0, problem.offset).trimEnd();
      const next = text.slice(problem.offset).trimStart()[0];
      if (before.endsWith(',') && (next === '}' || next === ']')) {
        problem.message = 'trailing comma before the closing bracket';
      }
    }
  }
  problems.sort((a, b) => a.offset - b.offset);
}

function positionAt(text: string, offset: number): TextPosition {
  return createPositionFinder(text)(offset);
}

/** Offset → line and column, with line starts computed once (binary search per lookup). */
function createPositionFinder(text: string): (offset: number) => TextPosition {
  const lineStarts = [0];
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
    lineStarts.push(index + 1);
  }
  return (offset) => {
    const end = Math.min(offset, text.length);
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (lineStarts[middle]! <= end) low = middle;
      else high = middle - 1;
    }
    return { line: low + 1, column: end - lineStarts[low]! + 1 };
  };
}

// jsonc-parser's SyntaxKind is a const enum, which isolatedModules cannot inline: mirror it.
const TOKEN = {
  openBrace: 1,
  closeBrace: 2,
  openBracket: 3,
  closeBracket: 4,
  comma: 5,
  colon: 6,
  string: 10,
  eof: 17,
} as const;

/** Where one member or item is: its key (for an object member) and the start of its value. */
interface Slot {
  /** Reported position: the key of an object member, the value of an array item or the root. */
  reportOffset: number;
  valueOffset: number;
}

/**
 * The direct children of one object or array, scanned on demand: children are recorded in
 * order until the one asked for is found, and the scan resumes there for the next request.
 */
interface ContainerIndex {
  kind: 'object' | 'array';
  members: Map<string, Slot>;
  items: Slot[];
  /** Where the scan stopped (just after the last recorded child's value); -1 when complete. */
  resumeOffset: number;
}

/**
 * Maps a JSON pointer to the position of its value (for an object member, of its key), or of
 * the closest existing ancestor. A container is scanned only as far as the child asked for,
 * and what was scanned is kept: locating many pointers (one per diagnostic) costs about one
 * pass over the text, and a pointer deep inside a 200,000-deep document costs a pass over the
 * members on its path, not over everything nested below them. Iterative, so deep documents
 * cannot overflow the stack.
 */
function createLocator(text: string): (pointer: string) => TextPosition | undefined {
  const scanner = loadJsonc().createScanner(text, true);
  const containers = new Map<number, ContainerIndex | undefined>();
  /** Offset of the closing token of each container skipped so far, by its opening offset. */
  const containerEnds = new Map<number, { offset: number }>();
  const findPosition = createPositionFinder(text);
  scanner.setPosition(0);
  scanner.scan();
  const root: Slot = {
    reportOffset: scanner.getTokenOffset(),
    valueOffset: scanner.getTokenOffset(),
  };

  return (pointer) => {
    const tokens = pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeToken);
    let slot = root;
    for (const token of tokens) {
      const child = findChild(slot.valueOffset, token);
      if (child === undefined) break;
      slot = child;
    }
    return findPosition(slot.reportOffset);
  };

  function containerAt(offset: number): ContainerIndex | undefined {
    if (!containers.has(offset)) {
      scanner.setPosition(offset);
      const open = scanner.scan();
      containers.set(
        offset,
        open === TOKEN.openBrace || open === TOKEN.openBracket
          ? {
              kind: open === TOKEN.openBrace ? 'object' : 'array',
              members: new Map(),
              items: [],
              resumeOffset: scanner.getTokenOffset() + 1,
            }
          : undefined,
      );
    }
    return containers.get(offset);
  }

  function findChild(offset: number, token: string): Slot | undefined {
    const container = containerAt(offset);
    if (container === undefined) return undefined;
    if (container.kind === 'array') {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      const index = Number(token);
      while (container.resumeOffset >= 0 && container.items.length <= index) {
        scanNextChild(container);
      }
      return container.items[index];
    }
    // a duplicate key keeps the last value, as JSON.parse does: read the whole object (skipping
    // a nested value is O(1) once its end is known, see skipValue)
    while (container.resumeOffset >= 0) scanNextChild(container);
    return container.members.get(token);
  }

  /** Records the next child of `container` and moves past its value. */
  function scanNextChild(container: ContainerIndex): void {
    scanner.setPosition(container.resumeOffset);
    let kind = scanner.scan();
    if (container.members.size > 0 || container.items.length > 0) {
      if (kind !== TOKEN.comma) {
        container.resumeOffset = -1;
        return;
      }
      kind = scanner.scan();
    }
    if (container.kind === 'object') {
      if (kind !== TOKEN.string) {
        container.resumeOffset = -1;
        return;
      }
      const reportOffset = scanner.getTokenOffset();
      const key = scanner.getTokenValue();
      if (scanner.scan() !== TOKEN.colon) {
        container.resumeOffset = -1;
        return;
      }
      const valueKind = scanner.scan();
      container.members.set(key, { reportOffset, valueOffset: scanner.getTokenOffset() });
      skipValue(valueKind);
    } else {
      if (kind === TOKEN.closeBracket || kind === TOKEN.eof) {
        container.resumeOffset = -1;
        return;
      }
      const valueOffset = scanner.getTokenOffset();
      container.items.push({ reportOffset: valueOffset, valueOffset });
      skipValue(kind);
    }
    container.resumeOffset = scanner.getTokenOffset() + scanner.getTokenLength();
  }

  /**
   * Moves the scanner past the value whose first token (just scanned) is `kind`. The end of
   * every container met on the way is remembered, so each part of the text is skipped at most
   * once however deep the pointers go.
   */
  function skipValue(kind: number): void {
    if (kind !== TOKEN.openBrace && kind !== TOKEN.openBracket) return;
    const start = scanner.getTokenOffset();
    const known = containerEnds.get(start);
    if (known !== undefined) {
      scanner.setPosition(known.offset);
      scanner.scan();
      return;
    }
    const open = [start];
    while (open.length > 0) {
      const next = scanner.scan();
      if (next === TOKEN.eof) return;
      if (next === TOKEN.openBrace || next === TOKEN.openBracket) {
        const offset = scanner.getTokenOffset();
        const end = containerEnds.get(offset);
        if (end === undefined) open.push(offset);
        else {
          scanner.setPosition(end.offset);
          scanner.scan();
        }
      } else if (next === TOKEN.closeBrace || next === TOKEN.closeBracket) {
        containerEnds.set(open.pop()!, { offset: scanner.getTokenOffset() });
      }
    }
  }
}

function unescapeToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}
