import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DEFAULT_LOAD_LIMITS } from '../../src/format/limits.js';
import type { JsonSchema } from '../../src/format/types.js';
import { compileSchema } from '../../src/json-schema/compile-schema.js';
import {
  GROUP_FILE_SCHEMA_URL,
  type ImportedGroup,
} from '../../src/migrate/build-imported-group.js';
import { type ImportSource, importToolList } from '../../src/migrate/import-tool-list.js';
import { parseGroupVersion } from '../../src/migrate/read-group-version.js';

const FIXTURES = join(import.meta.dirname, 'fixtures');

interface Expectation {
  from: ImportSource;
  /** Tool names written, in order. */
  tools: string[];
  /** `from -> to` for every renamed tool. */
  renamed?: string[];
  /** Warning codes that must appear. */
  warnings?: string[];
}

/** Every import fixture and what importing it must give; an unmapped fixture fails the walk. */
const EXPECTATIONS: Readonly<Record<string, Expectation>> = {
  'bfcl/functions.json': {
    from: 'canonical',
    tools: [
      'calculate_triangle_area',
      'math_factorial',
      'requests_get',
      'default_add_default_value',
      'determine_body_mass_index',
    ],
    renamed: [
      'math.factorial -> math_factorial',
      'requests.get -> requests_get',
      'default.add_default_value -> default_add_default_value',
    ],
    warnings: ['TYPE_CONVERTED', 'TOOL_RENAMED'],
  },
  'livemcpbench/met-museum.json': {
    from: 'mcp',
    tools: ['list_departments', 'search_museum_objects', 'get_museum_object'],
    renamed: [
      'list-departments -> list_departments',
      'search-museum-objects -> search_museum_objects',
      'get-museum-object -> get_museum_object',
    ],
    warnings: ['TOOL_RENAMED'],
  },
  'livemcpbench/weather.json': { from: 'mcp', tools: ['get_weather', 'get_weather_by_city'] },
  'livemcpbench/ygocdb.json': {
    from: 'mcp',
    tools: ['search_cards', 'get_card_by_id', 'get_card_image'],
  },
  'providers/openai.json': {
    from: 'openai',
    tools: ['get_weather', 'create_ticket'],
    renamed: ['create-ticket -> create_ticket'],
  },
  'providers/openai-responses.json': {
    from: 'openai-responses',
    tools: ['search_docs'],
    warnings: ['ENTRY_SKIPPED'],
  },
  'providers/anthropic.json': {
    from: 'anthropic',
    tools: ['get_stock_price'],
    warnings: ['ENTRY_SKIPPED'],
  },
  'providers/google.json': { from: 'google', tools: ['find_restaurants'] },
  'providers/bedrock.json': {
    from: 'bedrock',
    tools: ['lookup_order'],
    warnings: ['ENTRY_SKIPPED'],
  },
  'providers/canonical.json': { from: 'canonical', tools: ['file_edit'] },
  'providers/params.json': {
    from: 'params',
    tools: ['read_file', 'grep_search'],
    renamed: ['grep.search -> grep_search'],
    warnings: ['INVALID_PARAM_TOOL', 'TYPE_CONVERTED', 'DESCRIPTION_MISSING'],
  },
  'providers/mcp-jsonrpc.json': { from: 'mcp', tools: ['delete_file', 'ping'] },
  'providers/mcp-paginated.json': {
    from: 'mcp',
    tools: ['read_file', 'write_file', 'edit_file', 'search_files', 'get_file_info'],
    renamed: ['search-files -> search_files'],
    warnings: ['TOOL_LIST_PAGINATED', 'TOOL_RENAMED'],
  },
  'providers/openai-strict.json': {
    from: 'openai',
    tools: ['create_event', 'get_event', 'get_weather', 'find_free_slots', 'ping'],
    warnings: ['STRICT_SCHEMA_IMPORTED', 'DESCRIPTION_MISSING'],
  },
  'providers/openai-responses-strict.json': {
    from: 'openai-responses',
    tools: ['book_room', 'list_rooms'],
    warnings: ['STRICT_SCHEMA_IMPORTED', 'ENTRY_SKIPPED'],
  },
  'params/python-inspect.json': {
    from: 'params',
    tools: [
      'cancel_meeting',
      'create_invoice',
      'get_stock_quote',
      'get_weather',
      'list_calendar_events',
      'lookup_user',
      'refund_payment',
      'run_sql',
      'schedule_meeting',
      'search_orders',
      'send_email',
      'set_reminder',
      'summarize_document',
      'translate_text',
      'upload_file',
    ],
    warnings: ['TYPE_CONVERTED'],
  },
};

function listFixtures(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? listFixtures(join(dir, entry.name))
      : entry.name.endsWith('.json')
        ? [relative(FIXTURES, join(dir, entry.name))]
        : [],
  );
}

