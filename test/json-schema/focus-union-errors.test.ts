import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../src/format/types.js';
import { compileSchema } from '../../src/json-schema/compile-schema.js';
import { createRegistry } from '../../src/toolcap/create-registry.js';

// what zod 4 writes for z.discriminatedUnion('kind', [...]) (oneOf, a const kind per branch)
const target = {
  oneOf: [
    {
      type: 'object',
      properties: { kind: { type: 'string', const: 'email' }, address: { type: 'string' } },
      required: ['kind', 'address'],
    },
    {
      type: 'object',
      properties: { kind: { type: 'string', const: 'sms' }, phone: { type: 'string' } },
      required: ['kind', 'phone'],
    },
    {
      type: 'object',
      properties: {
        kind: { type: 'string', const: 'slack' },
        channel: { type: 'string', pattern: '^#' },
      },
      required: ['kind', 'channel'],
    },
  ],
};
const notify: JsonSchema = {
  type: 'object',
  properties: { target, message: { type: 'string' } },
  required: ['target', 'message'],
};

function issuesOf(schema: JsonSchema, value: unknown) {
  const result = compileSchema(schema)(value);
  return result.valid ? [] : result.issues;
}

describe('union errors', () => {
  it('report only the branch the discriminating property picks, with a note naming it', () => {
    expect(
      issuesOf(notify, { target: { kind: 'slack', channel: 'general' }, message: 'hi' }),
    ).toEqual([
      {
        pointer: '/target/channel',
        keyword: 'pattern',
        message: '/target/channel must match the pattern "^#"',
      },
      {
        pointer: '/target',
        keyword: 'oneOf',
        message: '/target was checked as the variant for kind "slack"',
      },
    ]);
  });

  it('list the variants once when the property picks none', () => {
    const variants =
      '/target must match one of its variants, told apart by "kind": "email", "sms" or "slack"';
    const expectOne = (value: unknown, found: string) =>
      expect(issuesOf(notify, { target: value, message: 'hi' })).toEqual([
        { pointer: '/target', keyword: 'oneOf', message: `${variants}; ${found}` },
      ]);
    expectOne({ kind: 'fax', number: '1' }, '"kind" is "fax"');
    expectOne({ channel: '#general' }, '"kind" is missing');
    expectOne('#general', 'it is of type string, not an object');
  });

  it('work for anyOf, enum values and branches behind a $ref; names the root as the subject', () => {
    const schema: JsonSchema = {
      type: 'object',
      $defs: {
        card: {
          type: 'object',
          properties: { method: { enum: ['visa', 'amex'] }, number: { type: 'string' } },
          required: ['method', 'number'],
        },
        transfer: {
          type: 'object',
          properties: { method: { const: 'iban' }, iban: { type: 'string' } },
          required: ['method', 'iban'],
        },
      },
      anyOf: [{ $ref: '#/$defs/card' }, { $ref: '#/$defs/transfer' }],
    };
    expect(issuesOf(schema, { method: 'amex' })).toEqual([
      { pointer: '/number', keyword: 'required', message: 'missing required property "number"' },
      {
        pointer: '',
        keyword: 'anyOf',
        message: 'input was checked as the variant for method "amex"',
      },
    ]);
    expect(issuesOf(schema, { method: 'cash' })).toEqual([
      {
        pointer: '',
        keyword: 'anyOf',
        message:
          'input must match one of its variants, told apart by "method": "visa", "amex" or "iban"; "method" is "cash"',
      },
    ]);
  });

  it('keep errors outside the union and leave unions with no discriminating property alone', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        target,
        count: { type: 'integer' },
        id: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
      },
    };
    expect(
      issuesOf(schema, { target: { kind: 'sms' }, count: 'x', id: true }).map(
        (issue) => issue.message,
      ),
    ).toEqual([
      'missing required property "phone" in /target',
      '/target was checked as the variant for kind "sms"',
      '/count must be integer',
      '/id must be string',
      '/id must be integer',
      '/id must match a schema in anyOf',
    ]);
  });

  it('is what a model reads in INVALID_INPUT', async () => {
    const registry = createRegistry().register({
      group: 'notify',
      version: '1.0.0',
      description: 'Notifications.',
      selection: { strategy: 'always' },
      tools: [
        {
          name: 'notify',
          description: 'Send a notification over a channel.',
          category: 'creation',
          input_schema: notify,
          metadata: { executor: 'notify' },
        },
      ],
    });
    const result = await registry.execute('notify', {
      target: { kind: 'slack', channel: 'general' },
      message: 'hi',
    });
    expect(result.ok === false && result.error.message).toBe(
      'Invalid input for tool "notify": /target/channel must match the pattern "^#"; /target was checked as the variant for kind "slack". Fix these arguments and call the tool again.',
    );
  });
});
