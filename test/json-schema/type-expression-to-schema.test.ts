import { describe, expect, it } from 'vitest';
import { compileSchema } from '../../src/json-schema/compile-schema.js';
import { typeExpressionToSchema } from '../../src/json-schema/type-expression-to-schema.js';

const ANY_JSON = {
  type: ['string', 'number', 'boolean', 'object', 'array', 'null'],
  items: { allOf: [{}] },
};

function schemaOf(text: string): unknown {
  const result = typeExpressionToSchema(text);
  if ('problem' in result) throw new Error(`${text}: ${result.problem}`);
  return result.schema;
}

function problemOf(text: string): string | undefined {
  const result = typeExpressionToSchema(text);
  return 'problem' in result ? result.problem : undefined;
}

describe('typeExpressionToSchema', () => {
  it.each([
    ['str', { type: 'string' }],
    ['int', { type: 'integer' }],
    ['float', { type: 'number' }],
    ['bool', { type: 'boolean' }],
    ['dict', { type: 'object' }],
    ['list', { type: 'array' }],
    ['None', { type: 'null' }],
    ['Any', ANY_JSON],
    ['unknown', ANY_JSON],
    ["<class 'int'>", { type: 'integer' }],
    ['typing.Any', ANY_JSON],
  ])('reads the bare name %s', (text, schema) => {
    expect(schemaOf(text)).toEqual(schema);
  });

  it.each([
    ['list[str]', { type: 'array', items: { type: 'string' } }],
    ['List[int]', { type: 'array', items: { type: 'integer' } }],
    ['typing.List[int]', { type: 'array', items: { type: 'integer' } }],
    ['list[dict]', { type: 'array', items: { type: 'object' } }],
    ['Sequence[float]', { type: 'array', items: { type: 'number' } }],
    ['set[str]', { type: 'array', items: { type: 'string' } }],
    ['tuple[int, ...]', { type: 'array', items: { type: 'integer' } }],
    ['tuple[float, float]', { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 }],
    [
      'tuple[int, str]',
      { type: 'array', items: { type: ['integer', 'string'] }, minItems: 2, maxItems: 2 },
    ],
    ['list[Any]', { type: 'array', items: ANY_JSON }],
    ['list[list[int]]', { type: 'array', items: { type: 'array', items: { type: 'integer' } } }],
  ])('reads the array spelling %s', (text, schema) => {
    expect(schemaOf(text)).toEqual(schema);
  });

  it.each([
    ['dict[str, Any]', { type: 'object' }],
    ['Dict[str, int]', { type: 'object', additionalProperties: { type: 'integer' } }],
    [
      'Mapping[str, list[str]]',
      {
        type: 'object',
        additionalProperties: { type: 'array', items: { type: 'string' } },
      },
    ],
    ['Record<string, number>', { type: 'object', additionalProperties: { type: 'number' } }],
  ])('reads the map spelling %s', (text, schema) => {
    expect(schemaOf(text)).toEqual(schema);
  });

  it.each([
    ['Optional[int]', { type: ['integer', 'null'] }],
    ['int | None', { type: ['integer', 'null'] }],
    ['Union[int, float, None]', { type: ['number', 'null'] }],
    ['Union[str, list[str]]', { type: ['string', 'array'], items: { type: 'string' } }],
    ['Optional[list[str]]', { type: ['array', 'null'], items: { type: 'string' } }],
    ['dict[str, Any] | None', { type: ['object', 'null'] }],
    ['Optional[Any]', ANY_JSON],
    ['str | None | None', { type: ['string', 'null'] }],
    [
      'Union[list[int], list[str]]',
      {
        anyOf: [
          { type: 'array', items: { type: 'integer' } },
          { type: 'array', items: { type: 'string' } },
        ],
      },
    ],
  ])('reads the union %s', (text, schema) => {
    expect(schemaOf(text)).toEqual(schema);
  });

  it.each([
    ["Literal['metric', 'imperial']", { type: 'string', enum: ['metric', 'imperial'] }],
    ['Literal["a", "b"]', { type: 'string', enum: ['a', 'b'] }],
    ['Literal[1, 2, 3]', { type: 'integer', enum: [1, 2, 3] }],
    ['Literal[1, 2.5]', { type: 'number', enum: [1, 2.5] }],
    ["Literal['auto', 0]", { type: ['string', 'integer'], enum: ['auto', 0] }],
    ['Literal[True]', { type: 'boolean', enum: [true] }],
    [
      "Optional[Literal['open', 'shipped']]",
      { type: ['string', 'null'], enum: ['open', 'shipped', null] },
    ],
    ["Literal['it\\'s']", { type: 'string', enum: ["it's"] }],
    ["'a' | 'b'", { type: 'string', enum: ['a', 'b'] }],
    ["Literal['auto'] | int", { anyOf: [{ type: 'string', enum: ['auto'] }, { type: 'integer' }] }],
  ])('reads the literal %s as an enum', (text, schema) => {
    expect(schemaOf(text)).toEqual(schema);
  });

  it.each([
    ['string[]', { type: 'array', items: { type: 'string' } }],
    ['number[][]', { type: 'array', items: { type: 'array', items: { type: 'number' } } }],
    ['Array<number>', { type: 'array', items: { type: 'number' } }],
    ['ReadonlyArray<boolean>', { type: 'array', items: { type: 'boolean' } }],
    ['(string | number)[]', { type: 'array', items: { type: ['string', 'number'] } }],
    ['string | null', { type: ['string', 'null'] }],
    [
      "Optional[list[Literal['price', 'volume']]]",
      {
        type: ['array', 'null'],
        items: { type: 'string', enum: ['price', 'volume'] },
      },
    ],
  ])('reads the TypeScript spelling %s', (text, schema) => {
    expect(schemaOf(text)).toEqual(schema);
  });

  it('gives schemas that validate what the type accepts', () => {
    const check = (text: string, value: unknown) =>
      compileSchema(schemaOf(text) as Record<string, unknown>)(value).valid;
    expect(check('Union[int, float, None]', 2.5)).toBe(true);
    expect(check('Union[int, float, None]', null)).toBe(true);
    expect(check('Union[int, float, None]', '2')).toBe(false);
    expect(check("Optional[Literal['a', 'b']]", null)).toBe(true);
    expect(check("Optional[Literal['a', 'b']]", 'c')).toBe(false);
    expect(check('dict[str, Any]', { source: 'crm', n: [1, { x: null }] })).toBe(true);
    expect(check('Any', [[1, 'a'], { b: [] }])).toBe(true);
  });

  it.each([
    ['widget', '"widget" is not a type name toolcap knows'],
    ['list[widget]', '"widget" is not a type name toolcap knows'],
    [
      "Annotated[int, 'positive']",
      '"Annotated[...]" is not a generic type toolcap knows (it reads list, set, tuple, dict, Optional, Union, Literal, Array and Record, with their typing names)',
    ],
    ['dict[str]', '"dict" takes 2 type arguments, not 1'],
    ['list[int, str]', '"list" takes 1 type argument, not 2'],
    ['Literal[int]', 'Literal takes values (strings, numbers, True, False, None), not types'],
    ['list[int', '"]" is missing at the end'],
    ['list[int]]', 'the end was expected at character 10, not "]"'],
    ['int |', 'a type is missing at the end'],
    ['int & str', '"&" at character 5 is not part of a type'],
    ['list[...]', '"..." is read only as the last argument of tuple, not in list'],
    ['tuple[..., int]', '"..." is read only as tuple[X, ...], the second of two arguments'],
    ['', 'a type is missing at the end'],
  ])('refuses %j, naming what cannot be read', (text, problem) => {
    expect(problemOf(text)).toBe(problem);
  });

  it('refuses an expression nested too deep instead of overflowing the stack', () => {
    expect(problemOf(`${'list['.repeat(40)}int${']'.repeat(40)}`)).toBe(
      'it nests deeper than 32 levels',
    );
  });
});