function readFixture(path: string): unknown {
  return JSON.parse(readFileSync(join(FIXTURES, path), 'utf8'));
}

/** The group must pass the loader's validation unchanged. */
function expectLoadable(imported: ImportedGroup, group: string) {
  const version = parseGroupVersion(JSON.stringify(imported.document), `${group}_tools.json`);
  expect(version.diagnostics).toEqual([]);
  return version.group!;
}

describe('importToolList over the fixture corpus', () => {
  const files = listFixtures(FIXTURES).sort();

  it('has an expectation for every fixture file', () => {
    expect(files.filter((file) => !Object.hasOwn(EXPECTATIONS, file))).toEqual([]);
    expect(Object.keys(EXPECTATIONS).filter((file) => !files.includes(file))).toEqual([]);
  });

  it.each(files)('%s imports into a loadable group', (file) => {
    const expectation = EXPECTATIONS[file]!;
    const imported = importToolList(readFixture(file), {
      from: expectation.from,
      group: 'imported',
    });
    const group = expectLoadable(imported, 'imported');
    expect(group.tools.map((tool) => tool.name)).toEqual(expectation.tools);
    expect(imported.renamed.map((entry) => `${entry.from} -> ${entry.to}`)).toEqual(
      expectation.renamed ?? [],
    );
    const codes = new Set(imported.warnings.map((warning) => warning.code));
    for (const code of expectation.warnings ?? []) expect(codes).toContain(code);
    for (const tool of imported.document.tools as Record<string, unknown>[]) {
      const original = imported.renamed.find((entry) => entry.to === tool.name)?.from;
      expect(tool['x-original-name']).toBe(original);
    }
  });
});

