import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getCompileCount } from '../../src/json-schema/compile-schema.js';
import { RegistryLoadError } from '../../src/load/registry-load-error.js';
import { createTextAnalyzer } from '../../src/text/text-analyzer.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';

function codes(registry: { diagnostics: readonly { code: string }[] }): string[] {
  return registry.diagnostics.map((diagnostic) => diagnostic.code);
}

/** JSON text of an object schema nested `depth` levels (built as text: JSON.stringify would overflow). */
function nestedSchemaText(depth: number): string {
  return `${'{"type":"object","properties":{"next":'.repeat(depth)}{"type":"string"}${'}}'.repeat(depth)}`;
}

function groupText(group: string, firstSchemaText: string): string {
  const text = JSON.stringify(
    makeGroup(group, {
      tools: [makeTool({ input_schema: 'SCHEMA' }), makeTool({ name: 'shallow_tool' })],
    }),
  );
  return text.replace('"SCHEMA"', firstSchemaText);
}

describe('loadRegistry', () => {
  it('loads the bundled schemas with no diagnostics, in sorted file order', async () => {
    const registry = await loadRegistry({ dirs: [join(import.meta.dirname, '../../schemas')] });
    expect(registry.diagnostics).toEqual([]);
    expect(registry.groups().map((group) => group.group)).toEqual([
      'calendar',
      'files',
      'journal',
      'project_docs',
      'tasks',
    ]);
    expect(registry.list().map((tool) => tool.index)).toEqual(
      registry.list().map((_, index) => index),
    );
    expect(registry.get('file_edit')?.input_schema.required).toEqual([
      'file_path',
      'old_string',
      'new_string',
    ]);
  });

  it('finds group files recursively and ignores other files', async () => {
    const dir = createTempDir({
      'a/alpha_tools.json': makeGroup('alpha', { tools: [makeTool({ name: 'alpha_tool' })] }),
      'b/c/beta_tools.json': makeGroup('beta', { tools: [makeTool({ name: 'beta_tool' })] }),
      'notes.json': { not: 'a group' },
      'tools.json': { tools: ['not', 'a', 'group'] },
      'package.json': { name: 'x', group: 'admins', version: '1.0.0' },
    });
    const registry = await loadRegistry({ dirs: [dir] });
    expect(registry.groups().map((group) => group.group)).toEqual(['alpha', 'beta']);
    expect(registry.diagnostics).toEqual([]);
  });

  it('warns about a group file whose name is close to <group>_tools.json, naming the fix', async () => {
    const dir = createTempDir({
      'billing_tool.json': makeGroup('billing'),
      'sub/billing-tools.json': makeGroup('billing'),
      'billing_tools.JSON': makeGroup('billing'),
      'gamma.tools.json': makeGroup('gamma'),
      'ledger_tols.json': makeGroup('ledger'),
      'odd-tools.json': makeGroup('Odd Group'),
      'taken/orders_tools.json': makeGroup('orders'),
      'taken/orders-tools.json': makeGroup('orders'),
      'notes_tools_data.json': { tools: [] },
    });
    const registry = await loadRegistry({ dirs: ['.'], cwd: dir });
    expect(registry.groups().map((group) => group.group)).toEqual(['orders']);
    const looksLike =
      'looks like a group file (a JSON object with "group" and "tools") but is not loaded: only files named <group>_tools.json are;';
    expect(registry.diagnostics).toEqual(
      [
        ['billing_tool.json', 'rename it to billing_tools.json'],
        ['billing_tools.JSON', 'rename it to billing_tools.json'],
        ['gamma.tools.json', 'rename it to gamma_tools.json'],
        ['ledger_tols.json', 'rename it to ledger_tools.json'],
        [
          'odd-tools.json',
          'rename it to <group>_tools.json, with "group" a snake_case name such as "billing"',
        ],
        ['sub/billing-tools.json', 'rename it to billing_tools.json'],
        [
          'taken/orders-tools.json',
          'a file named orders_tools.json exists beside it already: merge the two or remove this one',
        ],
      ].map(([file, fix]) => ({
        severity: 'warning',
        code: 'MISNAMED_GROUP_FILE',
        file,
        pointer: '',
        message: `${file?.split('/').pop()} ${looksLike} ${fix}`,
      })),
    );
  });

  it('does not read JSON files whose names are far from <group>_tools.json, nor huge ones', async () => {
    const dir = createTempDir({
      'billing.json': makeGroup('billing'),
      'huge_tool.json': JSON.stringify(makeGroup('huge')),
    });
    const registry = await loadRegistry({ dirs: ['.'], cwd: dir, limits: { maxFileBytes: 100 } });
    expect(registry.diagnostics).toMatchObject([{ code: 'NO_GROUP_FILES' }]);
  });

  it('keeps loading the other files when one is broken', async () => {
    const dir = createTempDir({
      'alpha_tools.json': makeGroup('alpha', { tools: [makeTool({ name: 'alpha_tool' })] }),
      'broken_tools.json': '{ "group": ',
      'zeta_tools.json': makeGroup('zeta', { tools: [makeTool({ name: 'zeta_tool' })] }),
    });
    const registry = await loadRegistry({ dirs: [dir] });
    expect(registry.list().map((tool) => tool.name)).toEqual(['alpha_tool', 'zeta_tool']);
    expect(codes(registry)).toEqual(['JSON_SYNTAX']);
    expect(registry.diagnostics[0]).toMatchObject({
      file: join(dir, 'broken_tools.json').replace(`${process.cwd()}/`, ''),
      line: 1,
    });
  });

  it('reports file paths relative to cwd', async () => {
    const dir = createTempDir({ 'broken_tools.json': '[]' });
    const registry = await loadRegistry({ dirs: ['.'], cwd: dir });
    expect(registry.diagnostics[0]?.file).toBe('broken_tools.json');
  });

  it('rejects a tool name defined by two groups, naming both files', async () => {
    const dir = createTempDir({
      'alpha_tools.json': makeGroup('alpha', { tools: [makeTool({ name: 'shared_name' })] }),
      'beta_tools.json': makeGroup('beta', {
        tools: [makeTool({ name: 'shared_name' }), makeTool({ name: 'beta_only' })],
      }),
    });
    const registry = await loadRegistry({ dirs: ['.'], cwd: dir });
    expect(registry.get('shared_name')?.group).toBe('alpha');
    expect(registry.get('beta_only')?.group).toBe('beta');
    const [diagnostic] = registry.diagnostics;
    expect(diagnostic).toMatchObject({
      code: 'DUPLICATE_TOOL',
      file: 'beta_tools.json',
      pointer: '/tools/0/name',
      line: 10,
    });
    expect(diagnostic?.message).toMatch(
      /tool "shared_name" is already defined by group "alpha" in alpha_tools\.json \(at \/tools\/0\).*skipped/,
    );
  });

  it('picks the highest version of a group found in several directories', async () => {
    const dir = createTempDir({
      'one/calendar_tools.json': makeGroup('calendar', {
        version: '1.4.0',
        tools: [makeTool({ name: 'old_tool' })],
      }),
      'two/calendar_tools.json': makeGroup('calendar', {
        version: '1.10.0',
        tools: [makeTool({ name: 'new_tool' })],
      }),
      'three/calendar_tools.json': makeGroup('calendar', {
        version: '1.9.9',
        tools: [makeTool({ name: 'mid_tool' })],
      }),
    });
    const registry = await loadRegistry({ dirs: ['one', 'two', 'three'], cwd: dir });
    expect(registry.diagnostics).toEqual([]);
    expect(registry.group('calendar')?.version).toBe('1.10.0');
    expect(registry.list().map((tool) => tool.name)).toEqual(['new_tool']);
    expect(registry.get('new_tool')?.file).toBe(join(dir, 'two/calendar_tools.json'));
  });

  it('honours pins, and reports an unsatisfiable or invalid pin', async () => {
    const dir = createTempDir({
      'one/calendar_tools.json': makeGroup('calendar', {
        version: '1.4.0',
        tools: [makeTool({ name: 'v1_tool' })],
      }),
      'two/calendar_tools.json': makeGroup('calendar', {
        version: '2.0.0',
        tools: [makeTool({ name: 'v2_tool' })],
      }),
      'two/tasks_tools.json': makeGroup('tasks', { tools: [makeTool({ name: 'task_tool' })] }),
    });
    const pinned = await loadRegistry({
      dirs: ['one', 'two'],
      cwd: dir,
      pins: { calendar: '^1.0.0' },
    });
    expect(pinned.group('calendar')?.version).toBe('1.4.0');
    expect(pinned.has('v2_tool')).toBe(false);

    const unsatisfiable = await loadRegistry({
      dirs: ['one', 'two'],
      cwd: dir,
      pins: { calendar: '^3.0.0', missing: '1.x' },
    });
    expect(unsatisfiable.group('calendar')).toBeUndefined();
    expect(unsatisfiable.has('task_tool')).toBe(true);
    expect(unsatisfiable.diagnostics).toMatchObject([
      { code: 'UNSATISFIED_PIN', file: '<pins>', pointer: '/calendar' },
      { code: 'UNSATISFIED_PIN', pointer: '/missing' },
    ]);
    expect(unsatisfiable.diagnostics[0]?.message).toMatch(
      /pin "calendar": "\^3\.0\.0" matches none of the loaded versions \(2\.0\.0, 1\.4\.0\); the group is not loaded/,
    );
    expect(unsatisfiable.diagnostics[1]?.message).toMatch(
      /names a group that no loaded file defines/,
    );

    const invalid = await loadRegistry({
      dirs: ['one'],
      cwd: dir,
      pins: { calendar: 'not a range!' },
    });
    expect(invalid.diagnostics).toMatchObject([{ code: 'INVALID_PIN', pointer: '/calendar' }]);
    expect(invalid.diagnostics[0]?.message).toMatch(
      /is not a valid semver range; use a version or range such as/,
    );
  });

  it('reports the same group and version defined twice, naming both files', async () => {
    const dir = createTempDir({
      'one/calendar_tools.json': makeGroup('calendar', {
        tools: [makeTool({ name: 'first_tool' })],
      }),
      'two/calendar_tools.json': makeGroup('calendar', {
        tools: [makeTool({ name: 'second_tool' })],
      }),
    });
    const registry = await loadRegistry({ dirs: ['one', 'two'], cwd: dir });
    expect(registry.list().map((tool) => tool.name)).toEqual(['first_tool']);
    expect(registry.diagnostics).toMatchObject([
      {
        code: 'DUPLICATE_GROUP_VERSION',
        file: join('two', 'calendar_tools.json'),
        pointer: '/version',
        line: 3,
      },
    ]);
    expect(registry.diagnostics[0]?.message).toMatch(
      /group "calendar" version 1\.0\.0 is also defined in one\/calendar_tools\.json/,
    );
  });

  it('reports two copies whose versions differ only in build metadata as DUPLICATE_GROUP_VERSION, skipping the later one', async () => {
    const dir = createTempDir({
      'one/calendar_tools.json': makeGroup('calendar', {
        version: '1.2.0',
        tools: [makeTool({ name: 'first_tool' })],
      }),
      'two/calendar_tools.json': makeGroup('calendar', {
        version: '1.2.0+b',
        tools: [makeTool({ name: 'second_tool' })],
      }),
    });
    const forward = await loadRegistry({ dirs: ['one', 'two'], cwd: dir });
    expect(forward.list().map((tool) => tool.name)).toEqual(['first_tool']);
    expect(forward.diagnostics).toMatchObject([
      {
        severity: 'error',
        code: 'DUPLICATE_GROUP_VERSION',
        file: join('two', 'calendar_tools.json'),
        pointer: '/version',
        line: 3,
      },
    ]);
    expect(forward.diagnostics[0]?.message).toBe(
      `group "calendar" version 1.2.0+b is also defined in ${join('one', 'calendar_tools.json')} as 1.2.0 (versions that differ only in build metadata, after "+", are the same version to semver); this copy is skipped. Bump the version of one of them or remove the duplicate`,
    );
    const backward = await loadRegistry({ dirs: ['two', 'one'], cwd: dir });
    expect(backward.list().map((tool) => tool.name)).toEqual(['second_tool']);
    expect(backward.diagnostics).toMatchObject([
      { code: 'DUPLICATE_GROUP_VERSION', file: join('one', 'calendar_tools.json') },
    ]);
  });

  it('requires context_check predicates to be registered', async () => {
    const dir = createTempDir({
      'docs_tools.json': makeGroup('docs', {
        selection: { strategy: 'context', context_check: 'has_projct' },
      }),
    });
    const missing = await loadRegistry({
      dirs: ['.'],
      cwd: dir,
      contextChecks: { has_project: () => true },
    });
    expect(missing.groups()).toEqual([]);
    expect(missing.diagnostics).toMatchObject([
      { code: 'UNKNOWN_CONTEXT_CHECK', pointer: '/selection/context_check' },
    ]);
    expect(missing.diagnostics[0]?.message).toMatch(
      /context_check "has_projct" is not a registered predicate \(did you mean "has_project"\?\)/,
    );

    const none = await loadRegistry({ dirs: ['.'], cwd: dir });
    expect(none.diagnostics[0]?.message).toMatch(/none are registered.*--context-checks MODULE/);

    const registered = await loadRegistry({
      dirs: ['.'],
      cwd: dir,
      contextChecks: { has_projct: () => true },
    });
    expect(registered.diagnostics).toEqual([]);
    expect(registered.group('docs')?.selection.context_check).toBe('has_projct');
  });

  it('throws a RegistryLoadError listing the errors in strict mode', async () => {
    const dir = createTempDir({
      'alpha_tools.json': makeGroup('alpha', { version: 'one' }),
      'beta_tools.json': makeGroup('beta', { tools: [makeTool({ name: 'beta_tool' })] }),
    });
    const error = await loadRegistry({ dirs: ['.'], cwd: dir, strict: true }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(RegistryLoadError);
    expect((error as RegistryLoadError).code).toBe('REGISTRY_LOAD_FAILED');
    expect((error as RegistryLoadError).message).toMatch(
      /strict mode \(1 error\(s\)\):\n {2}alpha_tools\.json:3:3: error INVALID_VERSION/,
    );
    expect((error as RegistryLoadError).diagnostics).toHaveLength(1);
    // warnings alone do not fail a strict load
    const warned = createTempDir({ 'alpha_tools.json': { ...makeGroup('alpha'), extra: true } });
    const registry = await loadRegistry({ dirs: ['.'], cwd: warned, strict: true });
    expect(codes(registry)).toEqual(['UNKNOWN_FIELD']);
  });

  it('fails cleanly on a 5,000-deep schema instead of overflowing the stack', async () => {
    const dir = createTempDir({ 'deep_tools.json': groupText('deep', nestedSchemaText(5_000)) });
    const registry = await loadRegistry({ dirs: ['.'], cwd: dir });
    expect(registry.list().map((tool) => tool.name)).toEqual(['shallow_tool']);
    expect(codes(registry)).toEqual(['SCHEMA_TOO_DEEP']);
    expect(registry.diagnostics[0]?.pointer).toMatch(
      /^\/tools\/0\/input_schema(\/properties\/next)+/,
    );
    expect(registry.diagnostics[0]?.line).toBe(1);
    expect(registry.diagnostics[0]?.message).toMatch(
      /nests deeper than 64 levels \(limits\.maxSchemaDepth\); flatten it or use \$defs/,
    );
  });

  it('reports a file nested too deeply for the JSON parser as a syntax problem, not a crash', async () => {
    const dir = createTempDir({
      'abyss_tools.json': groupText('abyss', nestedSchemaText(200_000)),
      'fine_tools.json': makeGroup('fine', { tools: [makeTool({ name: 'fine_tool' })] }),
    });
    const registry = await loadRegistry({
      dirs: ['.'],
      cwd: dir,
      limits: { maxFileBytes: 50_000_000 },
    });
    expect(registry.has('fine_tool')).toBe(true);
    expect(registry.diagnostics.map((diagnostic) => diagnostic.file)).toEqual(['abyss_tools.json']);
    expect(['JSON_SYNTAX', 'SCHEMA_TOO_DEEP']).toContain(registry.diagnostics[0]?.code);
  });

  it('applies configurable limits with a diagnostic for each', async () => {
    const bigSchema = {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: 50 }, (_, index) => [`p${index}`, { type: 'string' }]),
      ),
    };
    const dir = createTempDir({
      'big_tools.json': makeGroup('big', { tools: [makeTool({ input_schema: bigSchema })] }),
      'chatty_tools.json': makeGroup('chatty', {
        description: 'x'.repeat(300),
        tools: [makeTool({ name: 'chatty_tool', description: 'y'.repeat(300) })],
      }),
      'crowded_tools.json': makeGroup('crowded', {
        tools: [1, 2, 3].map((index) => makeTool({ name: `crowded_${index}` })),
      }),
      'wordy_tools.json': makeGroup('wordy', {
        selection: {
          strategy: 'keyword',
          keywords: ['alpha', 'beta', 'gamma', 'this keyword is far too long'],
        },
        tools: [makeTool({ name: 'wordy_tool' })],
      }),
    });
    const registry = await loadRegistry({
      dirs: ['.'],
      cwd: dir,
      limits: {
        maxSchemaNodes: 40,
        maxDescriptionLength: 200,
        maxToolsPerGroup: 2,
        maxKeywords: 3,
        maxKeywordLength: 20,
      },
    });
    expect(registry.diagnostics.map((diagnostic) => [diagnostic.file, diagnostic.code])).toEqual([
      ['big_tools.json', 'SCHEMA_TOO_LARGE'],
      ['chatty_tools.json', 'DESCRIPTION_TOO_LONG'],
      ['chatty_tools.json', 'DESCRIPTION_TOO_LONG'],
      ['crowded_tools.json', 'TOO_MANY_TOOLS'],
      ['wordy_tools.json', 'TOO_MANY_KEYWORDS'],
      ['wordy_tools.json', 'INVALID_KEYWORD'],
    ]);
    expect(registry.diagnostics[0]?.message).toMatch(
      /more than 40 JSON nodes \(limits\.maxSchemaNodes\)/,
    );
    expect(registry.diagnostics[3]?.message).toMatch(
      /the group has 3 tools, more than 2 \(limits\.maxToolsPerGroup\); split it/,
    );
    expect(registry.diagnostics[5]?.message).toMatch(
      /keyword is 28 characters, longer than 20 \(limits\.maxKeywordLength\)/,
    );

    const small = await loadRegistry({ dirs: ['.'], cwd: dir, limits: { maxFileBytes: 100 } });
    expect(new Set(codes(small))).toEqual(new Set(['FILE_TOO_LARGE']));
    expect(small.diagnostics[0]?.message).toMatch(/larger than 100 \(limits\.maxFileBytes\)/);

    const total = await loadRegistry({
      dirs: ['.'],
      cwd: dir,
      limits: { maxTools: 2, maxToolsPerGroup: 10, maxSchemaNodes: 10_000 },
    });
    expect(total.size).toBe(2);
    expect(codes(total)).toContain('TOO_MANY_TOOLS');
  });

  it('lets other callbacks run between windows of files while it loads', async () => {
    // 40 files: a server's timers and requests must not wait for the whole load
    const files: Record<string, unknown> = {};
    for (let index = 0; index < 40; index++) {
      const group = `group${String(index).padStart(2, '0')}`;
      files[`${group}_tools.json`] = makeGroup(group, {
        tools: [makeTool({ name: `${group}_tool` })],
      });
    }
    const dir = createTempDir(files);
    const events: string[] = [];
    const openSync = fs.openSync;
    // every group file the loader opens (through the fs module, however it imports it)
    fs.openSync = ((...args: Parameters<typeof fs.openSync>) => {
      if (String(args[0]).endsWith('_tools.json')) events.push('read');
      return openSync(...args);
    }) as typeof fs.openSync;
    syncBuiltinESMExports();
    let loading = true;
    const tick = () => {
      if (!loading) return;
      events.push('turn');
      setImmediate(tick);
    };
    try {
      const pending = loadRegistry({ dirs: [dir] });
      setImmediate(tick);
      const registry = await pending;
      expect(registry.size).toBe(40);
    } finally {
      loading = false;
      fs.openSync = openSync;
      syncBuiltinESMExports();
    }
    const reads = events.filter((event) => event === 'read');
    expect(reads).toHaveLength(40);
    const duringReads = events.slice(events.indexOf('read'), events.lastIndexOf('read'));
    // windows of 16 files: at least one turn after the first and one after the second
    expect(duringReads.filter((event) => event === 'turn').length).toBeGreaterThanOrEqual(2);
  });

  it('reports a missing directory and an empty one', async () => {
    const dir = createTempDir({ 'empty/readme.txt': 'nothing here' });
    const registry = await loadRegistry({ dirs: ['nope', 'empty'], cwd: dir });
    expect(registry.diagnostics).toMatchObject([
      { severity: 'error', code: 'SCHEMAS_DIR_NOT_FOUND', file: 'nope' },
      { severity: 'warning', code: 'NO_GROUP_FILES', file: 'empty' },
    ]);
    expect(registry.diagnostics[0]?.message).toMatch(
      /^schema directory nope does not exist; check the path$/,
    );
  });

  it('reports a directory named like a group file', async () => {
    const dir = createTempDir({
      'odd_tools.json/inner.txt': 'a directory named like a group file',
    });
    const registry = await loadRegistry({ dirs: ['.'], cwd: dir });
    expect(codes(registry)).toEqual(['NO_GROUP_FILES', 'ENTRY_SKIPPED']);
  });

  it('returns an immutable snapshot and never compiles a schema while loading', async () => {
    const before = getCompileCount();
    const registry = await loadRegistry({ dirs: [join(import.meta.dirname, '../../schemas')] });
    expect(getCompileCount()).toBe(before);
    const tool = registry.get('create_event')!;
    expect(Object.isFrozen(tool)).toBe(true);
    expect(Object.isFrozen(tool.input_schema)).toBe(true);
    expect(Object.isFrozen((tool.input_schema.properties as Record<string, object>).title)).toBe(
      true,
    );
    expect(Object.isFrozen(tool.metadata.requires_context)).toBe(true);
    expect(() => {
      (tool as { name: string }).name = 'hacked';
    }).toThrow(TypeError);
    expect(Object.isFrozen(registry.list())).toBe(true);
  });

  it('applies metadata defaults and normalizes tags', async () => {
    const dir = createTempDir({
      'plain_tools.json': makeGroup('plain', {
        tools: [makeTool({ metadata: { executor: 'things' }, tags: ['search', 'docs'] })],
      }),
    });
    const registry = await loadRegistry({ dirs: ['.'], cwd: dir });
    expect(registry.get('do_thing')?.metadata).toEqual({
      executor: 'things',
      requires_context: [],
      cost_estimate: 'medium',
      latency_estimate: 'medium',
    });
    expect(registry.get('do_thing')?.tags).toEqual(['search', 'docs']);
    expect(Object.isFrozen(registry.get('do_thing')?.tags)).toBe(true);
    expect(registry.diagnostics).toEqual([]);
  });

  it('keeps normalized tags frozen whether or not normalizing changed them', async () => {
    const dir = createTempDir({
      'plain_tools.json': makeGroup('plain', {
        tools: [
          makeTool({ name: 'clean', tags: ['search', 'docs'] }),
          makeTool({ name: 'messy', tags: ['Web Search', 'search', 'web-search'] }),
        ],
      }),
    });
    const registry = await loadRegistry({ dirs: ['.'], cwd: dir });
    expect(registry.get('clean')?.tags).toEqual(['search', 'docs']);
    expect(registry.get('messy')?.tags).toEqual(['web-search', 'search']);
    for (const name of ['clean', 'messy']) {
      const tags = registry.get(name)?.tags as string[];
      expect(Object.isFrozen(tags)).toBe(true);
      expect(() => tags.push('more')).toThrow(TypeError);
    }
    expect(codes(registry)).toEqual(['TAGS_NORMALIZED']);
  });

  it('checks output_schema too', async () => {
    const dir = createTempDir({
      'out_tools.json': makeGroup('out', {
        tools: [
          makeTool({ output_schema: { type: 'object', properties: { items: { type: 'array' } } } }),
        ],
      }),
    });
    const registry = await loadRegistry({ dirs: ['.'], cwd: dir });
    expect(registry.diagnostics).toMatchObject([
      { code: 'ARRAY_ITEMS_MISSING', pointer: '/tools/0/output_schema/properties/items' },
    ]);
  });
});

