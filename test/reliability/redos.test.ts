import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { validateToolInput } from '../../src/execute/validate-tool-input.js';
import type { RegisteredTool } from '../../src/format/types.js';
import {
  compileSchema,
  MAX_PATTERN_INPUT_LENGTH,
  patternInputLimit,
} from '../../src/json-schema/compile-schema.js';
import {
  estimateBacktrackingDegree,
  findCatastrophicBacktracking,
} from '../../src/json-schema/find-catastrophic-backtracking.js';
import { RegistryLoadError } from '../../src/load/registry-load-error.js';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';
import { assertProperty } from './fuzz-settings.js';

const CATASTROPHIC = '^(a+)+$';
/** 40 a's and a b: about 2^40 paths for `^(a+)+$` in a backtracking engine. */
const EVIL_INPUT = `${'a'.repeat(40)}b`;

function schemaWithPattern(pattern: string): Record<string, unknown> {
  return {
    type: 'object',
    properties: { code: { type: 'string', pattern } },
    required: ['code'],
  };
}

/**
 * Strings that any RegExp ran `exec` on (`test`, `match` and ajv all go through `exec`). Check
 * them with `includes` and a boolean: the assertion library's own messages run regexes too.
 */
function recordRegExpInputs(): string[] {
  const inputs: string[] = [];
  const exec = RegExp.prototype.exec;
  vi.spyOn(RegExp.prototype, 'exec').mockImplementation(function (this: RegExp, text: string) {
    inputs.push(text);
    return exec.call(this, text);
  });
  return inputs;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ReDoS: pattern regexes cannot hang validation', () => {
  it('rejects a catastrophic pattern at load with INVALID_PATTERN, naming the nested quantifier', async () => {
    const dir = createTempDir({
      'codes_tools.json': makeGroup('codes', {
        tools: [
          makeTool({ name: 'evil', input_schema: schemaWithPattern(CATASTROPHIC) }),
          makeTool({ name: 'fine', input_schema: schemaWithPattern('^[a-z]+(-[a-z]+)*$') }),
        ],
      }),
    });
    const registry = await loadRegistry({ dirs: [dir], cwd: dir });
    expect(registry.list().map((tool) => tool.name)).toEqual(['fine']);
    expect(registry.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        code: 'INVALID_PATTERN',
        pointer: '/tools/0/input_schema/properties/code/pattern',
        message: expect.stringContaining(
          'pattern "^(a+)+$" can backtrack catastrophically on a long non-matching input (ReDoS) at "(a+)+"',
        ),
      }),
    ]);
    expect(registry.diagnostics[0]?.message).toMatch(
      /\(nested quantifiers\); remove the inner quantifier/,
    );
  });

  it('rejects it in patternProperties keys and through register() too', () => {
    const group = makeGroup('codes', {
      tools: [
        makeTool({
          input_schema: {
            type: 'object',
            properties: {},
            patternProperties: { '^(\\w+\\s?)*$': { type: 'string' } },
          },
        }),
      ],
    });
    let error: unknown;
    try {
      createRegistry().register(group);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(RegistryLoadError);
    expect((error as RegistryLoadError).diagnostics).toEqual([
      expect.objectContaining({
        code: 'INVALID_PATTERN',
        pointer: '/tools/0/input_schema/patternProperties/^(\\w+\\s?)*$',
      }),
    ]);
  });

  it('a schema that reaches validation another way never runs the pattern on the input', () => {
    // a tool that did not come through the loader (hand-built): execution compiles its schema
    const tool = {
      ...makeTool({ name: 'evil', input_schema: schemaWithPattern(CATASTROPHIC) }),
      group: 'codes',
      version: '1.0.0',
      source: 'registered',
      index: 0,
    } as unknown as RegisteredTool;
    const inputs = recordRegExpInputs();
    const result = validateToolInput(tool, { code: EVIL_INPUT });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: 'SCHEMA_COMPILE_FAILED',
        message: expect.stringContaining('can backtrack catastrophically'),
      },
    });
    expect(inputs.includes(EVIL_INPUT)).toBe(false);
    expect(() => compileSchema(schemaWithPattern('(a|a)*$'))).toThrow(/backtrack/);
  });

  it('strings longer than MAX_PATTERN_INPUT_LENGTH fail the pattern before any regex runs', () => {
    const validate = compileSchema(schemaWithPattern('^[a-z ]+$'));
    const long = `${' '.repeat(MAX_PATTERN_INPUT_LENGTH)}y`;
    const inputs = recordRegExpInputs();
    expect(validate({ code: long })).toEqual({
      valid: false,
      issues: [
        {
          pointer: '/code',
          keyword: 'pattern',
          message: `/code is ${MAX_PATTERN_INPUT_LENGTH + 1} characters; strings longer than ${MAX_PATTERN_INPUT_LENGTH} are not matched against the pattern "^[a-z ]+$", so it is rejected`,
        },
      ],
    });
    expect(inputs.includes(long)).toBe(false);
    // at the limit, the regex decides
    expect(validate({ code: `${' '.repeat(MAX_PATTERN_INPUT_LENGTH - 1)}y` }).valid).toBe(true);
  });

  it('polynomial patterns get a lower length limit: 10,000 digits against \\d+\\d+x would take minutes', () => {
    // unanchored, two repetitions that trade digits: n^3 steps, about six minutes at n = 10,000
    expect(estimateBacktrackingDegree('\\d+\\d+x')).toBe(3);
    expect(patternInputLimit('\\d+\\d+x')).toBe(271);
    expect(estimateBacktrackingDegree('^\\d+\\d+x$')).toBe(2);
    expect(estimateBacktrackingDegree('^[a-z0-9]+(?:[._-][a-z0-9]+)*$')).toBe(1);
    expect(patternInputLimit('^[a-z0-9]+(?:[._-][a-z0-9]+)*$')).toBe(MAX_PATTERN_INPUT_LENGTH);

    const validate = compileSchema(schemaWithPattern('\\d+\\d+x'));
    const digits = '1'.repeat(10_000);
    const inputs = recordRegExpInputs();
    expect(validate({ code: digits })).toMatchObject({
      valid: false,
      issues: [{ message: expect.stringContaining('strings longer than 271 are not matched') }],
    });
    expect(inputs.includes(digits)).toBe(false);
    expect(validate({ code: `${'1'.repeat(269)}x` }).valid).toBe(true);
  });

  it('each compiled pattern keeps its own regex (ajv caches patterns by their text)', () => {
    const letters = compileSchema(schemaWithPattern('^[a-z]+$'));
    const digits = compileSchema(schemaWithPattern('^[0-9]+$'));
    expect(letters({ code: 'abc' }).valid).toBe(true);
    expect(letters({ code: '123' }).valid).toBe(false);
    expect(digits({ code: '123' }).valid).toBe(true);
    expect(digits({ code: 'abc' }).valid).toBe(false);
  });

  it.each([
    ['^(a+)+$', '(a+)+'],
    ['(a*)*', '(a*)*'],
    ['(a|a)*', '(a|a)*'],
    ['(a|aa)+', '(a|aa)+'],
    ['(\\d|\\d\\d)+', '(\\d|\\d\\d)+'],
    ['^(\\w+\\s?)*$', '(\\w+\\s?)*'],
    ['^(([a-z])+.)+[A-Z]([a-z])+$', '(([a-z])+.)+'],
    ['(.*a){12}', '(.*a){12}'],
    ['^(a?){30}a{30}$', '(a?){30}'],
    ['(_\\d+\\d+)*', '(_\\d+\\d+)*'],
    ['(?:a+){2,}', '(?:a+){2,}'],
    [
      '^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}[a-z]{2,3}$',
      '(([\\-.]|[_]+)?([a-zA-Z0-9]+))*',
    ],
  ])('flags %s at %s', (pattern, construct) => {
    expect(findCatastrophicBacktracking(pattern)?.construct).toBe(construct);
  });

  it.each([
    // star height 2 but delimited: safe-regex2 rejects these; they split only one way
    '^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$',
    '^[a-z]+(-[a-z]+)*$',
    '^[a-z0-9]+(?:[._-][a-z0-9]+)*$',
    '^([0-9]{1,3}\\.){3}[0-9]{1,3}$',
    '^(\\d{1,3}){4}$',
    '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?)?$',
    '^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$',
    // ordinary patterns
    '^\\p{L}+$',
    '^(?<year>\\d{4})-\\d{2}$',
    '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$',
    '^https?://[^\\s/$.?#].[^\\s]*$',
    '^#?([a-f0-9]{6}|[a-f0-9]{3})$',
    '^\\+?[1-9]\\d{1,14}$',
    '^[\\u{1F600}-\\u{1F64F}]+$',
    '(?=a+)b',
    '\\S',
  ])('accepts %s', (pattern) => {
    expect(findCatastrophicBacktracking(pattern)).toBeUndefined();
  });

  it('every pattern in the bundled and fixture groups is accepted', async () => {
    const registry = await loadRegistry({ dirs: ['schemas', 'test/fixtures/groups/valid'] });
    expect(registry.diagnostics.filter((d) => d.code === 'INVALID_PATTERN')).toEqual([]);
  });

  it('the analysis never throws, whatever the pattern (fuzz)', async () => {
    const patternText = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.stringMatching(/^[()|*+?{}\d,a\\[\]^$.-]{0,30}$/),
    );
    await assertProperty(
      'redos: analysis of random patterns',
      fc.property(patternText, (pattern) => {
        const result = findCatastrophicBacktracking(pattern);
        expect(result === undefined || typeof result.reason === 'string').toBe(true);
      }),
      500,
    );
  });
});
