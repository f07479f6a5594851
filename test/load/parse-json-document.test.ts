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
});
