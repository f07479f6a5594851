import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';

function project(transcript: string): string {
  return createTempDir({
    'schemas/calendar_tools.json': makeGroup('calendar', {
      version: '2.0.0',
      tools: [makeTool({ name: 'create_event' }), makeTool({ name: 'get_agenda' })],
    }),
    'pairs.jsonl': transcript,
  });
}

const pairs = (...entries: [string, string][]) =>
  entries.map(([message, tool]) => JSON.stringify({ message, tool })).join('\n');

describe('toolcap learn', () => {
  it('prints what it added per group and tool, and writes the file', async () => {
    const dir = project(
      pairs(
        ['add lunch with Kim on Friday', 'create_event'],
        ['add lunch with Kim on Friday', 'create_event'],
        ['mail bob@example.com the agenda', 'send_mail'],
      ),
    );
    const result = await runCli(['learn', '--from', 'pairs', 'pairs.jsonl'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'Read pairs.jsonl (pairs): 3 line(s), 3 pair(s), 3 tool call(s)',
        '',
        `calendar 2.0.0 -> 2.0.1  ${join('schemas', 'calendar_tools.json')}  (written)`,
        'TOOL          CALLS  ADDED  TOTAL',
        'create_event  2      1      1',
        '  create_event + add lunch with Kim on Friday',
        '',
        'Not added: 1 duplicate(s), 0 near-duplicate(s), 0 over the cap of 20, 0 empty, 0 call(s) without a user message',
        '',
      ].join('\n'),
    );
    expect(result.stderr).toBe('Skipped 1 tool(s) no group defines: send_mail (1)\n');
    const file = JSON.parse(readFileSync(join(dir, 'schemas/calendar_tools.json'), 'utf8'));
    expect(file.version).toBe('2.0.1');
  });

  it('learns the request before a confirmation, and counts confirmations with none', async () => {
    const call = (name: string) => ({ type: 'function', function: { name, arguments: '{}' } });
    const dir = createTempDir({
      'schemas/calendar_tools.json': makeGroup('calendar', {
        version: '2.0.0',
        tools: [makeTool({ name: 'create_event' }), makeTool({ name: 'get_agenda' })],
      }),
      'chats.jsonl': [
        {
          messages: [
            { role: 'user', content: 'book lunch with Kim on Friday' },
            { role: 'assistant', content: 'At noon. Shall I?' },
            { role: 'user', content: 'yes go ahead' },
            { role: 'assistant', tool_calls: [call('create_event')] },
          ],
        },
        {
          messages: [
            { role: 'user', content: 'hello' },
            { role: 'assistant', content: 'Want your agenda?' },
            { role: 'user', content: 'ok sure' },
            { role: 'assistant', tool_calls: [call('get_agenda')] },
          ],
        },
      ]
        .map((line) => JSON.stringify(line))
        .join('\n'),
    });
    const result = await runCli(['learn', '--from', 'openai', 'chats.jsonl'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('  create_event + book lunch with Kim on Friday\n');
    expect(result.stdout).toContain(
      'Not added: 0 duplicate(s), 0 near-duplicate(s), 0 over the cap of 20, 0 empty, 0 call(s) without a user message, 1 call(s) whose user message was only a confirmation ("yes go ahead") with no earlier request\n',
    );
    const json = await runCli(['learn', '--from', 'openai', 'chats.jsonl', '--dry-run', '--json'], {
      cwd: dir,
    });
    expect((json.json() as { skipped: Record<string, number> }).skipped.no_content_words).toBe(1);
  });

  it('--dry-run says so and writes nothing; --json prints the report', async () => {
    const dir = project(pairs(['what is on today', 'get_agenda']));
    const before = readFileSync(join(dir, 'schemas/calendar_tools.json'), 'utf8');
    const text = await runCli(['learn', '--from', 'pairs', 'pairs.jsonl', '--dry-run'], {
      cwd: dir,
    });
    expect(text.stdout).toContain('calendar 2.0.0 -> 2.0.1');
    expect(text.stdout).toContain('(dry run, not written)');
    const json = await runCli(
      ['learn', '--from', 'pairs', 'pairs.jsonl', '--dry-run', '--json', '--max-per-tool', '5'],
      { cwd: dir },
    );
    expect(json.code).toBe(0);
    expect(json.json()).toMatchObject({
      format: 'pairs',
      dry_run: true,
      max_per_tool: 5,
      groups: [
        {
          group: 'calendar',
          changed: true,
          written: false,
          tools: [{ tool: 'get_agenda', calls: 1, added: ['what is on today'], total: 1 }],
        },
      ],
    });
    expect(readFileSync(join(dir, 'schemas/calendar_tools.json'), 'utf8')).toBe(before);
  });

  it('lists skipped lines with file and line number on stderr and still exits 0', async () => {
    const dir = project(['{oops', pairs(['hello', 'create_event']), '{"message": 1}'].join('\n'));
    const result = await runCli(['learn', '--from', 'pairs', 'pairs.jsonl', '--no-redact'], {
      cwd: dir,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      /^Skipped 2 line\(s\):\n {2}pairs\.jsonl:1: not valid JSON \(.*\); each line must be one JSON object\n {2}pairs\.jsonl:3: "message" must be a string \(the user's message\), got a number\n$/,
    );
  });

  it('says when no tool of the group files was called', async () => {
    const dir = project(pairs(['hi', 'nothing_here']));
    const result = await runCli(['learn', '--from', 'pairs', 'pairs.jsonl'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('\nNo tool of the group files was called.\n');
  });

  it('exits 1 when the transcript or the schema directory cannot be read', async () => {
    const dir = project('');
    const missing = await runCli(['learn', '--from', 'openai', 'nope.jsonl'], { cwd: dir });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /^toolcap: cannot read nope\.jsonl: ENOENT.*; check the path\n$/,
    );
    const noSchemas = await runCli(
      ['learn', '--from', 'openai', 'pairs.jsonl', '--schemas', 'elsewhere'],
      { cwd: dir },
    );
    expect(noSchemas.code).toBe(1);
    expect(noSchemas.stderr).toMatch(/schemas path elsewhere does not exist; pass the directory/);
  });

  it.each([
    [[], /--from FORMAT is required; use one of openai, anthropic, pairs/],
    [['--from', 'csv'], /unknown --from "csv"; use one of openai, anthropic, pairs/],
    [
      ['--from', 'pairs', '--max-per-tool', '0'],
      /--max-per-tool must be a positive integer, got "0"/,
    ],
    [
      ['--from', 'pairs', '--max-per-tool', '51'],
      /--max-per-tool must be at most 50 \(the most example requests a tool may have\), got 51/,
    ],
    [['--from', 'pairs', '--redact'], /unknown option --redact for "toolcap learn"/],
  ])('usage error %j exits 2', async (options, message) => {
    const dir = project('');
    const withFile = options.length === 0 ? ['pairs.jsonl'] : [...options, 'pairs.jsonl'];
    const result = await runCli(['learn', ...withFile], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toContain('Run "toolcap help learn" for its options.');
  });

  it('needs exactly one FILE', async () => {
    const result = await runCli(['learn', '--from', 'pairs'], { cwd: project('') });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/"toolcap learn" takes 1 argument\(s\) \(FILE\), got 0/);
  });

  it('is listed in toolcap help', async () => {
    const result = await runCli(['help']);
    expect(result.stdout).toMatch(
      /\n {2}learn {6}add past users' messages to the tools they led to/,
    );
  });

  it('says how to learn for an upstream group that has no overlay file', async () => {
    const dir = project(
      `${JSON.stringify({ message: 'draft the notes', tool: 'draft', group: 'gitlab', server: 'gitlab', server_tool: 'draft' })}\n`,
    );
    const result = await runCli(['learn', '--from', 'pairs', 'pairs.jsonl'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      [
        'Skipped 1 tool(s) no group defines: draft (1, group gitlab)',
        '  They are tools of upstream MCP servers in the groups gitlab, which no valid group file here defines: give each an overlay file (gitlab_tools.json with "tools": [] and "x-upstream": {}, its header complete; see docs/guide/mcp.md), then run learn again.',
        '',
      ].join('\n'),
    );
  });

  it('says to add server_tool to a pair that names a tool as the gateway renamed it', async () => {
    const dir = createTempDir({
      'schemas/beta_tools.json': { ...makeGroup('beta', { tools: [] }), 'x-upstream': {} },
      'p.jsonl': `${JSON.stringify({ message: 'say it back to me', tool: 'beta_echo', group: 'beta' })}\n`,
    });
    const before = readFileSync(join(dir, 'schemas/beta_tools.json'), 'utf8');
    const result = await runCli(['learn', '--from', 'pairs', 'p.jsonl'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      [
        'Skipped 1 tool(s) named as the gateway may have renamed them: beta_echo (1, group beta)',
        '  A pair\'s "tool" is the name the gateway lists, and the gateway lists a server\'s tool as "<group>_<name>" when another group already uses the name; the overlay has no key that tells which tool "beta_echo" is. Add "server_tool" to those pairs: the tool\'s name on its server (such as "echo" for "beta_echo"), as toolcap mcp --record-pairs writes it, then run learn again.',
        '',
      ].join('\n'),
    );
    expect(readFileSync(join(dir, 'schemas/beta_tools.json'), 'utf8')).toBe(before);
  });

  it('names the group of an unknown tool, and the pairs whose group does not define their tool', async () => {
    const dir = project(
      [
        JSON.stringify({ message: 'x', tool: 'nope_tool', group: 'research' }),
        JSON.stringify({ message: 'add lunch with Kim', tool: 'create_event', group: 'finance' }),
      ].join('\n'),
    );
    const result = await runCli(['learn', '--from', 'pairs', 'pairs.jsonl'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('  create_event + add lunch with Kim\n');
    expect(result.stderr).toBe(
      [
        'Skipped 1 tool(s) no group defines: nope_tool (1, group research)',
        '1 tool(s) of pairs whose "group" does not define them: create_event (1, named finance, in calendar)',
        '  Their requests were added to the group that defines the tool. If the pairs meant another tool, fix their "tool" or "group" (and the requests added here), then run learn again.',
        '',
      ].join('\n'),
    );
  });

  it('exits 1 for a UTF-16 transcript, saying so once', async () => {
    const dir = project('');
    writeFileSync(
      join(dir, 'pairs.jsonl'),
      Buffer.from(
        `${pairs(['add lunch', 'create_event'], ['show my day', 'get_agenda'])}\n`,
        'utf16le',
      ),
    );
    const result = await runCli(['learn', '--from', 'pairs', 'pairs.jsonl'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'toolcap: pairs.jsonl is UTF-16 (little-endian), not UTF-8: save it as UTF-8 (a transcript is JSON Lines in UTF-8), then run learn again\n',
    );
  });
});