describe('importToolList', () => {
  it('writes $schema, defaults and the group name as executor', () => {
    const imported = importToolList(readFixture('providers/canonical.json'), {
      from: 'canonical',
      group: 'files',
    });
    expect(imported.document).toMatchObject({
      $schema: GROUP_FILE_SCHEMA_URL,
      group: 'files',
      version: '1.0.0',
      description: 'Tools imported from an existing tool list.',
      selection: { strategy: 'always' },
    });
    expect((imported.document.tools as Record<string, unknown>[])[0]).toMatchObject({
      name: 'file_edit',
      category: 'mutation',
      metadata: {
        executor: 'files',
        requires_context: [],
        cost_estimate: 'medium',
        latency_estimate: 'medium',
      },
    });
    expect(imported.keywords).toEqual([]);
  });

  it('names tools with no Latin letter or digit tool_<hash>, keeping x-original-name', () => {
    const imported = importToolList(
      ['天気', 'получить_погоду'].map((name) => ({
        name,
        description: `${name} lookup`,
        inputSchema: { type: 'object', properties: {} },
      })),
      { from: 'mcp', group: 'intl' },
    );
    expect(imported.document.tools).toMatchObject([
      { name: 'tool_4ad35069', 'x-original-name': '天気' },
      { name: 'tool_b064bc8d', 'x-original-name': 'получить_погоду' },
    ]);
    expectLoadable(imported, 'intl');
  });

  it('converts BFCL types with a warning each: dict, float, tuple, any', () => {
    const imported = importToolList(readFixture('bfcl/functions.json'), {
      from: 'canonical',
      group: 'bfcl',
    });
    const converted = imported.warnings
      .filter((warning) => warning.code === 'TYPE_CONVERTED')
      .map((warning) => /^type "(\w+)"/.exec(warning.message)?.[1]);
    expect(new Set(converted)).toEqual(new Set(['dict', 'float', 'tuple', 'any']));
    const group = expectLoadable(imported, 'bfcl');
    const requests = group.tools.find((tool) => tool.name === 'requests_get')!;
    expect((requests.input_schema.properties as Record<string, { type: string }>).auth?.type).toBe(
      'array',
    );
  });

  it('fills categories from the description, else defaults to mutation with a warning', () => {
    const imported = importToolList(
      [
        {
          name: 'bmi',
          description: 'Calculates the body mass index.',
          parameters: { type: 'object', properties: {} },
        },
        {
          name: 'widget',
          description: 'A widget thing.',
          parameters: { type: 'object', properties: {} },
        },
        {
          name: 'get_widget',
          description: 'Returns a widget.',
          parameters: { type: 'object', properties: {} },
        },
      ],
      { from: 'canonical', group: 'widgets' },
    );
    expect(imported.categories).toEqual([
      { tool: 'bmi', category: 'analysis', source: 'description' },
      { tool: 'widget', category: 'mutation', source: 'default' },
      { tool: 'get_widget', category: 'retrieval', source: 'inferred' },
    ]);
    expect(imported.warnings).toContainEqual({
      code: 'CATEGORY_DEFAULTED',
      tool: 'widget',
      message: expect.stringContaining('its category is "mutation" (the conservative default)'),
    });
  });

  it('renames around names other groups use: <group>_<name>, then _2', () => {
    const imported = importToolList(readFixture('providers/openai.json'), {
      from: 'openai',
      group: 'support',
      reservedNames: new Set(['get_weather', 'create_ticket', 'support_create_ticket']),
    });
    expect(imported.renamed).toEqual([
      { from: 'get_weather', to: 'support_get_weather', reason: 'collision' },
      { from: 'create-ticket', to: 'support_create_ticket_2', reason: 'collision' },
    ]);
    expect(imported.warnings.filter((warning) => warning.code === 'NAME_COLLISION')).toHaveLength(
      2,
    );
    expectLoadable(imported, 'support');
  });

  it('leaves out a tool another group defines (by name or x-original-name), naming the group', () => {
    const imported = importToolList(readFixture('providers/openai.json'), {
      from: 'openai',
      group: 'support',
      reservedNames: new Set(['get_weather']),
      definedElsewhere: new Map([
        ['get_weather', '"weather" (schemas/weather_tools.json)'],
        ['create-ticket', '"tickets" (schemas/tickets_tools.json) as "open_ticket"'],
      ]),
    });
    expect(imported.document.tools).toEqual([]);
    expect(imported.renamed).toEqual([]);
    expect(imported.warnings).toEqual([
      {
        code: 'TOOL_IN_OTHER_GROUP',
        tool: 'get_weather',
        message:
          'tool "get_weather" is already defined in group "weather" (schemas/weather_tools.json); left out, so it is not defined twice. To import it here, remove it from that group first (or import with --rename-collisions to keep both, this one renamed)',
      },
      {
        code: 'TOOL_IN_OTHER_GROUP',
        tool: 'create_ticket',
        message:
          'tool "create_ticket" is already defined in group "tickets" (schemas/tickets_tools.json) as "open_ticket"; left out, so it is not defined twice. To import it here, remove it from that group first (or import with --rename-collisions to keep both, this one renamed)',
      },
    ]);
  });

  it('warns that an OpenAI tool in strict mode has the strict form, naming the nullable required properties', () => {
    const chat = importToolList(readFixture('providers/openai-strict.json'), {
      from: 'openai',
      group: 'calendar',
    });
    const strict = (imported: ImportedGroup) =>
      imported.warnings.filter((warning) => warning.code === 'STRICT_SCHEMA_IMPORTED');
    // get_event is strict too, but has no property a strict schema made nullable: nothing to review
    expect(strict(chat)).toEqual([
      {
        code: 'STRICT_SCHEMA_IMPORTED',
        tool: 'create_event',
        message:
          '"create_event" is an OpenAI tool in strict mode ("strict": true): its parameters are the strict form, where every property is required and optional ones accept null (here: end, reminder), so models of other providers must send null for them or their calls are refused. Make the optional ones optional again in the group file: remove them from "required" and drop their null type (toolcap\'s OpenAI translation makes them strict again)',
      },
    ]);
    const responses = importToolList(readFixture('providers/openai-responses-strict.json'), {
      from: 'openai-responses',
      group: 'rooms',
    });
    expect(strict(responses).map((warning) => [warning.tool, warning.message])).toEqual([
      [
        'book_room',
        expect.stringMatching(
          /^"book_room" is an OpenAI tool in strict mode \("strict": true\): .* \(here: until, equipment\.projector\), /,
        ),
      ],
    ]);
    // the same schema without "strict" is taken as meant: required and nullable
    const plain = importToolList(
      {
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_x',
              description: 'Get x.',
              parameters: {
                type: 'object',
                properties: { a: { type: ['string', 'null'] } },
                required: ['a'],
              },
            },
          },
        ],
      },
      { from: 'openai', group: 'g' },
    );
    expect(strict(plain)).toEqual([]);
  });

  it('warns that an MCP tools/list result with a nextCursor is one page, and how to get every page', () => {
    const page = {
      tools: [{ name: 'get_x', description: 'Get x.', inputSchema: { type: 'object' } }],
      nextCursor: 'page-2',
    };
    const expected = {
      code: 'TOOL_LIST_PAGINATED',
      message:
        'the tools/list result has "nextCursor": "page-2", so it is one page of the server\'s tools, and only that page was imported. To import every tool, read the server itself (toolcap import --from-server CONFIG --server NAME fetches every page), or put the "tools" of every page (tools/list called with each nextCursor as "cursor" until none comes back) into one list',
    };
    const paginated = (input: unknown) =>
      importToolList(input, { from: 'mcp', group: 'g' }).warnings.filter(
        (warning) => warning.code === 'TOOL_LIST_PAGINATED',
      );
    expect(paginated(page)).toEqual([expected]);
    expect(paginated({ jsonrpc: '2.0', id: 1, result: page })).toEqual([expected]);
    expect(paginated({ tools: page.tools })).toEqual([]);
  });

  it('refuses a format it does not read, listing every format it does', () => {
    const formats =
      'Formats: openai, openai-responses, anthropic, google, bedrock, mcp, canonical, params, module';
    expect(() => importToolList([], { from: 'openapi' as ImportSource, group: 'g' })).toThrowError(
      expect.objectContaining({
        code: 'IMPORT_UNKNOWN_FORMAT',
        message: `importToolList: unknown format "openapi" in option "from"; did you mean "openai"? ${formats}`,
      }),
    );
    expect(() => importToolList([], { from: 'gemini' as ImportSource, group: 'g' })).toThrowError(
      `did you mean "google"? ${formats}`,
    );
    expect(() =>
      importToolList([], { group: 'g' } as unknown as Parameters<typeof importToolList>[1]),
    ).toThrowError(
      `importToolList: option "from" (the format of the input) is required. ${formats}`,
    );
  });

  it('suggests keywords for keyword groups (see suggest-keywords.test.ts for the ranking)', () => {
    const imported = importToolList(readFixture('livemcpbench/met-museum.json'), {
      from: 'mcp',
      group: 'museum',
      strategy: 'keyword',
      restDocuments: ['search list get images title'],
      keywordLimit: 3,
    });
    expect(imported.keywords).toHaveLength(3);
    expect(imported.keywords[0]).toBe('museum');
    expect(imported.document.selection).toEqual({
      strategy: 'keyword',
      keywords: imported.keywords,
    });
  });

  it('suggests keywords from the tools written, not from a tool it left out', () => {
    const imported = importToolList(
      [
        {
          name: 'bad_pattern',
          description: 'Pattern that backtracks.',
          input_schema: {
            type: 'object',
            properties: { p: { type: 'string', pattern: '^(a+)+$' } },
          },
        },
        {
          name: 'get_invoice',
          description: 'Get an invoice by its number.',
          input_schema: { type: 'object', properties: { number: { type: 'string' } } },
        },
      ],
      { from: 'anthropic', group: 'billing', strategy: 'keyword' },
    );
    expect(imported.warnings).toContainEqual(
      expect.objectContaining({ code: 'TOOL_SKIPPED', tool: 'bad_pattern' }),
    );
    expect(imported.keywords).toContain('invoice');
    expect(imported.keywords).not.toContain('pattern');
    expect(imported.keywords).not.toContain('backtrack');
    expect(imported.document.selection).toEqual({
      strategy: 'keyword',
      keywords: imported.keywords,
    });
    expectLoadable(imported, 'billing');
  });

  it('uses given keywords as they are, and warns that a context group needs setup', () => {
    const imported = importToolList(readFixture('providers/bedrock.json'), {
      from: 'bedrock',
      group: 'orders',
      strategy: 'context',
      keywords: ['order'],
      version: '0.1.0',
      description: 'Orders.',
      executor: 'shop',
    });
    expect(imported.document).toMatchObject({
      version: '0.1.0',
      description: 'Orders.',
      selection: { strategy: 'context', keywords: ['order'] },
    });
    expect(imported.warnings).toContainEqual({
      code: 'CONTEXT_STRATEGY_NEEDS_SETUP',
      message:
        'strategy "context" with no requires_context keys offers the group on every turn, like "always": add metadata.requires_context keys to the tools, or selection.context_check (a predicate registered with contextChecks), to say when it applies',
    });
    expect(
      (imported.document.tools as { metadata: { executor: string } }[])[0]?.metadata.executor,
    ).toBe('shop');
  });

  it('drops an invalid output_schema, and leaves out a tool the loader still rejects', () => {
    const imported = importToolList(
      {
        tools: [
          {
            name: 'bad_output',
            description: 'Returns something.',
            inputSchema: { type: 'object', properties: {} },
            outputSchema: { type: 'object', properties: { x: { type: 'dict' } } },
          },
          {
            name: 'bad_pattern',
            description: 'Sets a value.',
            inputSchema: {
              type: 'object',
              properties: { value: { type: 'string', pattern: '([' } },
            },
          },
          {
            name: 'untyped',
            description: 'Takes anything.',
            inputSchema: { type: 'object', properties: { value: {}, level: { enum: [1, 2] } } },
          },
          { name: 'fine', description: 'Fine.', inputSchema: { type: 'object', properties: {} } },
        ],
      },
      { from: 'mcp', group: 'mixed' },
    );
    const group = expectLoadable(imported, 'mixed');
    expect(group.tools.map((tool) => tool.name)).toEqual(['bad_output', 'untyped', 'fine']);
    expect(group.tools[0]?.output_schema).toBeUndefined();
    // untyped values get a type instead of costing the tool
    expect(group.tools[1]?.input_schema.properties).toEqual({
      // any JSON stays any JSON, in a form group files accept
      value: {
        type: ['string', 'number', 'boolean', 'object', 'array', 'null'],
        items: { allOf: [{}] },
      },
      level: { type: 'integer', enum: [1, 2] },
    });
    expect(
      imported.warnings
        .filter((warning) => warning.code === 'TYPE_INFERRED')
        .map((warning) => warning.tool),
    ).toEqual(['untyped', 'untyped']);
    const notes = imported.warnings.filter((warning) =>
      ['FIELD_DROPPED', 'TOOL_SKIPPED'].includes(warning.code),
    );
    expect(notes.map((warning) => [warning.code, warning.tool])).toEqual([
      ['FIELD_DROPPED', 'bad_output'],
      ['TOOL_SKIPPED', 'bad_pattern'],
    ]);
    expect(notes[1]?.message).toContain(
      'INVALID_PATTERN at /input_schema/properties/value/pattern',
    );
    expect(imported.categories.map((entry) => entry.tool)).toEqual([
      'bad_output',
      'untyped',
      'fine',
    ]);
  });

  it('keeps an untyped "not" schema as the loader accepts it, without narrowing it to a string', () => {
    const imported = importToolList(
      [
        {
          name: 'set_value',
          description: 'Sets any value but null.',
          input_schema: { type: 'object', properties: { value: { not: { type: 'null' } } } },
        },
      ],
      { from: 'anthropic', group: 'values' },
    );
    const group = expectLoadable(imported, 'values');
    expect(group.tools[0]?.input_schema.properties).toEqual({
      value: { allOf: [{ not: { type: 'null' } }] },
    });
  });

  it('cuts descriptions longer than the loader allows', () => {
    const imported = importToolList(
      [
        {
          name: 'long',
          description: 'x'.repeat(50),
          parameters: { type: 'object', properties: {} },
        },
      ],
      {
        from: 'canonical',
        group: 'long',
        description: 'Long.',
        limits: { ...DEFAULT_LOAD_LIMITS, maxDescriptionLength: 20 },
      },
    );
    const tool = (imported.document.tools as { description: string }[])[0]!;
    expect(tool.description).toBe('xxxxxxxxxxxxxx [...]');
    expect(imported.warnings.map((warning) => warning.code)).toContain('DESCRIPTION_TRUNCATED');
  });

  it('refuses an invalid group name or version', () => {
    expect(() => importToolList([], { from: 'canonical', group: 'Bad-Name' })).toThrowError(
      expect.objectContaining({
        code: 'IMPORT_INVALID_GROUP',
        message: expect.stringContaining('try "bad_name"'),
      }),
    );
    expect(() => importToolList([], { from: 'canonical', group: 'ok', version: '1' })).toThrowError(
      /\/version: version "1" is not a strict semantic version/,
    );
  });

  it('refuses input that holds no tool list', () => {
    for (const input of [42, null, { something: 'else' }]) {
      expect(() => importToolList(input, { from: 'mcp', group: 'g' })).toThrowError(
        expect.objectContaining({ code: 'IMPORT_INVALID_INPUT' }),
      );
    }
  });

  it('skips a --from params entry without a params list, naming the entry and the fix', () => {
    const imported = importToolList(
      [
        { name: 'ok', description: 'Fine.', params: [{ name: 'a', type: 'string' }] },
        { name: 'broken', params: [{ type: 'string' }] },
      ],
      { from: 'params', group: 'g' },
    );
    expect(imported.warnings.filter((warning) => warning.code === 'INVALID_PARAM_TOOL')).toEqual([
      {
        code: 'INVALID_PARAM_TOOL',
        pointer: '/1',
        tool: 'broken',
        message:
          'entry 1 ("broken") is not a param-list tool { name, description, params: [{ name, type, ... }] }; skipped: give it a string "name" and a "params" array whose entries each have a string "name" and "type"',
      },
    ]);
  });

  it('takes only what readToolModule returns as a module source', () => {
    expect(() => importToolList([{ name: 'x' }], { from: 'module', group: 'g' })).toThrowError(
      'with from: "module" the input is what readToolModule(file) returns: { file, tools, warnings }',
    );
  });
});

