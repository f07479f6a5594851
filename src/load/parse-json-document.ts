import { createRequire } from 'node:module';
import type { JsonValue } from '../format/types.js';
import { errorMessage } from '../util/error-message.js';

/** A text position, 1-based. */
export interface TextPosition {
  line: number;
  column: number;
}

/** A key that appears more than once in one object (`JSON.parse` keeps the last value). */
export interface DuplicateKey {
  /** JSON Pointer of the member (the object's pointer plus the key). */
  pointer: string;
  key: string;
  /** Where the key first appears. */
  first: TextPosition;
  /** Where it appears again (each repetition is reported once). */
  position: TextPosition;
}

/** A parsed JSON file that can map JSON pointers back to text positions. */
export interface JsonDocument {
  value: JsonValue;
  /** Position of the value at `pointer`, or of its closest existing ancestor. Computed lazily. */
  locate(pointer: string): TextPosition | undefined;
  /** Every repeated key, in text order: one linear pass over the text, on demand. */
  findDuplicateKeys(): DuplicateKey[];
}

/** The outcome of parsing a file's text. */
export type ParseJsonResult =
  | { ok: true; document: JsonDocument }
  | { ok: false; reason: 'empty' }
  | { ok: false; reason: 'syntax' | 'encoding'; message: string; position: TextPosition };

const BYTE_ORDER_MARK = '\uFEFF';

/**
 * Parses JSON text. The fast path is the native `JSON.parse`; positions (for error messages)
 * come from jsonc-parser, which only runs when a syntax error or a diagnostic needs them.
 * A UTF-8 byte order mark is accepted and ignored; text that was UTF-16 or UTF-32 before it
 * was decoded as UTF-8 is an `encoding` failure that says so.
 */
export function parseJsonDocument(rawText: string): ParseJsonResult {
  const text = rawText.startsWith(BYTE_ORDER_MARK) ? rawText.slice(1) : rawText;
  if (text.trim() === '') return { ok: false, reason: 'empty' };
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch (error) {
    const encoding = detectWideEncoding(text);
    if (encoding !== undefined) {
      return {
        ok: false,
        reason: 'encoding',
        message: `the text is ${encoding}, not UTF-8; save the file as UTF-8 (JSON files must be UTF-8)`,
        position: { line: 1, column: 1 },
      };
    }
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
      findDuplicateKeys: () =>
        keyOccurrencesAtMost(text) === countKeys(value) ? [] : findDuplicateKeys(text),
    },
  };
}

/** A UTF-16 or UTF-32 byte order mark (FF FE or FE FF) decoded as UTF-8: two U+FFFD. */
const WIDE_MARK = '\uFFFD\uFFFD';

/**
 * "UTF-16 (little-endian)" and the like when `text` is UTF-16 or UTF-32 decoded as UTF-8: a
 * byte order mark decodes to two U+FFFD, and ASCII characters come out interleaved with NULs
 * (which valid JSON never holds). Looks at the first characters only.
 */
export function detectWideEncoding(text: string): string | undefined {
  if (text.startsWith(`\0\0${WIDE_MARK}`)) return 'UTF-32 (big-endian)';
  const hasMark = text.startsWith(WIDE_MARK);
  const start = text.slice(hasMark ? 2 : 0, hasMark ? 10 : 8);
  // which of the first characters are NULs tells the width and the byte order
  const shape = [...start].map((character) => (character === '\0' ? '0' : 'x')).join('');
  if (shape.startsWith('00') && hasMark) return 'UTF-32 (little-endian)';
  if (/^(?:x000){2}/.test(shape)) return 'UTF-32 (little-endian)';
  if (/^(?:000x){2}/.test(shape)) return 'UTF-32 (big-endian)';
  if (/^(?:x0){3}/.test(shape)) return 'UTF-16 (little-endian)';
  if (/^(?:0x){3}/.test(shape)) return 'UTF-16 (big-endian)';
  return hasMark && shape.includes('0') ? 'UTF-16' : undefined;
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

/**
 * An upper bound on the number of object keys written in valid JSON `text`: the quotes followed
 * (after whitespace) by a colon. Every key's closing quote is; inside a string only an escaped
 * quote (`\":`) or an opening quote before a colon can be, and those only raise the bound.
 * When it equals the parsed keys, no key was written twice: the common case costs a quote
 * search instead of the full scan.
 */
function keyOccurrencesAtMost(text: string): number {
  let count = 0;
  for (let quote = text.indexOf('"'); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let next = quote + 1;
    let code = text.charCodeAt(next);
    while (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) {
      code = text.charCodeAt(++next);
    }
    if (code === 0x3a) count++;
  }
  return count;
}

/** How many keys the objects of a parsed JSON value hold, all levels together. */
function countKeys(value: JsonValue): number {
  let count = 0;
  const stack: JsonValue[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    for (const key in node) {
      count++;
      stack.push(node[key]!);
    }
  }
  return count;
}

/** One open object or array during the duplicate-key scan. */
type OpenContainer =
  | { kind: 'object'; keys: Map<string, number>; current: string }
  | { kind: 'array'; index: number };

/**
 * The repeated keys of valid JSON `text`, in one pass without recursion: strings are skipped
 * with `indexOf`, and only object keys are kept (one map per open object). A reviewer reads
 * the first of two equal keys while `JSON.parse` keeps the last, so a group file could show
 * `"name": "safe_tool"` and register `"dangerous_tool"`.
 */
function findDuplicateKeys(text: string): DuplicateKey[] {
  const duplicates: { pointer: string; key: string; firstOffset: number; offset: number }[] = [];
  const open: OpenContainer[] = [];
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code === 0x22) {
      const end = findStringEnd(text, index);
      let next = end + 1;
      while (isJsonWhitespace(text.charCodeAt(next))) next++;
      const container = open[open.length - 1];
      if (text.charCodeAt(next) === 0x3a && container?.kind === 'object') {
        const raw = text.slice(index + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(index, end + 1)) as string) : raw;
        const firstOffset = container.keys.get(key);
        if (firstOffset === undefined) container.keys.set(key, index);
        else {
          duplicates.push({ pointer: pointerOf(open, key), key, firstOffset, offset: index });
        }
        container.current = key;
        index = next;
      } else {
        index = end;
      }
    } else if (code === 0x7b) {
      open.push({ kind: 'object', keys: new Map(), current: '' });
    } else if (code === 0x5b) {
      open.push({ kind: 'array', index: 0 });
    } else if (code === 0x7d || code === 0x5d) {
      open.pop();
    } else if (code === 0x2c) {
      const container = open[open.length - 1];
      if (container?.kind === 'array') container.index++;
    }
  }
  if (duplicates.length === 0) return [];
  const findPosition = createPositionFinder(text);
  return duplicates.map(({ pointer, key, firstOffset, offset }) => ({
    pointer,
    key,
    first: findPosition(firstOffset),
    position: findPosition(offset),
  }));
}

/** Offset of the quote that closes the string opening at `start` (text is valid JSON). */
function findStringEnd(text: string, start: number): number {
  let end = text.indexOf('"', start + 1);
  for (;;) {
    let backslashes = 0;
    while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return end;
    end = text.indexOf('"', end + 1);
  }
}

function isJsonWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/** The pointer of member `key` of the innermost open object. */
function pointerOf(open: readonly OpenContainer[], key: string): string {
  let pointer = '';
  for (let depth = 0; depth < open.length - 1; depth++) {
    const container = open[depth]!;
    pointer += `/${container.kind === 'array' ? container.index : escapeToken(container.current)}`;
  }
  return `${pointer}/${escapeToken(key)}`;
}

function escapeToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}
