import { describe, expect, it } from 'vitest';
import {
  checkPropertyNames,
  type PropertyNameRule,
} from '../../src/json-schema/check-property-names.js';
import { collect } from './sink.js';

const RULE: PropertyNameRule = {
  pattern: /^[A-Za-z_][A-Za-z0-9_]{0,63}$/,
  allowed: 'identifiers',
  effect: 'the provider refuses it',
};

function check(properties: Record<string, unknown>) {
  const { sink, warnings } = collect();
  checkPropertyNames(properties, '/properties', RULE, sink);
  return warnings();
}

describe('checkPropertyNames', () => {
  it('passes names the rule accepts', () => {
    expect(check({ id: {}, _x: {}, Name2: {} })).toEqual([]);
  });

  it('names the key, the pattern, the effect and a fix, at an escaped pointer', () => {
    const [warning] = check({ 'a/b~c': {} });
    expect(warning).toMatchObject({
      code: 'PARAMETER_NAME_INVALID',
      pointer: '/properties/a~1b~0c',
    });
    expect(warning!.message).toBe(
      'property name "a/b~c" does not match ^[A-Za-z_][A-Za-z0-9_]{0,63}$ (identifiers): the provider refuses it. Rename the property in input_schema and in the handler that reads it (e.g. to "a_b_c"); toolcap does not rename parameters, because that would change the arguments the handler receives (at /properties/a~1b~0c)',
    );
  });

  it.each([
    ['2fa code', '_2fa_code'],
    ['café', 'cafe'],
    ['--x--', 'x'],
    ['x'.repeat(80), 'x'.repeat(64)],
  ])('suggests %j → %j', (name, suggestion) => {
    expect(check({ [name]: {} })[0]!.message).toContain(`(e.g. to "${suggestion}")`);
  });

  it('suggests nothing when no letter or digit is left', () => {
    expect(check({ 日本: {} })[0]!.message).toContain(
      'Rename the property in input_schema and in the handler that reads it; toolcap',
    );
  });
});
