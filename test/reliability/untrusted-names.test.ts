import { describe, expect, it } from 'vitest';
import { TranslationError } from '../../src/errors/translation-error.js';
import { compileSchema } from '../../src/json-schema/compile-schema.js';
import { PROVIDER_IDS } from '../../src/providers/provider-types.js';
import { translate } from '../../src/providers/translate.js';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import type { Registry } from '../../src/toolcap/registry.js';
import { createTempDir } from '../helpers/temp-files.js';
import { checkPayload } from '../providers/conformance/check-payload.js';
import { diffPrototypes, snapshotPrototypes } from './prototype-guard.js';
import { registryProblems } from './registry-invariants.js';

/**
 * Group files written as raw JSON text: `JSON.parse` turns `"__proto__"` into an own key (as
 * the loader sees it), while an object literal `{ __proto__: ... }` would set the prototype.
 */
const POLLUTER = '{"polluted": true, "isAdmin": true, "type": "string"}';

const schemaText = `{
  "type": "object",
  "__proto__": ${POLLUTER},
  "properties": {
    "constructor": { "type": "string", "enum": ["__proto__", "constructor", "prototype"] },
    "prototype": { "$ref": "#/$defs/__proto__" },
    "toString": { "type": "string", "pattern": "^__proto__$" },
    "valueOf": { "type": "object", "properties": { "__defineGetter__": { "type": "string" } } }
  },
  "required": ["constructor", "prototype"],
  "$defs": {
    "__proto__": { "type": "object", "properties": { "constructor": { "type": "string" } } }
  }
}`;

function toolText(name: string): string {
  return `{
    "name": "${name}",
    "description": "Tool called ${name}.",
    "category": "analysis",
    "tags": ["__proto__", "constructor"],
    "annotations": { "__proto__": ${POLLUTER}, "readOnlyHint": true },
    "examples": [{ "__proto__": { "polluted": true }, "constructor": "prototype" }],
    "x-extension": { "__proto__": ${POLLUTER} },
    "input_schema": ${schemaText},
    "metadata": {
      "executor": "dangerous",
      "requires_context": ["__proto__", "constructor"],
      "__proto__": ${POLLUTER}
    }
  }`;
}

function groupText(group: string, strategy: string, toolNames: readonly string[]): string {
  return `{
    "__proto__": ${POLLUTER},
    "group": "${group}",
    "version": "1.0.0",
    "description": "Names that look like object internals.",
    "selection": {
      "strategy": "${strategy}",
      "keywords": ["__proto__", "constructor", "prototype", "hasOwnProperty"],
      "__proto__": ${POLLUTER}
      ${strategy === 'context' ? ', "context_check": "__proto__"' : ''}
    },
    "tools": [${toolNames.map(toolText).join(',')}]
  }`;
}

/** Handlers exported under the dangerous names; each echoes what it received. */
const HANDLER = `
function echo(input, context) {
  return { input, own: Object.keys(input), contextKeys: Object.keys(context) };
}
export { echo as __proto__, echo as constructor, echo as prototype, echo as safe_tool };
`;

const CONTEXT_CHECKS = Object.defineProperty({}, '__proto__', {
  value: (context: Readonly<Record<string, unknown>>) => Object.hasOwn(context, '__proto__'),
  enumerable: true,
});

async function loadDangerousRegistry(): Promise<Registry> {
  const dir = createTempDir({
    // "constructor" and "prototype" are valid group names; "__proto__" is not (not snake_case)
    'constructor_tools.json': groupText('constructor', 'keyword', [
      '__proto__',
      'constructor',
      'prototype',
    ]),
    'prototype_tools.json': groupText('prototype', 'context', ['safe_tool']),
    '__proto___tools.json': groupText('__proto__', 'always', ['other_tool']),
    'handlers/dangerous.js': HANDLER,
  });
  return loadRegistry({
    dirs: [dir],
    cwd: dir,
    handlers: ['handlers'],
    dataDir: `${dir}/data`,
    contextChecks: CONTEXT_CHECKS,
    pins: JSON.parse('{"__proto__": "^1.0.0", "constructor": "^1.0.0"}') as Record<string, string>,
  });
}