const ANY_JSON = {
  type: ['string', 'number', 'boolean', 'object', 'array', 'null'],
  items: { allOf: [{}] },
};

function propertiesOf(imported: ImportedGroup, tool: string): Record<string, unknown> {
  const found = (imported.document.tools as { name: string; input_schema: JsonSchema }[]).find(
    (entry) => entry.name === tool,
  );
  return found?.input_schema.properties as Record<string, unknown>;
}

function messagesOf(imported: ImportedGroup, code: string): string[] {
  return imported.warnings
    .filter((warning) => warning.code === code)
    .map((warning) => warning.message);
}

describe('importToolList --from params: types as Python and TypeScript spell them', () => {
  it('reads the types a Python module exported with inspect, with no guessed item types', () => {
    const imported = importToolList(readFixture('params/python-inspect.json'), {
      from: 'params',
      group: 'legacy',
    });
    expectLoadable(imported, 'legacy');
    expect(propertiesOf(imported, 'create_invoice')).toMatchObject({
      line_items: { type: 'array', items: { type: 'object' } },
      due_days: { type: ['integer', 'null'], default: 30 },
    });
    expect(propertiesOf(imported, 'get_stock_quote')).toMatchObject({
      tickers: { type: ['string', 'array'], items: { type: 'string' } },
      fields: {
        type: ['array', 'null'],
        items: { type: 'string', enum: ['price', 'volume', 'pe'] },
      },
    });
    expect(propertiesOf(imported, 'get_weather')).toMatchObject({
      units: { type: 'string', enum: ['metric', 'imperial'], default: 'metric' },
    });
    expect(propertiesOf(imported, 'refund_payment')).toMatchObject({
      amount: { type: ['number', 'null'] },
    });
    expect(propertiesOf(imported, 'run_sql')).toMatchObject({
      params: { type: ['object', 'null'] },
    });
    expect(propertiesOf(imported, 'search_orders')).toMatchObject({
      status: { type: ['string', 'null'], enum: ['open', 'shipped', 'cancelled', null] },
    });
    expect(propertiesOf(imported, 'summarize_document')).toMatchObject({
      kwargs: { ...ANY_JSON, description: 'Passed to the summarizer.' },
    });
    expect(messagesOf(imported, 'ARRAY_ITEMS_ADDED')).toEqual([]);
    expect(messagesOf(imported, 'TYPE_CONVERTED')).toContain(
      'type "Optional[list[Literal[\'price\', \'volume\', \'pe\']]]" is not a JSON Schema type; it became {"type":["array","null"],"items":{"type":"string","enum":["price","volume","pe"]}} (at /properties/fields/type)',
    );
  });

  it('reads TypeScript spellings', () => {
    const imported = importToolList(
      [
        {
          name: 'record_metric',
          description: 'Record a metric.',
          params: [
            { name: 'names', type: 'string[]' },
            { name: 'values', type: 'Array<number>' },
            { name: 'labels', type: 'Record<string, number>' },
            { name: 'unit', type: "'ms' | 's'" },
            { name: 'extra', type: 'unknown' },
          ],
        },
      ],
      { from: 'params', group: 'metrics' },
    );
    expectLoadable(imported, 'metrics');
    expect(propertiesOf(imported, 'record_metric')).toEqual({
      names: { type: 'array', items: { type: 'string' } },
      values: { type: 'array', items: { type: 'number' } },
      labels: { type: 'object', additionalProperties: { type: 'number' } },
      unit: { type: 'string', enum: ['ms', 's'] },
      extra: ANY_JSON,
    });
  });

  it('imports Any as any JSON, so the calls that worked before still validate', () => {
    const imported = importToolList(
      [
        {
          name: 'log_event',
          description: 'Log an event.',
          params: [
            { name: 'meta', type: 'Any', required: true },
            { name: 'context', type: 'dict[str, Any]' },
          ],
        },
      ],
      { from: 'params', group: 'events' },
    );
    const group = expectLoadable(imported, 'events');
    const validate = compileSchema(group.tools[0]!.input_schema);
    for (const meta of [{ source: 'crm' }, 'crm', 3, true, null, [[1, 'a'], { b: [] }]]) {
      expect(validate({ meta, context: { source: 'crm', n: [1] } }).valid).toBe(true);
    }
    expect(messagesOf(imported, 'TYPE_CONVERTED')).toContain(
      'type "Any" is not a JSON Schema type; it means any JSON value, so it became every JSON type ["string","number","boolean","object","array","null"] (arrays with "items": {"allOf": [{}]}, any JSON too); narrow it to the real type if you know it (at /properties/meta/type)',
    );
  });

  it('warns when an array has no element type, as --from openai does', () => {
    const params = importToolList(
      [
        {
          name: 'tag_items',
          description: 'Tag items.',
          params: [
            { name: 'arr', type: 'array' },
            { name: 'tags', type: 'list' },
            { name: 'given', type: 'list', items: { type: 'integer' } },
          ],
        },
      ],
      { from: 'params', group: 'tags' },
    );
    const openai = importToolList(
      [
        {
          type: 'function',
          function: {
            name: 'tag_items',
            description: 'Tag items.',
            parameters: {
              type: 'object',
              properties: { arr: { type: 'array' }, tags: { type: 'array' } },
            },
          },
        },
      ],
      { from: 'openai', group: 'tags' },
    );
    expect(messagesOf(params, 'ARRAY_ITEMS_ADDED')).toEqual([
      'an array without "items" was given string items (providers reject arrays without items); fix the element type if it is not a string (at /properties/arr, /properties/tags)',
    ]);
    expect(messagesOf(params, 'ARRAY_ITEMS_ADDED')).toEqual(
      messagesOf(openai, 'ARRAY_ITEMS_ADDED'),
    );
    expect(propertiesOf(params, 'tag_items')).toEqual({
      arr: { type: 'array', items: { type: 'string' } },
      tags: { type: 'array', items: { type: 'string' } },
      given: { type: 'array', items: { type: 'integer' } },
    });
  });

  it('leaves out *args and **kwargs, and parameters marked VAR_POSITIONAL or VAR_KEYWORD, naming them', () => {
    const imported = importToolList(
      [
        {
          name: 'summarize_document',
          description: 'Summarize a document.',
          params: [
            { name: 'doc_id', type: 'str', required: true },
            { name: '*args', type: 'Any' },
            { name: '**kwargs', type: 'Any' },
          ],
        },
        {
          name: 'format_text',
          description: 'Format a text.',
          params: [
            { name: 'text', type: 'str', required: true },
            { name: 'options', type: 'Any', kind: 'VAR_KEYWORD' },
          ],
        },
      ],
      { from: 'params', group: 'docs' },
    );
    expectLoadable(imported, 'docs');
    expect(Object.keys(propertiesOf(imported, 'summarize_document'))).toEqual(['doc_id']);
    expect(Object.keys(propertiesOf(imported, 'format_text'))).toEqual(['text']);
    expect(imported.warnings.filter((warning) => warning.code === 'PARAM_SKIPPED')).toEqual([
      {
        code: 'PARAM_SKIPPED',
        tool: 'summarize_document',
        pointer: '',
        message:
          'the variadic parameters "*args", "**kwargs" were left out: a tool call passes named arguments only; give each value the tool takes a parameter of its own (at the root)',
      },
      {
        code: 'PARAM_SKIPPED',
        tool: 'format_text',
        pointer: '',
        message:
          'the variadic parameter "options" was left out: a tool call passes named arguments only; give each value the tool takes a parameter of its own (at the root)',
      },
    ]);
  });

  it('does not guess a spelling it cannot read: one warning, naming the part and what the value now accepts', () => {
    const imported = importToolList(
      [
        {
          name: 'make_widgets',
          description: 'Make widgets.',
          params: [
            { name: 'parts', type: 'list[widget]' },
            { name: 'size', type: 'Annotated[int, "cm"]' },
            { name: 'blank', type: '' },
            { name: 'open', type: 'list[str' },
          ],
        },
      ],
      { from: 'params', group: 'widgets' },
    );
    expectLoadable(imported, 'widgets');
    const fix =
      'the value now accepts any JSON ("type": ["string","number","boolean","object","array","null"], with items of any JSON); to narrow it, write a JSON Schema type (string, integer, number, boolean, array, object, null) or a spelling such as list[str], dict[str, int], Optional[int] or Literal[\'a\', \'b\']';
    const messages = imported.warnings.map((warning) => warning.message);
    expect(messages.filter((message) => message.includes('/properties/parts/'))).toEqual([
      `type "list[widget]" cannot be read: "widget" is not a type name toolcap knows; ${fix} (at /properties/parts/type)`,
    ]);
    expect(messagesOf(imported, 'TYPE_CONVERTED')[1]).toBe(
      `type "Annotated[int, "cm"]" cannot be read: "Annotated[...]" is not a generic type toolcap knows (it reads list, set, tuple, dict, Optional, Union, Literal, Array and Record, with their typing names); ${fix} (at /properties/size/type)`,
    );
    // one warning per unreadable type, none from the later normalisation
    expect(imported.warnings.map((warning) => [warning.code, warning.pointer])).toEqual([
      ['TYPE_CONVERTED', '/properties/parts/type'],
      ['TYPE_CONVERTED', '/properties/size/type'],
      ['TYPE_CONVERTED', '/properties/blank/type'],
      ['TYPE_CONVERTED', '/properties/open/type'],
    ]);
    // without its type the value takes any JSON, as it did in code: nothing narrowed by a guess
    expect(propertiesOf(imported, 'make_widgets')).toEqual({
      parts: ANY_JSON,
      size: ANY_JSON,
      blank: ANY_JSON,
      open: ANY_JSON,
    });
  });
});

