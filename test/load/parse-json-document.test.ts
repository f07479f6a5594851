import { describe, expect, it } from 'vitest';
import { parseJsonDocument } from '../../src/load/parse-json-document.js';

describe('parseJsonDocument', () => {
  it('parses JSON and locates pointers (member keys, array items, missing fields)', () => {
    const text = '{\n  "a": 1,\n  "list": [\n    {"x": true},\n    {"y": [5, 6]}\n  ]\n}\n';
    const result = parseJsonDocument(text);
    if (!result.ok) throw new Error('expected ok');
    const { document } = result;
    expect(document.value).toEqual({ a: 1, list: [{ x: true }, { y: [5, 6] }] });
    expect(document.locate('')).toEqual({ line: 1, column: 1 });
    expect(document.locate('/a')).toEqual({ line: 2, column: 3 });
    expect(document.locate('/list/1/y/1')).toEqual({ line: 5, column: 15 });
    expect(document.locate('/list/0/x')).toEqual({ line: 4, column: 6 });
    // a missing member points at its closest existing ancestor
    expect(document.locate('/list/0/missing')).toEqual({ line: 4, column: 5 });
    expect(document.locate('/nope/deeper')).toEqual({ line: 1, column: 1 });
  });

  it('unescapes pointer tokens', () => {
    const result = parseJsonDocument('{"a/b": {"c~d": 1}}');
    if (!result.ok) throw new Error('expected ok');
    expect(result.document.locate('/a~1b/c~0d')).toEqual({ line: 1, column: 10 });
  });

  it('accepts a UTF-8 byte order mark', () => {
    const result = parseJsonDocument('\uFEFF{"a": 1}');
    expect(result.ok && result.document.value).toEqual({ a: 1 });
  });

  it('reports empty files and syntax errors with positions', () => {
    expect(parseJsonDocument(' \n\t')).toEqual({ ok: false, reason: 'empty' });
    expect(parseJsonDocument('{"a": 1 "b": 2}')).toMatchObject({
      ok: false,
      reason: 'syntax',
      message: 'expected "," between values',
      position: { line: 1, column: 9 },
    });
    expect(parseJsonDocument('{\n  // note\n  "a": 1\n}')).toMatchObject({
      reason: 'syntax',
      message: 'comments are not allowed in JSON',
      position: { line: 2, column: 3 },
    });
    expect(parseJsonDocument('[1, 2,]')).toMatchObject({
      message: 'trailing comma before the closing bracket',
    });
    expect(parseJsonDocument('{"a": "unterminated')).toMatchObject({
      message: 'unterminated string',
    });
    expect(parseJsonDocument('{"a": 1}}')).toMatchObject({
      reason: 'syntax',
      position: { line: 1, column: 9 },
    });
  });

  it('locates values inside a 5,000-deep document without recursion', () => {
    const depth = 5_000;
    const text = `${'{"k":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const result = parseJsonDocument(text);
    if (!result.ok) throw new Error('expected ok');
    expect(result.document.locate(`/k`.repeat(depth))).toEqual({ line: 1, column: 5 * depth - 3 });
  });

  it.each([
    ['UTF-16 (little-endian)', 'utf16le', true],
    ['UTF-16 (little-endian)', 'utf16le', false],
    ['UTF-16 (big-endian)', 'utf16be', true],
    ['UTF-16 (big-endian)', 'utf16be', false],
    ['UTF-32 (little-endian)', 'utf32le', true],
    ['UTF-32 (little-endian)', 'utf32le', false],
    ['UTF-32 (big-endian)', 'utf32be', true],
    ['UTF-32 (big-endian)', 'utf32be', false],
  ] as const)('names %s text (%s, byte order mark: %s) instead of "invalid symbol"', (name, encoding, mark) => {
    const bytes = encode(`${mark ? '\uFEFF' : ''}{\n  "group": "calendar"\n}\n`, encoding);
    expect(parseJsonDocument(bytes.toString('utf8'))).toEqual({
      ok: false,
      reason: 'encoding',
      message: `the text is ${name}, not UTF-8; save the file as UTF-8 (JSON files must be UTF-8)`,
      position: { line: 1, column: 1 },
    });
  });

  it('keeps reporting ordinary syntax errors as syntax errors', () => {
    expect(parseJsonDocument('\uFFFD\uFFFD{"a": 1}')).toMatchObject({ reason: 'syntax' });
    expect(parseJsonDocument('{"a": "\u0000"}')).toMatchObject({ reason: 'syntax' });
  });
});

describe('findDuplicateKeys', () => {
  it('finds every repeated key with its pointer and both positions', () => {
    const text = [
      '{',
      '  "name": "safe_tool",',
      '  "list": [{"a": 1}, {"b": 2, "b": 3}],',
      '  "escaped": {"x\\"y": 1, "x\\u0022y": 2, "a/b~c": 0, "a/b~c": 1},',
      '  "text": "{\\"name\\": 1, \\"name\\": 2}",',
      '  "name": "dangerous_tool"',
      '}',
    ].join('\n');
    const result = parseJsonDocument(text);
    if (!result.ok) throw new Error('expected ok');
    expect(result.document.findDuplicateKeys()).toEqual([
      {
        pointer: '/list/1/b',
        key: 'b',
        first: { line: 3, column: 23 },
        position: { line: 3, column: 31 },
      },
      {
        pointer: '/escaped/x"y',
        key: 'x"y',
        first: { line: 4, column: 15 },
        position: { line: 4, column: 26 },
      },
      {
        pointer: '/escaped/a~1b~0c',
        key: 'a/b~c',
        first: { line: 4, column: 41 },
        position: { line: 4, column: 53 },
      },
      {
        pointer: '/name',
        key: 'name',
        first: { line: 2, column: 3 },
        position: { line: 6, column: 3 },
      },
    ]);
  });

  it('finds none in a file without repeats, equal keys in different objects included', () => {
    const result = parseJsonDocument('{"a": {"a": {"a": [{"a": 1}, {"a": 2}]}}, "b": "\\\\"}');
    if (!result.ok) throw new Error('expected ok');
    expect(result.document.findDuplicateKeys()).toEqual([]);
  });

  it('finds repeats whatever the spacing before the colon, and is not fooled by colons in strings', () => {
    const keys = (text: string) => {
      const result = parseJsonDocument(text);
      if (!result.ok) throw new Error('expected ok');
      return result.document.findDuplicateKeys().map((duplicate) => duplicate.pointer);
    };
    expect(keys('{"a" : 1, "a"\n:\t2}')).toEqual(['/a']);
    expect(keys('{"s": ":", "t": "x\\" : y", "u": {"v": 1, "v" :2}}')).toEqual(['/u/v']);
    expect(keys('{"s": ":", "t": "x\\" : y", "u": {"v": 1, "w": 2}}')).toEqual([]);
    expect(keys('[{"a": 1}, {"a": 1, "b": [{"a": 2}]}]')).toEqual([]);
  });

  it('scans a 10,000-deep document without recursion', () => {
    const text = `${'{"k":'.repeat(10_000)}{"d": 1, "d": 2}${'}'.repeat(10_000)}`;
    const result = parseJsonDocument(text);
    if (!result.ok) throw new Error('expected ok');
    const [duplicate] = result.document.findDuplicateKeys();
    expect(duplicate?.pointer).toBe(`${'/k'.repeat(10_000)}/d`);
  });
});

/** `text` in a UTF-16 or UTF-32 encoding (Node has no UTF-32 or big-endian UTF-16 codec). */
function encode(text: string, encoding: 'utf16le' | 'utf16be' | 'utf32le' | 'utf32be'): Buffer {
  if (encoding === 'utf16le') return Buffer.from(text, 'utf16le');
  if (encoding === 'utf16be') return Buffer.from(text, 'utf16le').swap16();
  const bytes = Buffer.alloc(text.length * 4);
  for (let index = 0; index < text.length; index++) {
    if (encoding === 'utf32le') bytes.writeUInt32LE(text.charCodeAt(index), index * 4);
    else bytes.writeUInt32BE(text.charCodeAt(index), index * 4);
  }
  return bytes;
}
