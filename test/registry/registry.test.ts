import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ToolcapError } from '../../src/errors/toolcap-error.js';
import { RegistryLoadError } from '../../src/load/registry-load-error.js';
import type { FallbackTool } from '../../src/registry/fallback-tools.js';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';

const SCHEMAS = join(import.meta.dirname, '../../schemas');

describe('Registry lookups', () => {
  it('gets, lists and groups tools in catalog order', async () => {
    const registry = await loadRegistry({ dirs: [SCHEMAS] });
    expect(registry.size).toBe(16);
    expect(registry.get('get_agenda')).toMatchObject({
      name: 'get_agenda',
      group: 'calendar',
      version: '1.1.1',
      category: 'retrieval',
      source: 'json',
      pointer: '/tools/1',
      metadata: { executor: 'calendar', requires_context: ['user_id'] },
    });
    expect(registry.has('get_agenda')).toBe(true);
    expect(registry.get('no_such_tool')).toBeUndefined();
    expect(registry.list({ group: 'tasks' }).map((tool) => tool.name)).toEqual([
      'add_task',
      'list_tasks',
      'complete_task',
    ]);
    expect(registry.list({ category: 'analysis' }).map((tool) => tool.name)).toEqual([
      'search_journals',
      'search_project_docs',
    ]);
    expect(registry.group('files')?.tools).toEqual(['file_read', 'file_edit']);
    expect(registry.group('files')?.selection).toEqual({
      strategy: 'keyword',
      keywords: [
        'file',
        'path',
        'directory',
        'folder',
        'replace',
        'source code',
        'config',
        'node.js',
        'c++',
      ],
    });
  });

  it('never resolves prototype members as tools or groups', async () => {
    const registry = await loadRegistry({ dirs: [SCHEMAS] });
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'prototype']) {
      expect(registry.get(name)).toBeUndefined();
      expect(registry.has(name)).toBe(false);
      expect(registry.group(name)).toBeUndefined();
    }
  });
});