describe('importToolList: what Zod 4 writes', () => {
  const schema = z.toJSONSchema(
    z.object({
      channel: z.string().startsWith('#'),
      suffix: z.string().endsWith('.pdf'),
      word: z.string().includes('ok'),
      tag: z.string().startsWith('#').endsWith('!'),
      id: z.cuid(),
      page: z.number().int().min(1),
      count: z.number().int(),
      small: z.int32(),
      meta: z.any(),
      extra: z.unknown(),
    }),
  );

  it('is what these tests assume (format names beside patterns, safe-integer bounds, {})', () => {
    expect(schema.properties).toMatchObject({
      channel: { type: 'string', format: 'starts_with', pattern: '^#.*' },
      suffix: { format: 'ends_with' },
      word: { format: 'includes', pattern: 'ok' },
      tag: { format: 'ends_with', allOf: [{ pattern: '^#.*' }, { pattern: '.*!$' }] },
      id: { format: 'cuid' },
      count: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
      meta: {},
    });
  });

  function importZod() {
    return importToolList(
      [{ name: 'post_message', description: 'Post a message.', inputSchema: schema }],
      { from: 'mcp', group: 'chat' },
    );
  }

  it("removes Zod's format names where a pattern makes the check, with a warning", () => {
    const imported = importZod();
    // no diagnostics, warnings included: no UNKNOWN_FORMAT is left for validate --strict
    const group = expectLoadable(imported, 'chat');
    const properties = propertiesOf(imported, 'post_message');
    expect(properties).toMatchObject({
      channel: { type: 'string', pattern: '^#.*' },
      tag: { type: 'string', allOf: [{ pattern: '^#.*' }, { pattern: '.*!$' }] },
    });
    for (const name of ['channel', 'suffix', 'word', 'tag', 'id']) {
      expect(properties[name]).not.toHaveProperty('format');
    }
    expect(messagesOf(imported, 'KEYWORD_DROPPED')).toEqual([
      '"format": "starts_with" is Zod\'s name for a check its "pattern" already makes, and no JSON Schema validator knows it; the format was removed, the pattern kept (at /properties/channel/format)',
      '"format": "ends_with" is Zod\'s name for a check its "pattern" already makes, and no JSON Schema validator knows it; the format was removed, the pattern kept (at /properties/suffix/format, /properties/tag/format)',
      '"format": "includes" is Zod\'s name for a check its "pattern" already makes, and no JSON Schema validator knows it; the format was removed, the pattern kept (at /properties/word/format)',
      '"format": "cuid" is Zod\'s name for a check its "pattern" already makes, and no JSON Schema validator knows it; the format was removed, the pattern kept (at /properties/id/format)',
    ]);
    const validate = compileSchema(group.tools[0]!.input_schema);
    const call = {
      channel: '#general',
      suffix: 'a.pdf',
      word: 'look',
      tag: '#x!',
      id: 'cjld2cjxh0000qzrmn831i7rn',
      page: 1,
      count: 3,
      small: 1,
      meta: { source: 'crm' },
      extra: [1],
    };
    expect(validate(call).valid).toBe(true);
    expect(validate({ ...call, channel: 'general' }).valid).toBe(false);
    expect(validate({ ...call, tag: '#x' }).valid).toBe(false);
  });

  it('removes the safe-integer bounds of z.number().int() silently, and keeps bounds that say something', () => {
    const imported = importZod();
    const properties = propertiesOf(imported, 'post_message');
    expect(properties.count).toEqual({ type: 'integer' });
    expect(properties.page).toEqual({ type: 'integer', minimum: 1 });
    // int32 bounds say something; they stay
    expect(properties.small).toEqual({
      type: 'integer',
      minimum: -2147483648,
      maximum: 2147483647,
    });
    expect(imported.warnings.map((warning) => warning.message).join('\n')).not.toMatch(
      /minimum|maximum|9007199254740991/,
    );
  });

  it('keeps a Zod format with no pattern beside it and reports it as the loader will', () => {
    const imported = importToolList(
      [
        {
          name: 'check_token',
          description: 'Check a token.',
          inputSchema: z.toJSONSchema(z.object({ token: z.jwt() })),
        },
      ],
      { from: 'mcp', group: 'auth' },
    );
    expect(propertiesOf(imported, 'check_token')).toEqual({
      token: { type: 'string', format: 'jwt' },
    });
    expect(messagesOf(imported, 'KEYWORD_DROPPED')).toEqual([]);
    // the import's own warning is the loader's UNKNOWN_FORMAT, word for word
    const loaded = parseGroupVersion(JSON.stringify(imported.document), 'auth_tools.json');
    expect(loaded.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['UNKNOWN_FORMAT']);
    const loaderMessage = loaded.diagnostics[0]!.message;
    expect(loaderMessage).toContain(
      'format "jwt" is not a format toolcap checks, so any string passes',
    );
    expect(messagesOf(imported, 'UNKNOWN_FORMAT')).toEqual([
      `${loaderMessage.slice(loaderMessage.indexOf('format "jwt"'))} (at /properties/token/format)`,
    ]);
  });
});