describe('untrusted names and keys never reach an object prototype', () => {
  it('loading files full of __proto__, constructor and prototype keys', async () => {
    const before = snapshotPrototypes();
    const registry = await loadDangerousRegistry();
    expect(diffPrototypes(before)).toEqual([]);
    expect(registryProblems(registry)).toEqual([]);

    // dangerous tool names are valid names: they are real tools, found through a Map
    expect(registry.list().map((tool) => tool.name)).toEqual([
      '__proto__',
      'constructor',
      'prototype',
      'safe_tool',
    ]);
    expect(registry.get('__proto__')?.group).toBe('constructor');
    expect(registry.get('constructor')?.name).toBe('constructor');
    expect(registry.group('constructor')?.tools).toEqual(['__proto__', 'constructor', 'prototype']);
    expect(registry.get('toString')).toBeUndefined();
    expect(registry.get('hasOwnProperty')).toBeUndefined();
    expect(registry.group('__proto__')).toBeUndefined();
    expect(registry.group('toString')).toBeUndefined();

    // "__proto__" stays an own key of the loaded schema, and its prototype is Object.prototype
    const schema = registry.get('constructor')!.input_schema;
    expect(Object.getPrototypeOf(schema)).toBe(Object.prototype);
    const properties = schema.properties as Record<string, unknown>;
    expect(Object.keys(properties)).toEqual(['constructor', 'prototype', 'toString', 'valueOf']);
    expect(Object.hasOwn(schema, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(Object.hasOwn(registry.get('constructor')!.annotations!, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(registry.get('constructor')!.annotations)).toBe(Object.prototype);

    // the "__proto__" group name is rejected as not snake_case, with a diagnostic
    expect(
      registry.diagnostics.filter(
        (diagnostic) => diagnostic.severity === 'error' && diagnostic.code !== 'UNSATISFIED_PIN',
      ),
    ).toEqual([
      expect.objectContaining({ code: 'INVALID_GROUP_NAME', file: '__proto___tools.json' }),
    ]);
  });

  it('a registry without such tools answers undefined for every inherited name', () => {
    const registry = createRegistry();
    for (const name of ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf']) {
      expect(registry.get(name)).toBeUndefined();
      expect(registry.has(name)).toBe(false);
      expect(registry.group(name)).toBeUndefined();
    }
  });

  it('register() of a group parsed from such text', () => {
    const before = snapshotPrototypes();
    const registry = createRegistry().register(
      JSON.parse(groupText('constructor', 'always', ['__proto__', 'prototype'])),
    );
    expect(registry.list().map((tool) => tool.name)).toEqual(['__proto__', 'prototype']);
    expect(diffPrototypes(before)).toEqual([]);
  });

  it('selecting and searching with such messages, context keys and history', async () => {
    const registry = await loadDangerousRegistry();
    const before = snapshotPrototypes();
    const context = JSON.parse(
      `{"__proto__": ${POLLUTER}, "constructor": "x", "prototype": {"polluted": true}}`,
    ) as Record<string, unknown>;
    const message = 'call __proto__ and the constructor with the prototype, hasOwnProperty';
    const selection = registry.select(message, {
      context,
      history: ['__proto__', { tool: '__proto__' }, { tool: 'constructor' }, { message }],
      fallback: { k: 3 },
      typoTolerance: true,
    });
    expect(selection.names).toEqual(
      expect.arrayContaining(['__proto__', 'constructor', 'prototype', 'safe_tool']),
    );
    // the context check saw the own "__proto__" key, so the context group is in
    expect(selection.tools.find((tool) => tool.name === 'safe_tool')?.reason.strategy).toBe(
      'context',
    );
    // without the context keys, requires_context drops the tools: "__proto__" is never inherited
    const bare = registry.select(message, { context: {} });
    expect(bare.names).toEqual([]);
    expect(
      registry.search('__proto__ constructor prototype toString').map((hit) => hit.name),
    ).toEqual(expect.arrayContaining(['__proto__', 'constructor']));
    registry.select('toString valueOf __defineGetter__', { context });
    expect(diffPrototypes(before)).toEqual([]);
  });

  const translations = [
    ...PROVIDER_IDS.map((provider) => ({ provider, options: {} })),
    // not strict: OpenAI schemas keep unknown keywords, such as a root "__proto__"
    { provider: 'openai' as const, options: { strict: false } },
    { provider: 'openai-responses' as const, options: { strict: false } },
  ];
  it.each(translations)('translating such schemas for $provider $options', async ({
    provider,
    options,
  }) => {
    const registry = await loadDangerousRegistry();
    const before = snapshotPrototypes();
    let payload: unknown;
    try {
      payload = translate(registry.list(), provider, options).payload;
    } catch (error) {
      // a rejection must be a specific TranslationError, never a crash
      expect(error).toBeInstanceOf(TranslationError);
    }
    expect(diffPrototypes(before)).toEqual([]);
    if (payload === undefined) return;
    expect(checkPayload(provider, payload)).toEqual([]);
    // "__proto__" keys stay own keys (or are dropped with a warning): they never become the
    // prototype of a translated schema
    for (const object of objectsIn(payload)) {
      expect([Object.prototype, Array.prototype, null]).toContain(Object.getPrototypeOf(object));
    }
  });

  it('executing with such inputs and context', async () => {
    const registry = await loadDangerousRegistry();
    const before = snapshotPrototypes();
    // "__proto__" is not a declared property: the schema allows extra keys, so it arrives as an
    // own key, never as the prototype of the handler's input
    const input = JSON.parse(
      `{"__proto__": {"polluted": true}, "constructor": "prototype", "prototype": {"constructor": "x"}}`,
    ) as Record<string, unknown>;
    const context = JSON.parse(`{"__proto__": ${POLLUTER}, "constructor": "x"}`) as Record<
      string,
      unknown
    >;
    for (const name of ['__proto__', 'constructor', 'prototype']) {
      const result = await registry.execute(name, input, context);
      expect(result.ok, JSON.stringify(result)).toBe(true);
      if (result.ok) {
        const output = result.output as { own: string[]; contextKeys: string[] };
        expect(output.own).toEqual(['__proto__', 'constructor', 'prototype']);
        expect(output.contextKeys).toEqual(expect.arrayContaining(['__proto__', 'constructor']));
      }
    }
    // a missing own "prototype" is missing: nothing inherited satisfies "required", and an
    // inherited toString or valueOf is not validated as if the model had sent it
    const missing = await registry.execute('constructor', { constructor: 'prototype' }, context);
    expect(missing.ok).toBe(false);
    if (!missing.ok) {
      expect(missing.error.details).toEqual([
        expect.objectContaining({ pointer: '/prototype', keyword: 'required' }),
      ]);
    }
    // and context keys are never inherited either
    const noContext = await registry.execute('constructor', input, {});
    expect(noContext.ok).toBe(false);
    expect(diffPrototypes(before)).toEqual([]);
  });

  it('validation looks at own properties only (constructor, toString are not inherited inputs)', () => {
    const validate = compileSchema(
      JSON.parse(
        '{"type":"object","properties":{"constructor":{"type":"string"},"toString":{"type":"string"}},"required":["constructor"]}',
      ),
    );
    const before = snapshotPrototypes();
    // before the fix, {} passed "required" (constructor is inherited) and toString failed "type"
    expect(validate({})).toEqual({
      valid: false,
      issues: [expect.objectContaining({ pointer: '/constructor', keyword: 'required' })],
    });
    expect(validate(JSON.parse('{"constructor": "x"}')).valid).toBe(true);
    expect(validate(JSON.parse('{"constructor": 1}')).valid).toBe(false);
    expect(diffPrototypes(before)).toEqual([]);
  });

  it('rejects "__proto__" as a property name or patternProperties key: validators skip it', async () => {
    const dir = createTempDir({
      'proto_tools.json': `{
        "group": "proto", "version": "1.0.0", "description": "d",
        "selection": { "strategy": "always" },
        "tools": [{
          "name": "proto_tool", "description": "d", "category": "analysis",
          "input_schema": {
            "type": "object",
            "properties": { "__proto__": { "type": "string" } },
            "patternProperties": { "__proto__": { "type": "string" } }
          },
          "metadata": { "executor": "x" }
        }]
      }`,
    });
    const registry = await loadRegistry({ dirs: [dir], cwd: dir });
    expect(registry.size).toBe(0);
    expect(registry.diagnostics).toEqual([
      expect.objectContaining({
        code: 'INVALID_SCHEMA',
        pointer: '/tools/0/input_schema/properties/__proto__',
        message: expect.stringContaining('would never be validated'),
        line: 8,
      }),
      expect.objectContaining({
        code: 'INVALID_SCHEMA',
        pointer: '/tools/0/input_schema/patternProperties/__proto__',
      }),
    ]);
  });
});

/** Every object and array inside `value`, without recursion. */
function objectsIn(value: unknown): object[] {
  const found: object[] = [];
  const stack = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === null || typeof current !== 'object') continue;
    found.push(current);
    for (const key of Object.keys(current)) stack.push((current as Record<string, unknown>)[key]);
  }
  return found;
}