describe('loadRegistry: text a reviewer could misread', () => {
  it('warns about a duplicate key: JSON keeps the last one, a reader sees the first', async () => {
    const text = JSON.stringify(
      makeGroup('things', { tools: [makeTool({ name: 'safe_tool' })] }),
      null,
      2,
    ).replace('"name": "safe_tool",', '"name": "safe_tool",\n      "name": "dangerous_tool",');
    const dir = createTempDir({ 'things_tools.json': text });
    const registry = await loadRegistry({ dirs: [dir], cwd: dir });
    expect(registry.list().map((tool) => tool.name)).toEqual(['dangerous_tool']);
    expect(registry.diagnostics).toEqual([
      {
        severity: 'warning',
        code: 'DUPLICATE_KEY',
        file: 'things_tools.json',
        pointer: '/tools/0/name',
        line: 11,
        column: 7,
        message:
          'the key "name" appears again in this object (first at line 10, column 7); JSON keeps the last value, "dangerous_tool", while a reader sees the first: remove one of them',
      },
    ]);
  });

  it('says a UTF-16 group file must be UTF-8', async () => {
    const text = `\uFEFF${JSON.stringify(makeGroup('things'), null, 2)}`;
    const dir = createTempDir();
    fs.writeFileSync(join(dir, 'things_tools.json'), Buffer.from(text, 'utf16le'));
    const registry = await loadRegistry({ dirs: [dir], cwd: dir });
    expect(registry.diagnostics).toEqual([
      {
        severity: 'error',
        code: 'JSON_SYNTAX',
        file: 'things_tools.json',
        pointer: '',
        line: 1,
        column: 1,
        message:
          'the text is UTF-16 (little-endian), not UTF-8; save the file as UTF-8 (JSON files must be UTF-8)',
      },
    ]);
  });

  it('says how to name a group file given directly under another name', async () => {
    const dir = createTempDir({ 'ctx-tools.json': makeGroup('ctx') });
    const registry = await loadRegistry({ cwd: dir, dirs: ['ctx-tools.json'] });
    expect(registry.diagnostics).toEqual([
      {
        severity: 'error',
        code: 'SCHEMAS_DIR_NOT_FOUND',
        file: 'ctx-tools.json',
        pointer: '',
        message:
          'ctx-tools.json looks like a group file (a JSON object with "group" and "tools") but is not loaded: only files named <group>_tools.json are; rename it to ctx_tools.json',
      },
    ]);
  });

  it("finds keywords that never match with the registry's own analyzer", async () => {
    const dir = createTempDir({
      'refunds_tools.json': makeGroup('refunds', {
        selection: { strategy: 'keyword', keywords: ['refund', 'money back'] },
      }),
    });
    // a tokenizer that drops "refund" (as a custom stopword list in a tokenizer might)
    const registry = await loadRegistry({
      cwd: dir,
      dirs: ['.'],
      analyzer: { tokenizer: (text) => text.split(/\s+/).filter((word) => word !== 'refund') },
    });
    expect(registry.diagnostics).toMatchObject([
      {
        code: 'KEYWORD_NEVER_MATCHES',
        file: 'refunds_tools.json',
        pointer: '/selection/keywords/0',
      },
    ]);
    // the same tokenizer inside a ready analyzer
    const built = await loadRegistry({
      cwd: dir,
      dirs: ['.'],
      analyzer: createTextAnalyzer({
        tokenizer: (text) => text.split(/\s+/).filter((word) => word !== 'refund'),
      }),
    });
    expect(built.diagnostics.map((problem) => problem.pointer)).toEqual(['/selection/keywords/0']);
    expect((await loadRegistry({ cwd: dir, dirs: ['.'] })).diagnostics).toEqual([]);
  });
});
