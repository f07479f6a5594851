import { createRequire } from 'node:module';
import type { JsonValue } from '../format/types.js';

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
  const detail = error instanceof Error ? error.message : String(error);
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
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let index = 0; index < end; index++) {
    if (text.charCodeAt(index) === 10) {
      line++;
      lineStart = index + 1;
    }
  }
  return { line, column: end - lineStart + 1 };
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

/**
 * Maps a JSON pointer to the position of its value (for an object member, of its key), or of
 * the closest existing ancestor. Uses jsonc-parser's scanner with an explicit stack, so a
 * 5,000-deep document is located without recursion.
 */
function createLocator(text: string): (pointer: string) => TextPosition | undefined {
  return (pointer) => {
    const tokens = pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeToken);
    const offset = locateOffset(text, tokens);
    return offset === undefined ? undefined : positionAt(text, offset);
  };
}

function unescapeToken(token: string): string {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}

interface Container {
  kind: 'object' | 'array';
  index: number;
  /** The container's own value occupies a path segment that is popped when it closes. */
  hasSegment: boolean;
}

function locateOffset(text: string, tokens: readonly string[]): number | undefined {
  const scanner = loadJsonc().createScanner(text, true);
  const path: string[] = [];
  const containers: Container[] = [];
  let matched = 0;
  let best: { depth: number; offset: number } | undefined;
  let pendingKey: { key: string; offset: number } | undefined;

  const pushSegment = (segment: string) => {
    if (matched === path.length && tokens[path.length] === segment) matched++;
    path.push(segment);
  };
  const popSegment = () => {
    path.pop();
    if (matched > path.length) matched = path.length;
  };

  for (let kind = scanner.scan(); kind !== TOKEN.eof; kind = scanner.scan()) {
    const top = containers[containers.length - 1];
    if (top?.kind === 'object' && pendingKey === undefined) {
      if (kind === TOKEN.string)
        pendingKey = { key: scanner.getTokenValue(), offset: scanner.getTokenOffset() };
      else if (kind === TOKEN.closeBrace) closeContainer();
      continue;
    }
    if (kind === TOKEN.colon || kind === TOKEN.comma) continue;
    if (kind === TOKEN.closeBracket || kind === TOKEN.closeBrace) {
      closeContainer();
      continue;
    }
    // a value starts here
    let segment: string | undefined;
    let reportOffset = scanner.getTokenOffset();
    if (top?.kind === 'object' && pendingKey !== undefined) {
      segment = pendingKey.key;
      reportOffset = pendingKey.offset;
      pendingKey = undefined;
    } else if (top?.kind === 'array') {
      segment = String(top.index);
      top.index++;
    }
    if (segment !== undefined) pushSegment(segment);
    if (matched === path.length && (best === undefined || path.length > best.depth)) {
      best = { depth: path.length, offset: reportOffset };
      if (path.length === tokens.length) return reportOffset;
    }
    if (kind === TOKEN.openBrace || kind === TOKEN.openBracket) {
      containers.push({
        kind: kind === TOKEN.openBrace ? 'object' : 'array',
        index: 0,
        hasSegment: segment !== undefined,
      });
    } else if (segment !== undefined) {
      popSegment();
    }
  }
  return best?.offset;

  function closeContainer(): void {
    const closed = containers.pop();
    if (closed?.hasSegment === true) popSegment();
    pendingKey = undefined;
  }
}