describe('Registry.register', () => {
  it('returns a new snapshot with the group and leaves the old one unchanged', () => {
    const empty = createRegistry();
    const registry = empty.register(
      makeGroup('alpha', { tools: [makeTool({ name: 'alpha_tool' })] }),
    );
    expect(empty.size).toBe(0);
    expect(registry.get('alpha_tool')).toMatchObject({
      group: 'alpha',
      version: '1.0.0',
      source: 'registered',
      index: 0,
    });
    expect(registry.groups().map((group) => group.group)).toEqual(['alpha']);
    const more = registry.register(makeGroup('beta', { tools: [makeTool({ name: 'beta_tool' })] }));
    expect(more.list().map((tool) => [tool.name, tool.index])).toEqual([
      ['alpha_tool', 0],
      ['beta_tool', 1],
    ]);
    expect(more.migrationStatus().jsonOnly).toEqual(['alpha_tool', 'beta_tool']);
  });

  it('registers every field of a tool as a plain frozen object, in a fixed key order', async () => {
    const full = makeTool({
      name: 'full_tool',
      title: 'Full tool',
      tags: ['a', 'b'],
      annotations: { readOnlyHint: true },
      output_schema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      input_schema: { type: 'object', properties: { q: { type: 'string' } } },
      examples: [{ q: 'x' }],
    });
    const bare = makeTool({ name: 'bare_tool' });
    const dir = createTempDir({
      'alpha_tools.json': makeGroup('alpha', { tools: [full, bare] }),
    });
    const registry = await loadRegistry({ dirs: [dir] });
    const tool = registry.get('full_tool')!;
    const { group, version, source, pointer, index, file, ...definition } = tool;
    expect(definition).toEqual(full);
    expect({ group, version, source, pointer, index }).toEqual({
      group: 'alpha',
      version: '1.0.0',
      source: 'json',
      pointer: '/tools/0',
      index: 0,
    });
    expect(file).toBe(join(dir, 'alpha_tools.json'));
    // the fields every tool has, the optional ones in the order validation adds them, the file
    const always = ['name', 'description', 'category', 'input_schema', 'metadata', 'group'];
    const place = ['version', 'source', 'pointer', 'index'];
    const optional = ['output_schema', 'title', 'annotations', 'tags', 'examples'];
    expect(Object.keys(tool)).toEqual([...always, ...place, ...optional, 'file']);
    expect(Object.keys(registry.get('bare_tool')!)).toEqual([...always, ...place, 'file']);
    expect(Object.getPrototypeOf(tool)).toBe(Object.prototype);
    expect(Object.isFrozen(tool)).toBe(true);
  });

  it('rejects values no group file could hold, each at its pointer (NOT_JSON_VALUE)', () => {
    const caught = (group: unknown): RegistryLoadError => {
      try {
        createRegistry().register(group);
      } catch (error) {
        expect(error).toBeInstanceOf(RegistryLoadError);
        return error as RegistryLoadError;
      }
      throw new Error('register() accepted the group');
    };
    const bigint = caught({
      group: 'big',
      version: '1.0.0',
      description: 'd',
      selection: { strategy: 'always' },
      tools: [
        {
          name: 'b',
          description: 'x',
          category: 'retrieval',
          input_schema: { type: 'object', properties: { n: { type: 'integer', default: 10n } } },
          metadata: { executor: 'e' },
        },
      ],
    });
    expect(bigint.message).toBe(
      'register() rejected the group: it holds values JSON cannot (1 error(s)):\n  <register>: error NOT_JSON_VALUE default is a BigInt (10n), which JSON cannot hold; write it as a number (10) or a string ("10") (at /tools/0/input_schema/properties/n/default)',
    );

    class Point {
      x = 1;
    }
    const looped: Record<string, unknown> = { type: 'object' };
    looped.properties = { self: looped };
    const schema = (properties: Record<string, unknown>) => ({ type: 'object', properties });
    const odd = caught(
      makeGroup('odd', {
        tools: [
          makeTool({
            name: 'a',
            input_schema: schema({
              f: { type: 'string', default: () => 'x' },
              s: { type: 'string', default: Symbol('s') },
              n: { type: 'number', default: Number.NaN },
              i: { type: 'number', maximum: Number.POSITIVE_INFINITY },
              e: { type: 'string', enum: ['a', undefined] },
              d: { type: 'string', default: new Date(0) },
              m: { type: 'object', default: new Map() },
              p: { type: 'object', default: new Point() },
              ok: { type: 'string', description: undefined },
            }),
          }),
          makeTool({ name: 'b', input_schema: looped }),
        ],
      }),
    );
    expect(odd.diagnostics.map(({ code, pointer, message }) => [code, pointer, message])).toEqual([
      [
        'NOT_JSON_VALUE',
        '/tools/0/input_schema/properties/f/default',
        'default is a function, which JSON cannot hold; give the value itself (a group is data, as in a group file)',
      ],
      [
        'NOT_JSON_VALUE',
        '/tools/0/input_schema/properties/s/default',
        'default is a symbol (Symbol(s)), which JSON cannot hold; use a string',
      ],
      [
        'NOT_JSON_VALUE',
        '/tools/0/input_schema/properties/n/default',
        'default is NaN, which JSON cannot hold; write a finite number, or null',
      ],
      [
        'NOT_JSON_VALUE',
        '/tools/0/input_schema/properties/i/maximum',
        'maximum is Infinity, which JSON cannot hold; write a finite number, or null',
      ],
      [
        'NOT_JSON_VALUE',
        '/tools/0/input_schema/properties/e/enum/1',
        'enum/1 is undefined (or an array hole), which JSON cannot hold (it would become null); remove the entry, or write null',
      ],
      [
        'NOT_JSON_VALUE',
        '/tools/0/input_schema/properties/d/default',
        'default is a Date, which JSON cannot hold as such; write the date as a string (date.toISOString())',
      ],
      [
        'NOT_JSON_VALUE',
        '/tools/0/input_schema/properties/m/default',
        'default is a Map, which JSON cannot hold; use a plain object (Object.fromEntries(map))',
      ],
      [
        'NOT_JSON_VALUE',
        '/tools/0/input_schema/properties/p/default',
        'default is an instance of Point, not a plain object or array, which JSON cannot hold as such; give a plain object or array with the same data',
      ],
      [
        'NOT_JSON_VALUE',
        '/tools/1/input_schema/properties/self',
        'self is the object that contains it (a circular reference), which JSON cannot hold; give a copy, or in a schema refer to it with "$ref"',
      ],
    ]);
  });

  it('treats a schema key set to undefined as absent, as JSON.stringify does', () => {
    const registry = createRegistry().register(
      makeGroup('undefs', {
        tools: [
          makeTool({
            name: 'a',
            input_schema: {
              type: 'object',
              properties: { n: { type: 'integer', default: undefined, format: undefined } },
            },
          }),
        ],
      }),
    );
    expect(registry.diagnostics).toEqual([]);
    for (const provider of ['openai', 'google'] as const) {
      const { payload, warnings } = registry.translate(registry.list(), provider);
      expect(JSON.stringify(payload)).not.toContain('undefined');
      expect(warnings).toEqual([]);
    }
  });

  it('wraps a group whose reading throws in a RegistryLoadError', () => {
    const throwing = makeGroup('getter');
    Object.defineProperty(throwing, 'description', {
      enumerable: true,
      get: () => {
        throw new Error('boom');
      },
    });
    expect(() => createRegistry().register(throwing)).toThrow(
      'register() rejected the group: it holds values JSON cannot (1 error(s)):\n  <register>: error NOT_JSON_VALUE the group could not be read: reading it threw (boom); pass plain data, as JSON.parse of a group file gives, not an object whose getters throw or a revoked Proxy',
    );
    const { proxy, revoke } = Proxy.revocable(makeGroup('revoked'), {});
    revoke();
    expect(() => createRegistry().register(proxy)).toThrow(RegistryLoadError);
    expect(() => createRegistry().register({ ...makeGroup('nested'), tools: [proxy] })).toThrow(
      /NOT_JSON_VALUE tools\/0 could not be read: reading it threw \(Cannot perform 'IsArray' on a proxy that has been revoked\);.* \(at \/tools\/0\)/,
    );
    // a getter that throws only on its second read gets past the check, and is still wrapped
    let reads = 0;
    const flaky = makeGroup('flaky');
    Object.defineProperty(flaky, 'version', {
      enumerable: true,
      get: () => {
        reads += 1;
        if (reads > 1) throw new Error('changed its mind');
        return '1.0.0';
      },
    });
    expect(() => createRegistry().register(flaky)).toThrow(
      'register() could not read the group (1 error(s)):\n  <register>: error NOT_JSON_VALUE reading the group threw (changed its mind); pass plain data, as JSON.parse of a group file gives, not an object whose getters throw or a Proxy',
    );
  });

  it('still takes plain data: shared objects, null-prototype objects, undefined properties', () => {
    const shared = { type: 'string' };
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, {
      type: 'object',
      properties: { a: shared, b: shared },
    });
    const registry = createRegistry().register(
      makeGroup('plain', { tools: [makeTool({ input_schema: bare, title: undefined })] }),
    );
    expect(registry.has('do_thing')).toBe(true);
  });

  it('validates like a file and throws with diagnostics', () => {
    const registry = createRegistry();
    const error = (() => {
      try {
        registry.register(makeGroup('bad', { tools: [makeTool({ name: 'bad name' })] }));
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(RegistryLoadError);
    expect(ToolcapError.isInstance(error)).toBe(true);
    const loadError = error as RegistryLoadError;
    expect(loadError.diagnostics).toMatchObject([
      { code: 'INVALID_TOOL_NAME', file: '<register>', pointer: '/tools/0/name' },
    ]);
    expect(loadError.message).toMatch(
      /register\(\) rejected the group \(1 error\(s\)\):\n {2}<register>: error INVALID_TOOL_NAME tool name "bad name" is invalid/,
    );
    expect(() => registry.register('not an object')).toThrow(/ROOT_NOT_OBJECT/);
  });

  it('rejects a duplicate group or tool name', () => {
    const registry = createRegistry().register(
      makeGroup('alpha', { tools: [makeTool({ name: 'alpha_tool' })] }),
    );
    expect(() => registry.register(makeGroup('alpha', { version: '2.0.0' }))).toThrow(
      /DUPLICATE_GROUP group "alpha" is already registered \(version 1\.0\.0\)/,
    );
    expect(() =>
      registry.register(makeGroup('beta', { tools: [makeTool({ name: 'alpha_tool' })] })),
    ).toThrow(/DUPLICATE_TOOL tool "alpha_tool" is already defined by group "alpha"/);
  });

  it("takes the registered group into the snapshot, frozen; a copy keeps the caller's object free", () => {
    const tool = makeTool({ name: 'owned', tags: ['search'] });
    const registered = createRegistry().register(makeGroup('owned', { tools: [tool] }));
    expect(registered.get('owned')?.input_schema).toBe(tool.input_schema);
    expect(registered.get('owned')?.tags).toBe(tool.tags);
    expect(Object.isFrozen(tool.input_schema)).toBe(true);
    expect(Object.isFrozen(tool.tags)).toBe(true);

    const mine = makeTool({ name: 'mine', tags: ['search'] });
    const copied = createRegistry().register(structuredClone(makeGroup('mine', { tools: [mine] })));
    expect(copied.get('mine')?.tags).toEqual(['search']);
    expect(Object.isFrozen(mine.input_schema)).toBe(false);
    (mine.tags as string[]).push('changed');
    expect(copied.get('mine')?.tags).toEqual(['search']);
  });

  it('checks context_check names against the registered predicates', () => {
    const registry = createRegistry({ contextChecks: { has_project: () => true } });
    expect(() =>
      registry.register(
        makeGroup('docs', { selection: { strategy: 'context', context_check: 'missing_check' } }),
      ),
    ).toThrow(/UNKNOWN_CONTEXT_CHECK/);
    const ok = registry.register(
      makeGroup('docs', { selection: { strategy: 'context', context_check: 'has_project' } }),
    );
    expect(ok.group('docs')?.selection.context_check).toBe('has_project');
  });
});

describe('fallback (code-defined) tools', () => {
  const fallbackTools: FallbackTool[] = [
    {
      name: 'create_event',
      description: 'Old code version of create_event',
      params: [{ name: 'title', type: 'string', required: true }],
    },
    {
      name: 'send_email',
      description: 'Send an e-mail.',
      handler: 'mailer',
      category: 'creation',
      params: [
        { name: 'to', type: 'string', description: 'Recipient', required: true },
        { name: 'cc', type: 'array', description: 'Copies' },
        { name: 'urgent', type: 'boolean', default: false },
      ],
      execute: (input) => ({ sent: input.to }),
    },
    {
      name: 'ping',
      description: 'Check the service is up.',
      parameters: { type: 'object', properties: {} },
      group: 'health',
    },
  ];

  it('loads JSON first; fallback tools fill the gaps and the migration status says which is which', async () => {
    const registry = await loadRegistry({ dirs: [SCHEMAS], fallbackTools });
    expect(registry.get('create_event')?.source).toBe('json');
    expect(registry.get('create_event')?.description).not.toMatch(/Old code/);
    expect(registry.get('send_email')).toMatchObject({
      source: 'fallback',
      group: 'fallback',
      category: 'creation',
      metadata: { executor: 'mailer' },
      input_schema: {
        type: 'object',
        properties: {
          to: { type: 'string', description: 'Recipient' },
          cc: { type: 'array', description: 'Copies', items: { type: 'string' } },
          urgent: { type: 'boolean', default: false },
        },
        required: ['to'],
      },
    });
    // no category given: inferred from the description's verb ("Check"), as import does
    expect(registry.get('ping')).toMatchObject({
      group: 'health',
      category: 'analysis',
      metadata: { executor: 'health' },
    });
    expect(registry.group('fallback')).toMatchObject({
      source: 'fallback',
      selection: { strategy: 'always' },
      tools: ['send_email'],
    });
    const status = registry.migrationStatus();
    expect(status.both).toEqual(['create_event']);
    expect(status.fallbackOnly).toEqual(['ping', 'send_email']);
    expect(status.jsonOnly).toContain('file_edit');
    expect(status.jsonOnly).not.toContain('create_event');
    expect(registry.settings.fallbackImplementations.has('send_email')).toBe(true);
    expect(registry.diagnostics).toEqual([]);
  });

  it('lets a JSON tool replace the code tool named as its x-original-name says', async () => {
    const dir = createTempDir({
      'mail_tools.json': makeGroup('mail', {
        tools: [
          makeTool({ name: 'send_email', 'x-original-name': 'send-email' }),
          makeTool({ name: 'list_mail', 'x-original-name': 'list.mail' }),
        ],
      }),
    });
    const registry = await loadRegistry({
      dirs: ['.'],
      cwd: dir,
      fallbackTools: [
        { name: 'send-email', description: 'code version', execute: () => 'code' },
        { name: 'archive_mail', description: 'still in code' },
      ],
    });
    expect(registry.diagnostics).toEqual([]);
    expect(registry.list().map((tool) => [tool.name, tool.source])).toEqual([
      ['send_email', 'json'],
      ['list_mail', 'json'],
      ['archive_mail', 'fallback'],
    ]);
    expect(registry.settings.fallbackImplementations.has('send-email')).toBe(false);
    expect(registry.migrationStatus()).toEqual({
      jsonOnly: ['list_mail'],
      fallbackOnly: ['archive_mail'],
      both: ['send_email'],
      renamed: [{ from: 'send-email', to: 'send_email' }],
    });
  });

  it('diagnoses an invalid fallback tool and keeps the others', async () => {
    const registry = createRegistry({
      fallbackTools: [
        { name: 'bad-name', description: 'x' },
        { name: 'typed_badly', description: 'y', params: [{ name: 'a', type: 'widget' }] },
        { name: 'good_one', description: 'z' },
      ],
    });
    expect(registry.list().map((tool) => tool.name)).toEqual(['good_one']);
    expect(
      registry.diagnostics.map((diagnostic) => [
        diagnostic.code,
        diagnostic.file,
        diagnostic.pointer,
      ]),
    ).toEqual([
      ['INVALID_FALLBACK_TOOL', '<fallback>', '/0/name'],
      ['INVALID_FALLBACK_TOOL', '<fallback>', '/1/input_schema/properties/a/type'],
    ]);
    expect(registry.diagnostics[1]?.message).toBe(
      'fallback tool "typed_badly": input_schema/properties/a has type "widget", which is not a JSON Schema type; use one of string, integer, number, boolean, array, object, null (or an array of them)',
    );
  });

  it('refuses a param type spelling it cannot read, as it refuses an unknown type name', () => {
    const registry = createRegistry({
      fallbackTools: [
        { name: 'parts', description: 'y', params: [{ name: 'a', type: 'list[widget]' }] },
      ],
    });
    expect(registry.list()).toEqual([]);
    expect(registry.diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
      'fallback tool "parts": input_schema/properties/a has type "list[widget]", which is not a JSON Schema type; use one of string, integer, number, boolean, array, object, null (or an array of them)',
    ]);
  });

  it('reads Python and TypeScript param types, Any as any JSON, and leaves out *args and **kwargs', async () => {
    const registry = createRegistry({
      fallbackTools: [
        {
          name: 'log_event',
          description: 'Log an event.',
          params: [
            { name: 'names', type: 'list[str]', required: true },
            { name: 'level', type: "Optional[Literal['info', 'error']]" },
            { name: 'counts', type: 'Record<string, number>' },
            { name: 'meta', type: 'Any' },
            { name: '*args', type: 'Any' },
            { name: 'options', type: 'Any', kind: 'VAR_KEYWORD' },
          ],
          execute: (input) => input,
        },
      ],
    });
    expect(registry.diagnostics).toEqual([]);
    expect(registry.get('log_event')?.input_schema).toEqual({
      type: 'object',
      properties: {
        names: { type: 'array', items: { type: 'string' } },
        level: { type: ['string', 'null'], enum: ['info', 'error', null] },
        counts: { type: 'object', additionalProperties: { type: 'number' } },
        meta: {
          type: ['string', 'number', 'boolean', 'object', 'array', 'null'],
          items: { allOf: [{}] },
        },
      },
      required: ['names'],
    });
    const input = { names: ['a'], level: null, counts: { a: 1 }, meta: { source: 'crm' } };
    expect(await registry.execute('log_event', input)).toEqual({ ok: true, output: input });
  });

  it('lists the code tools it could not load as fallback-only, as toolcap migrate status does', () => {
    const registry = createRegistry({
      fallbackTools: [
        { name: 'typed_badly', description: 'y', params: [{ name: 'a', type: 'widget' }] },
        { name: 'no_schema', description: 'x', problem: 'its schema cannot be converted' },
        { name: 'good_one', description: 'z' },
      ],
    });
    expect(registry.list().map((tool) => tool.name)).toEqual(['good_one']);
    expect(registry.migrationStatus()).toEqual({
      jsonOnly: [],
      fallbackOnly: ['good_one', 'no_schema', 'typed_badly'],
      both: [],
      renamed: [],
    });
    // JSON defining one of them later moves it to both
    const registered = registry.register(
      makeGroup('fixed', { tools: [makeTool({ name: 'typed_badly' })] }),
    );
    expect(registered.migrationStatus()).toEqual({
      jsonOnly: [],
      fallbackOnly: ['good_one', 'no_schema'],
      both: ['typed_badly'],
      renamed: [],
    });
  });

  it('loads a code tool with untyped values, typed as toolcap import types them, silently', () => {
    const registry = createRegistry({
      fallbackTools: [
        {
          name: 'count_items',
          description: 'Count items.',
          inputSchema: {
            type: 'object',
            properties: {
              count: { minimum: 0 },
              mode: { enum: [1, 2, 'auto'] },
              anything: {},
              ratio: { type: 'float' },
            },
          },
        },
      ],
    });
    expect(registry.diagnostics).toEqual([]);
    expect(registry.get('count_items')?.input_schema).toEqual({
      type: 'object',
      properties: {
        count: { type: 'number', minimum: 0 },
        mode: { type: ['integer', 'string'], enum: [1, 2, 'auto'] },
        anything: {
          type: ['string', 'number', 'boolean', 'object', 'array', 'null'],
          items: { allOf: [{}] },
        },
        ratio: { type: 'number' },
      },
    });
  });

  it('converts param-list type names as toolcap import does (str, int, dict, ...)', () => {
    const registry = createRegistry({
      fallbackTools: [
        {
          name: 'legacy_params',
          description: 'Param-list tool.',
          params: [
            { name: 'q', type: 'str', required: true },
            { name: 'n', type: 'int' },
            { name: 'options', type: 'dict' },
            { name: 'tags', type: 'List' },
          ],
        },
      ],
    });
    expect(registry.diagnostics).toEqual([]);
    expect(registry.get('legacy_params')?.input_schema).toEqual({
      type: 'object',
      properties: {
        q: { type: 'string' },
        n: { type: 'integer' },
        options: { type: 'object' },
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['q'],
    });
  });

  it('lets a registered JSON group replace a fallback tool of the same name', () => {
    const registry = createRegistry({
      fallbackTools: [{ name: 'do_thing', description: 'code version', execute: () => 1 }],
    });
    expect(registry.migrationStatus().fallbackOnly).toEqual(['do_thing']);
    const migrated = registry.register(makeGroup('things'));
    expect(migrated.get('do_thing')?.source).toBe('registered');
    expect(migrated.migrationStatus()).toEqual({
      jsonOnly: [],
      fallbackOnly: [],
      both: ['do_thing'],
      renamed: [],
    });
    expect(migrated.group('fallback')).toBeUndefined();
    expect(migrated.settings.fallbackImplementations.has('do_thing')).toBe(false);
  });
});

describe('createRegistry', () => {
  it('creates an empty registry with the given settings', () => {
    const dir = createTempDir();
    const registry = createRegistry({
      cwd: dir,
      handlers: ['my-handlers'],
      limits: { maxTools: 5 },
    });
    expect(registry.size).toBe(0);
    expect(registry.settings.handlerDirs).toEqual([join(dir, 'my-handlers')]);
    expect(registry.settings.limits.maxTools).toBe(5);
    expect(registry.settings.limits.maxSchemaDepth).toBe(64);
  });

  it('applies its pins to register(): no diagnostic at creation, a group outside its pin refused', () => {
    const registry = createRegistry({ pins: { cal: '^1.0.0' } });
    expect(registry.diagnostics).toEqual([]);
    let error: unknown;
    try {
      registry.register(makeGroup('cal', { version: '2.0.0' }));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(RegistryLoadError);
    expect((error as RegistryLoadError).diagnostics).toMatchObject([
      { code: 'UNSATISFIED_PIN', file: '<register>', pointer: '/version' },
    ]);
    expect((error as Error).message).toContain(
      'UNSATISFIED_PIN group "cal" version 2.0.0 is not registered: the pins option allows only "^1.0.0"; register a version in that range or change the pin',
    );
    expect(registry.register(makeGroup('cal', { version: '1.4.0' })).group('cal')?.version).toBe(
      '1.4.0',
    );
    // groups without a pin are not affected
    expect(registry.register(makeGroup('other', { version: '7.0.0' })).size).toBe(1);
  });

  it('refuses a pin that is not a semver range', () => {
    expect(() => createRegistry({ pins: { cal: 'one' } })).toThrow(
      expect.objectContaining({
        code: 'INVALID_OPTION',
        message:
          'createRegistry: option "pins" has "one" for group "cal", which is not a valid semver range; use a version or range such as "1.2.0", "^1.0.0" or "~2.1"',
      }),
    );
  });

  it('keeps the pins of loadRegistry for register()', async () => {
    const registry = await loadRegistry({ dirs: [SCHEMAS], pins: { cal: '~1.2' } });
    expect(() => registry.register(makeGroup('cal', { version: '1.3.0' }))).toThrow(
      /UNSATISFIED_PIN group "cal" version 1\.3\.0 is not registered: the pins option allows only "~1\.2"/,
    );
  });
});

describe('Registry.prepare', () => {
  // the analyzer counts the texts it tokenizes: building the ranking index tokenizes every
  // tool's texts, selecting afterwards only the message
  async function countingRegistry() {
    const counter = { texts: 0 };
    const registry = await loadRegistry({
      dirs: [SCHEMAS],
      analyzer: {
        tokenizer: (text) => {
          counter.texts++;
          return text.split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
        },
      },
    });
    return { registry, counter };
  }

  it('builds the ranking index up front, so the first turn analyzes only its message', async () => {
    const { registry, counter } = await countingRegistry();
    const afterLoad = counter.texts;
    expect(registry.prepare()).toBe(registry);
    expect(counter.texts - afterLoad).toBeGreaterThan(registry.size);
    const prepared = counter.texts;
    registry.prepare();
    expect(counter.texts).toBe(prepared);
    const selection = registry.select('what is on my agenda', { context: { user_id: 'u1' } });
    expect(selection.names).toContain('get_agenda');
    expect(counter.texts - prepared).toBe(1);
    expect(registry.search('agenda')[0]?.name).toBe('get_agenda');
  });

  it('gives the same selections as a registry that builds the index on first use', async () => {
    const prepared = (await loadRegistry({ dirs: [SCHEMAS] })).prepare();
    const lazy = await loadRegistry({ dirs: [SCHEMAS] });
    for (const message of ['read the file notes.md', 'add a task to buy milk', 'weather?']) {
      expect(prepared.select(message, { maxTools: 3 })).toEqual(
        lazy.select(message, { maxTools: 3 }),
      );
    }
  });
});
