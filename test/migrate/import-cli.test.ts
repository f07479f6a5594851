import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';

const FIXTURES = join(import.meta.dirname, 'fixtures');

function projectWith(files: Record<string, unknown> = {}): string {
  return createTempDir({
    'met.json': readFileSync(join(FIXTURES, 'livemcpbench/met-museum.json'), 'utf8'),
    'bfcl.json': readFileSync(join(FIXTURES, 'bfcl/functions.json'), 'utf8'),
    ...files,
  });
}

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

describe('toolcap import', () => {
  it('writes a group file that passes toolcap validate, and prints the mapping and warnings', async () => {
    const dir = projectWith();
    const result = await runCli(['import', '--from', 'mcp', 'met.json', '--group', 'museum'], {
      cwd: dir,
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'Wrote schemas/museum_tools.json: group "museum" 1.0.0, 3 tool(s), strategy always',
        'Renamed (3):',
        '  list-departments -> list_departments',
        '  search-museum-objects -> search_museum_objects',
        '  get-museum-object -> get_museum_object',
        'Categories: 2 retrieval, 1 analysis (0 from the description, 0 defaulted)',
        'Warnings (3):',
        '  TOOL_RENAMED list_departments: tool name "list-departments" is not valid for every provider; it is "list_departments" now',
        '  TOOL_RENAMED search_museum_objects: tool name "search-museum-objects" is not valid for every provider; it is "search_museum_objects" now',
        '  TOOL_RENAMED get_museum_object: tool name "get-museum-object" is not valid for every provider; it is "get_museum_object" now',
        '',
      ].join('\n'),
    );
    const file = readJson(join(dir, 'schemas/museum_tools.json'));
    expect(file).toMatchObject({
      $schema: 'https://unpkg.com/tool-capabilities/schemas/tool-group.schema.json',
      group: 'museum',
      description: 'Tools imported from met.json (mcp).',
      tools: [
        {
          name: 'list_departments',
          'x-original-name': 'list-departments',
          metadata: { executor: 'museum' },
        },
        { name: 'search_museum_objects' },
        { name: 'get_museum_object' },
      ],
    });
    const validate = await runCli(['validate'], { cwd: dir });
    expect(validate.stdout).toBe('1 group(s), 3 tool(s): 0 error(s), 0 warning(s)\n');
    expect(validate.code).toBe(0);
  });

  it('--json prints the report; every option is applied', async () => {
    const dir = projectWith();
    const result = await runCli(
      [
        'import',
        '--from',
        'canonical',
        'bfcl.json',
        '--group',
        'bfcl',
        '--version',
        '0.2.0',
        '--executor',
        'gorilla',
        '--strategy',
        'keyword',
        '--keywords',
        'triangle, factorial,,http',
        '--description',
        'BFCL functions.',
        '--out',
        'groups',
        '--json',
      ],
      { cwd: dir },
    );
    expect(result.code).toBe(0);
    const report = result.json() as Record<string, unknown>;
    expect(report).toMatchObject({
      file: 'groups/bfcl_tools.json',
      group: 'bfcl',
      version: '0.2.0',
      strategy: 'keyword',
      tools: 5,
      keywords: ['triangle', 'factorial', 'http'],
      diagnostics: [],
    });
    expect(report.renamed).toContainEqual({
      from: 'math.factorial',
      to: 'math_factorial',
      reason: 'invalid',
    });
    expect(report.categories).toContainEqual({
      tool: 'calculate_triangle_area',
      category: 'analysis',
      source: 'inferred',
    });
    expect((report.warnings as { code: string }[]).map((warning) => warning.code)).toContain(
      'TYPE_CONVERTED',
    );
    const file = readJson(join(dir, 'groups/bfcl_tools.json'));
    expect(file).toMatchObject({
      version: '0.2.0',
      description: 'BFCL functions.',
      selection: { strategy: 'keyword', keywords: ['triangle', 'factorial', 'http'] },
    });
    expect((file.tools as { metadata: { executor: string } }[])[0]?.metadata.executor).toBe(
      'gorilla',
    );
  });

  it('--keywords without --strategy makes a keyword group; with --strategy always it notes that they only rank', async () => {
    const dir = projectWith();
    const implied = await runCli(
      ['import', '--from', 'mcp', 'met.json', '--group', 'museum', '--keywords', 'museum,artwork'],
      { cwd: dir },
    );
    expect(implied.code).toBe(0);
    expect(implied.stderr).toBe('');
    expect(implied.stdout).toContain('strategy keyword');
    expect(readJson(join(dir, 'schemas/museum_tools.json')).selection).toEqual({
      strategy: 'keyword',
      keywords: ['museum', 'artwork'],
    });
    const pinned = await runCli(
      [
        'import',
        '--from',
        'mcp',
        'met.json',
        '--group',
        'met',
        '--strategy',
        'always',
        '--keywords',
        'museum',
        '--out',
        'other',
      ],
      { cwd: dir },
    );
    expect(pinned.code).toBe(0);
    expect(pinned.stderr).toBe(
      'toolcap import: note: an always group is offered on every turn, so --keywords do not decide when; they only help rank its tools (search, --relevance). Use --strategy keyword (or leave --strategy out) for keywords that select the group\n',
    );
    expect(readJson(join(dir, 'other/met_tools.json')).selection).toEqual({
      strategy: 'always',
      keywords: ['museum'],
    });
  });

  it('with --rename-collisions, suggests keywords against the other groups of --out and renames around their tool names', async () => {
    const dir = projectWith({
      'schemas/art_tools.json': makeGroup('art', {
        tools: [makeTool({ name: 'list_departments', description: 'List art departments.' })],
      }),
    });
    const result = await runCli(
      [
        'import',
        '--from',
        'mcp',
        'met.json',
        '--group',
        'museum',
        '--strategy',
        'keyword',
        '--rename-collisions',
      ],
      { cwd: dir },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '  list-departments -> museum_list_departments (name used by another group)\n',
    );
    expect(result.stdout).toMatch(/\nKeywords \(edit them in the file\): museum, /);
    expect(result.stdout).toContain('NAME_COLLISION museum_list_departments');
    const validate = await runCli(['validate'], { cwd: dir });
    expect(validate.code).toBe(0);
  });

  it('leaves out tools that other groups of --out define, naming the group, so a re-import defines nothing twice', async () => {
    const dir = createTempDir({
      'tools.json': readFileSync(join(FIXTURES, 'providers/openai-strict.json'), 'utf8'),
    });
    const args = ['import', '--from', 'openai', 'tools.json', '--group', 'general'];
    expect((await runCli(args, { cwd: dir })).code).toBe(0);
    // the user moves create_event into a calendar group, and get_event too under a new name
    const general = readJson(join(dir, 'schemas/general_tools.json'));
    const tools = general.tools as Record<string, unknown>[];
    const moved = tools.filter((tool) => tool.name === 'create_event' || tool.name === 'get_event');
    moved[1]!.name = 'calendar_get_event';
    moved[1]!['x-original-name'] = 'get_event';
    writeFileSync(
      join(dir, 'schemas/calendar_tools.json'),
      JSON.stringify({ ...general, group: 'calendar', tools: moved }),
    );
    writeFileSync(
      join(dir, 'schemas/general_tools.json'),
      JSON.stringify({ ...general, tools: tools.filter((tool) => !moved.includes(tool)) }),
    );

    const again = await runCli([...args, '--force'], { cwd: dir });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(
      '  TOOL_IN_OTHER_GROUP create_event: tool "create_event" is already defined in group "calendar" (schemas/calendar_tools.json); left out, so it is not defined twice. To import it here, remove it from that group first (or import with --rename-collisions to keep both, this one renamed)\n',
    );
    expect(again.stdout).toContain(
      '  TOOL_IN_OTHER_GROUP get_event: tool "get_event" is already defined in group "calendar" (schemas/calendar_tools.json) as "calendar_get_event"; left out,',
    );
    expect(again.stdout).not.toContain('NAME_COLLISION');
    expect(
      (readJson(join(dir, 'schemas/general_tools.json')).tools as { name: string }[]).map(
        (tool) => tool.name,
      ),
    ).toEqual(['get_weather', 'find_free_slots', 'ping']);
    const validate = await runCli(['validate'], { cwd: dir });
    expect(validate.stdout).toBe('2 group(s), 5 tool(s): 0 error(s), 0 warning(s)\n');

    // a list whose every tool lives elsewhere writes nothing, and says why
    writeFileSync(
      join(dir, 'moved.json'),
      JSON.stringify({ tools: (readJson(join(dir, 'tools.json')).tools as unknown[]).slice(0, 1) }),
    );
    const none = await runCli(
      ['import', '--from', 'openai', 'moved.json', '--group', 'general', '--force'],
      { cwd: dir },
    );
    expect(none.code).toBe(1);
    expect(none.stderr).toBe(
      'toolcap: no tool of moved.json could be imported: its only tool was left out: TOOL_IN_OTHER_GROUP create_event: tool "create_event" is already defined in group "calendar" (schemas/calendar_tools.json); left out, so it is not defined twice. To import it here, remove it from that group first (or import with --rename-collisions to keep both, this one renamed). Nothing was written\n',
    );
  });

  it('refuses to overwrite an existing file without --force', async () => {
    const dir = projectWith();
    const args = ['import', '--from', 'mcp', 'met.json', '--group', 'museum'];
    expect((await runCli(args, { cwd: dir })).code).toBe(0);
    const again = await runCli(args, { cwd: dir });
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      'toolcap: refusing to overwrite schemas/museum_tools.json; pass --force to replace it, or choose another --group or --out\n',
    );
    const forced = await runCli([...args, '--force', '--version', '2.0.0'], { cwd: dir });
    expect(forced.code).toBe(0);
    expect(readJson(join(dir, 'schemas/museum_tools.json')).version).toBe('2.0.0');
  });

  it('reports a file the loader rejects next to it (exit 1)', async () => {
    // another file defines the same group and version and is read first
    const dir = projectWith({ 'schemas/a/museum_tools.json': makeGroup('museum') });
    const result = await runCli(['import', '--from', 'mcp', 'met.json', '--group', 'museum'], {
      cwd: dir,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('error DUPLICATE_GROUP_VERSION');
    expect(result.stderr).toContain(
      'toolcap: schemas/museum_tools.json was written but does not load cleanly',
    );
  });

  it('points "$schema" at the installed package\'s schema when there is one', async () => {
    const dir = projectWith({
      'node_modules/tool-capabilities/package.json': {
        name: 'tool-capabilities',
        version: '0.1.0',
        exports: { './tool-group.schema.json': './schemas/tool-group.schema.json' },
      },
      'node_modules/tool-capabilities/schemas/tool-group.schema.json': { type: 'object' },
    });
    const result = await runCli(['import', '--from', 'mcp', 'met.json', '--group', 'museum'], {
      cwd: dir,
    });
    expect(result.code).toBe(0);
    expect(readJson(join(dir, 'schemas/museum_tools.json')).$schema).toBe(
      '../node_modules/tool-capabilities/schemas/tool-group.schema.json',
    );
  });

  it('points "$schema" through a symlinked package (npm link, pnpm), not at its real path', async () => {
    const elsewhere = createTempDir({
      'checkout/package.json': {
        name: 'tool-capabilities',
        version: '0.1.0',
        exports: { './tool-group.schema.json': './schemas/tool-group.schema.json' },
      },
      'checkout/schemas/tool-group.schema.json': { type: 'object' },
    });
    const dir = projectWith();
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(join(elsewhere, 'checkout'), join(dir, 'node_modules', 'tool-capabilities'), 'dir');
    const result = await runCli(['import', '--from', 'mcp', 'met.json', '--group', 'museum'], {
      cwd: dir,
    });
    expect(result.code).toBe(0);
    expect(readJson(join(dir, 'schemas/museum_tools.json')).$schema).toBe(
      '../node_modules/tool-capabilities/schemas/tool-group.schema.json',
    );
    // a deeper --out finds the same package further up
    const nested = await runCli(
      ['import', '--from', 'mcp', 'met.json', '--group', 'museum', '--out', 'agent/schemas'],
      { cwd: dir },
    );
    expect(nested.code).toBe(0);
    expect(readJson(join(dir, 'agent/schemas/museum_tools.json')).$schema).toBe(
      '../../node_modules/tool-capabilities/schemas/tool-group.schema.json',
    );
  });

  it('writes nothing when no tool could be imported (usually the wrong --from)', async () => {
    const dir = projectWith({
      'none.json': '{"tools": []}',
      'hosted.json': '{"tools": [{"type": "web_search_20250305", "name": "web_search"}]}',
      'redos.json': {
        tools: [
          {
            type: 'function',
            function: {
              name: 'match_it',
              parameters: {
                type: 'object',
                properties: { s: { type: 'string', pattern: '(a+)+$' } },
              },
            },
          },
        ],
      },
    });
    const wrong = await runCli(['import', '--from', 'bedrock', 'met.json', '--group', 'g'], {
      cwd: dir,
    });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe(
      'toolcap: met.json holds mcp tools, not bedrock ones: entry 0 ("list-departments") keeps its parameters in "inputSchema" (bedrock tools keep them in "toolSpec.inputSchema.json"). Nothing was written; use --from mcp\n',
    );
    const hosted = await runCli(['import', '--from', 'anthropic', 'hosted.json', '--group', 'g'], {
      cwd: dir,
    });
    expect(hosted.code).toBe(1);
    expect(hosted.stderr).toBe(
      'toolcap: no tool of hosted.json could be imported as --from anthropic (1 warning(s); the first: ENTRY_SKIPPED /0: entry 0 of the anthropic payload was skipped: "web_search_20250305" is a server tool, not a custom tool); check --from. Nothing was written\n',
    );
    // the tool is an openai tool, and the loader rejects it: say why, not "check --from"
    const redos = await runCli(['import', '--from', 'openai', 'redos.json', '--group', 'g'], {
      cwd: dir,
    });
    expect(redos.code).toBe(1);
    expect(redos.stderr).toMatch(
      /^toolcap: no tool of redos\.json could be imported: its only tool was left out: TOOL_SKIPPED match_it: tool "match_it" was left out because the loader rejects it: INVALID_PATTERN at \/input_schema\/properties\/s\/pattern: .*pattern "\(a\+\)\+\$" can backtrack catastrophically.*\. Nothing was written\n$/,
    );
    expect(redos.stderr).not.toContain('check --from');
    expect(redos.stderr).not.toContain('DESCRIPTION_MISSING');
    const empty = await runCli(['import', '--from', 'mcp', 'none.json', '--group', 'g'], {
      cwd: dir,
    });
    expect(empty.stderr).toContain('(it holds no tools)');
    expect(existsSync(join(dir, 'schemas'))).toBe(false);
  });

  it.each([
    [
      ['met.json', '--group', 'g'],
      '--from FORMAT is required; use one of openai, openai-responses',
    ],
    [['--from', 'soap', 'met.json', '--group', 'g'], 'unknown --from "soap"'],
    [['--from', 'mcp', 'met.json'], '--group NAME is required'],
    [['--from', 'mcp', 'met.json', '--group', 'Met-Museum'], 'try --group met_museum'],
    [['--from', 'mcp', 'met.json', '--group', 'g', '--version', 'v1'], '--version "v1" is not'],
    [
      ['--from', 'mcp', 'met.json', '--group', 'g', '--executor', '../x'],
      '--executor "../x" is not',
    ],
    [['--from', 'mcp', 'met.json', '--group', 'g', '--strategy', 'never'], 'unknown --strategy'],
    [['--from', 'mcp', '--group', 'g'], '"toolcap import" takes 1 argument(s) (FILE), got 0'],
  ])('usage error %j', async (args, message) => {
    const result = await runCli(['import', ...args], { cwd: projectWith() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('fails with a clear message when FILE is missing, empty, not JSON or not a tool list', async () => {
    const dir = projectWith({
      'empty.json': '',
      'bad.json': '{\n  "tools": [,]\n}',
      'odd.json': '42',
    });
    const run = (file: string) =>
      runCli(['import', '--from', 'mcp', file, '--group', 'g'], { cwd: dir });
    const missing = await run('nope.json');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^toolcap: cannot read nope\.json: ENOENT/);
    expect((await run('empty.json')).stderr).toBe(
      'toolcap: empty.json is empty; it must hold a JSON tool list\n',
    );
    expect((await run('bad.json')).stderr).toBe(
      'toolcap: bad.json:2:13: invalid JSON: expected a value\n',
    );
    const odd = await run('odd.json');
    expect(odd.code).toBe(1);
    expect(odd.stderr).toBe(
      'toolcap: odd.json: the file holds no tool list: expected an array of tools, an object with "tools": [...] (e.g. an MCP tools/list result), or one tool object with a "name"\n',
    );
    expect(existsSync(join(dir, 'schemas'))).toBe(false);
  });

  it('names the option that reads a file of the wrong kind: a module, a JSON list, a Python file', async () => {
    const dir = projectWith({
      'tools.mjs': 'export const tools = [];\n',
      'tools.py': 'def get_weather(city: str) -> dict:\n    pass\n',
    });
    const run = (from: string, file: string) =>
      runCli(['import', '--from', from, file, '--group', 'g'], { cwd: dir });
    const module = await run('openai', 'tools.mjs');
    expect(module.code).toBe(1);
    expect(module.stderr).toBe(
      'toolcap: tools.mjs is a JavaScript module, not a JSON file, so --from openai cannot read it: use --from module to read the tools it exports\n',
    );
    const json = await run('module', 'met.json');
    expect(json.code).toBe(1);
    expect(json.stderr).toBe(
      'toolcap: met.json is a JSON file, not a JavaScript module: --from module reads the tools a module exports. For a JSON tool list, use --from openai, openai-responses, anthropic, google, bedrock, mcp, canonical or params instead (the format the file holds)\n',
    );
    const python = 'toolcap: tools.py is a Python file';
    const fix =
      'toolcap loads JavaScript modules only, so it cannot read tools defined in Python. Export them to JSON from Python, then run toolcap import on that file: with --from openai for OpenAI tool definitions (LangChain\'s convert_to_openai_tool(fn) for each tool; with pydantic, {"type": "function", "function": {name, description, "parameters": Model.model_json_schema()}}), or with --from params for {name, description, params: [{name, type, description, required, default}]} entries (see "Tools defined in Python" in docs/guide/migration.md)\n';
    const asModule = await run('module', 'tools.py');
    expect(asModule.code).toBe(1);
    expect(asModule.stderr).toBe(`${python}: ${fix}`);
    const asJson = await run('params', 'tools.py');
    expect(asJson.code).toBe(1);
    expect(asJson.stderr).toBe(`${python}, not a JSON file: ${fix}`);
    expect(existsSync(join(dir, 'schemas'))).toBe(false);
  });

  it('warns that a tools/list page with a nextCursor is not every tool', async () => {
    const dir = projectWith({
      'page.json': readFileSync(join(FIXTURES, 'providers/mcp-paginated.json'), 'utf8'),
    });
    const result = await runCli(['import', '--from', 'mcp', 'page.json', '--group', 'files'], {
      cwd: dir,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      '  TOOL_LIST_PAGINATED: the tools/list result has "nextCursor": "abc", so it is one page of the server\'s tools, and only that page was imported. To import every tool, read the server itself (toolcap import --from-server CONFIG --server NAME fetches every page)',
    );
  });
});
