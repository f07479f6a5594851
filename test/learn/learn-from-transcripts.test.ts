import { chmodSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { learnFromTranscripts } from '../../src/migrate/learn-from-transcripts.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** A calendar group (2-space JSON) and a notes group; `extra` adds or replaces files. */
function project(extra: Record<string, unknown> = {}): string {
  return createTempDir({
    'schemas/calendar_tools.json': json(
      makeGroup('calendar', {
        version: '1.2.0',
        tools: [
          makeTool({ name: 'create_event', description: 'Create a calendar event.' }),
          makeTool({
            name: 'get_agenda',
            description: 'List the events of a day.',
            example_requests: ["what's on my calendar today"],
          }),
        ],
      }),
    ),
    'schemas/notes_tools.json': json(
      makeGroup('notes', { tools: [makeTool({ name: 'write_note' })] }),
    ),
    ...extra,
  });
}

const openAILine = (user: string, ...tools: string[]) =>
  JSON.stringify({
    messages: [
      { role: 'user', content: user },
      {
        role: 'assistant',
        tool_calls: tools.map((name, index) => ({
          id: `c${index}`,
          type: 'function',
          function: { name, arguments: '{}' },
        })),
      },
      ...tools.map((_, index) => ({ role: 'tool', tool_call_id: `c${index}`, content: 'ok' })),
      { role: 'assistant', content: 'Done.' },
    ],
  });

function readGroup(dir: string, group: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(dir, `schemas/${group}_tools.json`), 'utf8')) as Record<
    string,
    unknown
  >;
}

function exampleRequests(dir: string, group: string, index: number): unknown {
  return (readGroup(dir, group).tools as Record<string, unknown>[])[index]?.example_requests;
}

describe('learnFromTranscripts', () => {
  it('adds the user messages to the called tools, bumps the patch version, and reports', async () => {
    const dir = project({
      'chats.jsonl': [
        openAILine('Set up a meeting with Dana on Friday at 3', 'create_event'),
        openAILine('what is on my calendar today', 'get_agenda'),
        openAILine(
          'block two hours tomorrow for deep work, then show my day',
          'create_event',
          'get_agenda',
        ),
        openAILine('email the summary to me', 'send_email'),
        '',
      ].join('\n'),
    });
    const report = await learnFromTranscripts({ from: 'openai', file: 'chats.jsonl', cwd: dir });
    expect(report).toEqual({
      format: 'openai',
      file: 'chats.jsonl',
      dry_run: false,
      redacted: true,
      max_per_tool: 20,
      lines: 4,
      records: 4,
      calls: 5,
      groups: [
        {
          group: 'calendar',
          file: join('schemas', 'calendar_tools.json'),
          old_version: '1.2.0',
          new_version: '1.2.1',
          changed: true,
          written: true,
          tools: [
            {
              tool: 'create_event',
              calls: 2,
              added: [
                'Set up a meeting with Dana on Friday at 3',
                'block two hours tomorrow for deep work, then show my day',
              ],
              total: 2,
            },
            {
              tool: 'get_agenda',
              calls: 2,
              added: ['block two hours tomorrow for deep work, then show my day'],
              total: 2,
            },
          ],
        },
      ],
      unknown_tools: [{ tool: 'send_email', calls: 1 }],
      group_mismatch: [],
      // "what is on my calendar today" is a near-duplicate of the existing "what's on ..."
      skipped: {
        no_user_message: 0,
        empty: 0,
        duplicate: 0,
        near_duplicate: 1,
        over_cap: 0,
        no_content_words: 0,
      },
      truncated: 0,
      problems: [],
      problem_count: 0,
      diagnostics: [],
    });
    const calendar = readGroup(dir, 'calendar');
    expect(calendar.version).toBe('1.2.1');
    expect(exampleRequests(dir, 'calendar', 1)).toEqual([
      "what's on my calendar today",
      'block two hours tomorrow for deep work, then show my day',
    ]);
    // the result loads cleanly and the registry carries the requests
    const registry = await loadRegistry({ dirs: ['schemas'], cwd: dir });
    expect(registry.diagnostics).toEqual([]);
    expect(registry.get('create_event')?.example_requests).toHaveLength(2);
    // notes was not called: untouched, and no temporary files are left behind
    expect(readGroup(dir, 'notes').version).toBe('1.0.0');
    expect(readdirSync(join(dir, 'schemas')).sort()).toEqual([
      'calendar_tools.json',
      'notes_tools.json',
    ]);
  });

  it('edits only the changed arrays and the version, keeping the rest of the text', async () => {
    const original = [
      '{',
      '    "group": "notes",',
      '    "version": "0.3.9",',
      '    "description": "Notes.",   "selection": {"strategy": "always"},',
      '    "tools": [',
      '        {"name": "write_note", "description": "Write a note.", "category": "creation",',
      '         "input_schema": {"type": "object", "properties": {}},',
      '         "metadata": {"executor": "notes"}}',
      '    ],',
      '    "x-owner": "docs team"',
      '}',
      '',
    ].join('\n');
    const dir = createTempDir({
      'schemas/notes_tools.json': original,
      'pairs.jsonl': `${JSON.stringify({ message: 'jot down: buy milk', tool: 'write_note' })}\n`,
    });
    await learnFromTranscripts({ from: 'pairs', file: 'pairs.jsonl', cwd: dir });
    expect(readFileSync(join(dir, 'schemas/notes_tools.json'), 'utf8')).toBe(
      [
        '{',
        '    "group": "notes",',
        '    "version": "0.3.10",',
        '    "description": "Notes.",   "selection": {"strategy": "always"},',
        '    "tools": [',
        '        {"name": "write_note", "description": "Write a note.", "category": "creation",',
        '         "input_schema": {"type": "object", "properties": {}},',
        '         "metadata": {"executor": "notes"},',
        '         "example_requests": [',
        '             "jot down: buy milk"',
        '         ]}',
        '    ],',
        '    "x-owner": "docs team"',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('keeps tabs, CRLF line endings and a byte order mark', async () => {
    const text = `\uFEFF${JSON.stringify(makeGroup('notes', { tools: [makeTool({ name: 'write_note' })] }), null, '\t').replace(/\n/g, '\r\n')}\r\n`;
    const dir = createTempDir({
      'schemas/notes_tools.json': text,
      'pairs.jsonl': `${JSON.stringify({ message: 'note this', tool: 'write_note' })}\n`,
    });
    await learnFromTranscripts({ from: 'pairs', file: 'pairs.jsonl', cwd: dir });
    const written = readFileSync(join(dir, 'schemas/notes_tools.json'), 'utf8');
    expect(written.startsWith('\uFEFF{\r\n\t"group"')).toBe(true);
    expect(written).toContain('\r\n\t\t\t"example_requests": [\r\n\t\t\t\t"note this"\r\n\t\t\t]');
    expect(written.replace(/\r\n/g, '')).not.toContain('\n');
    expect(written).not.toMatch(/^ +"/m);
  });

  it('a dry run reports the same but writes nothing', async () => {
    const dir = project({ 'chats.jsonl': openAILine('plan a sync with the team', 'create_event') });
    const before = readFileSync(join(dir, 'schemas/calendar_tools.json'), 'utf8');
    const report = await learnFromTranscripts({
      from: 'openai',
      file: 'chats.jsonl',
      cwd: dir,
      dryRun: true,
    });
    expect(report.dry_run).toBe(true);
    expect(report.groups[0]).toMatchObject({
      new_version: '1.2.1',
      changed: true,
      written: false,
      tools: [{ tool: 'create_event', added: ['plan a sync with the team'] }],
    });
    expect(readFileSync(join(dir, 'schemas/calendar_tools.json'), 'utf8')).toBe(before);
  });

  it('reports malformed lines by number and still learns from the others', async () => {
    const dir = project({
      'chats.jsonl': [
        openAILine('add a dentist appointment on May 3', 'create_event'),
        '{"messages": [',
        '42',
        JSON.stringify({ messages: [{ role: 'bot', content: 'x' }] }),
        '   ',
        openAILine('show me next week', 'get_agenda'),
      ].join('\r\n'),
    });
    const report = await learnFromTranscripts({ from: 'openai', file: 'chats.jsonl', cwd: dir });
    expect(report.problems.map((problem) => problem.line)).toEqual([2, 3, 4]);
    expect(report.problems[0]!.message).toMatch(/^not valid JSON \(/);
    expect(report.problems[1]!.message).toBe(
      'expected a JSON object {"messages": [...]}, got a number',
    );
    expect(report.problems[2]!.message).toMatch(/^messages\[0\] has unknown role "bot"/);
    expect(report).toMatchObject({ lines: 5, records: 2, calls: 2, problem_count: 3 });
    expect(exampleRequests(dir, 'calendar', 0)).toEqual(['add a dentist appointment on May 3']);
  });

  it('keeps at most 100 problems but counts them all', async () => {
    const dir = project({ 'bad.jsonl': 'nope\n'.repeat(150) });
    const report = await learnFromTranscripts({ from: 'pairs', file: 'bad.jsonl', cwd: dir });
    expect(report.problems).toHaveLength(100);
    expect(report.problems[99]!.line).toBe(100);
    expect(report.problem_count).toBe(150);
    expect(report.groups).toEqual([]);
  });

  it('redacts by default and keeps the data with redact: false', async () => {
    const lines = [
      { message: 'invite ann@example.com to the 3pm review', tool: 'create_event' },
      { message: 'put the link https://meet.example.com/abc in the invite', tool: 'create_event' },
      { message: 'call me at 555-123-4567 before order 12345678 ships', tool: 'create_event' },
    ]
      .map((entry) => JSON.stringify(entry))
      .join('\n');
    const redacted = project({ 'pairs.jsonl': lines });
    await learnFromTranscripts({ from: 'pairs', file: 'pairs.jsonl', cwd: redacted });
    expect(exampleRequests(redacted, 'calendar', 0)).toEqual([
      'invite <email> to the 3pm review',
      'put the link <url> in the invite',
      'call me at <phone> before order <number> ships',
    ]);
    const kept = project({ 'pairs.jsonl': lines });
    const report = await learnFromTranscripts({
      from: 'pairs',
      file: 'pairs.jsonl',
      cwd: kept,
      redact: false,
    });
    expect(report.redacted).toBe(false);
    expect(exampleRequests(kept, 'calendar', 0)).toEqual([
      'invite ann@example.com to the 3pm review',
      'put the link https://meet.example.com/abc in the invite',
      'call me at 555-123-4567 before order 12345678 ships',
    ]);
  });

  it('caps each tool, counting the requests it has, and prefers varied ones', async () => {
    const messages = [
      'schedule a call with Bob on Monday',
      'schedule a call with Bob on Monday please', // near-duplicate of the first
      'SCHEDULE a call with bob on monday!', // duplicate
      'book the big room for the all-hands',
      'remind me to pay rent on the first',
      '   ',
    ];
    const dir = project({
      'pairs.jsonl': messages
        .map((message) => JSON.stringify({ message, tool: 'get_agenda' }))
        .join('\n'),
    });
    const report = await learnFromTranscripts({
      from: 'pairs',
      file: 'pairs.jsonl',
      cwd: dir,
      maxPerTool: 3,
    });
    expect(report.skipped).toEqual({
      no_user_message: 0,
      empty: 1,
      duplicate: 1,
      near_duplicate: 1,
      over_cap: 1,
      no_content_words: 0,
    });
    expect(exampleRequests(dir, 'calendar', 1)).toEqual([
      "what's on my calendar today",
      'schedule a call with Bob on Monday',
      'book the big room for the all-hands',
    ]);
    expect(report.groups[0]!.tools).toEqual([
      {
        tool: 'get_agenda',
        calls: 6,
        added: ['schedule a call with Bob on Monday', 'book the big room for the all-hands'],
        total: 3,
      },
    ]);
  });

  it('collapses whitespace and shortens long messages at a word boundary', async () => {
    const long = `please ${'reschedule everything '.repeat(40)}now`;
    const dir = project({
      'pairs.jsonl': [
        JSON.stringify({ message: 'move my\n\n 1:1   to Thursday', tool: 'create_event' }),
        JSON.stringify({ message: long, tool: 'create_event' }),
        // the same message again: a repeat, not a second shortened request
        JSON.stringify({ message: long, tool: 'create_event' }),
      ].join('\n'),
    });
    const report = await learnFromTranscripts({ from: 'pairs', file: 'pairs.jsonl', cwd: dir });
    expect(report.truncated).toBe(1);
    expect(report.skipped.duplicate).toBe(1);
    const requests = exampleRequests(dir, 'calendar', 0) as string[];
    expect(requests[0]).toBe('move my 1:1 to Thursday');
    expect(requests[1]!.length).toBeLessThanOrEqual(500);
    expect(requests[1]).toMatch(/^please reschedule everything .* everything…$/);
  });

  it('finds imported tools by their original name and updates the highest version', async () => {
    const v1 = makeGroup('museum', {
      version: '1.0.0',
      tools: [makeTool({ name: 'search_objects', 'x-original-name': 'search-objects' })],
    });
    const v2 = { ...v1, version: '1.1.0' };
    const dir = createTempDir({
      'schemas/old/museum_tools.json': json(v1),
      'schemas/museum_tools.json': json(v2),
      'pairs.jsonl': JSON.stringify({ message: 'find Monet paintings', tool: 'search-objects' }),
    });
    const report = await learnFromTranscripts({ from: 'pairs', file: 'pairs.jsonl', cwd: dir });
    expect(report.unknown_tools).toEqual([]);
    expect(report.groups.map((group) => [group.file, group.new_version])).toEqual([
      [join('schemas', 'museum_tools.json'), '1.1.1'],
    ]);
    expect(readFileSync(join(dir, 'schemas/old/museum_tools.json'), 'utf8')).toBe(json(v1));
  });

  it('reads Anthropic transcripts', async () => {
    const dir = project({
      'claude.jsonl': JSON.stringify({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'note: call the plumber' }] },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 't1', name: 'write_note', input: {} }],
          },
        ],
      }),
    });
    const report = await learnFromTranscripts({
      from: 'anthropic',
      file: 'claude.jsonl',
      cwd: dir,
    });
    expect(report.calls).toBe(1);
    expect(exampleRequests(dir, 'notes', 0)).toEqual(['note: call the plumber']);
  });

  it('reports the errors of group files it cannot use and leaves them alone', async () => {
    const dir = project({
      'schemas/broken_tools.json': '{"group": "broken",',
      'pairs.jsonl': JSON.stringify({ message: 'note the plan', tool: 'write_note' }),
    });
    const report = await learnFromTranscripts({ from: 'pairs', file: 'pairs.jsonl', cwd: dir });
    expect(report.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.file])).toEqual([
      ['JSON_SYNTAX', join('schemas', 'broken_tools.json')],
    ]);
    expect(readFileSync(join(dir, 'schemas/broken_tools.json'), 'utf8')).toBe(
      '{"group": "broken",',
    );
    expect(report.groups.map((group) => group.group)).toEqual(['notes']);
  });

  it('does not write a file whose edit would break the size limit, and says why', async () => {
    const dir = project({
      'pairs.jsonl': JSON.stringify({ message: 'what about tomorrow', tool: 'get_agenda' }),
    });
    const size = readFileSync(join(dir, 'schemas/calendar_tools.json')).length;
    const dryRun = await learnFromTranscripts({
      from: 'pairs',
      file: 'pairs.jsonl',
      cwd: dir,
      limits: { maxFileBytes: size + 10 },
      dryRun: true,
    });
    // a dry run checks the edit as a real run would
    expect(dryRun.groups[0]!.error).toMatch(/^the edited file would be \d+ bytes/);
    const report = await learnFromTranscripts({
      from: 'pairs',
      file: 'pairs.jsonl',
      cwd: dir,
      limits: { maxFileBytes: size + 10 },
    });
    expect(report.groups[0]).toMatchObject({ changed: true, written: false });
    expect(report.groups[0]!.error).toMatch(
      new RegExp(
        `^the edited file would be \\d+ bytes, more than ${size + 10} \\(limits\\.maxFileBytes\\); it was left unchanged\\. Lower --max-per-tool or split the group$`,
      ),
    );
    expect(readGroup(dir, 'calendar').version).toBe('1.2.0');
  });

  it('edits a file whose other tool is invalid (the error stays as it was)', async () => {
    const dir = createTempDir({
      'schemas/notes_tools.json': json(
        makeGroup('notes', {
          tools: [makeTool({ name: 'write_note' }), makeTool({ name: 'bad-name' })],
        }),
      ),
      'pairs.jsonl': JSON.stringify({ message: 'note the gate code', tool: 'write_note' }),
    });
    const report = await learnFromTranscripts({ from: 'pairs', file: 'pairs.jsonl', cwd: dir });
    expect(report.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['INVALID_TOOL_NAME']);
    expect(report.groups[0]).toMatchObject({ written: true, new_version: '1.0.1' });
    expect(exampleRequests(dir, 'notes', 0)).toEqual(['note the gate code']);
    expect(exampleRequests(dir, 'notes', 1)).toBeUndefined();
  });

  // root writes through directory permissions, so this runs only as another user
  it.skipIf(process.getuid?.() === 0)(
    'reports a file it cannot write and leaves no temporary file',
    async () => {
      const dir = project({
        'pairs.jsonl': JSON.stringify({ message: 'what about tomorrow', tool: 'get_agenda' }),
      });
      chmodSync(join(dir, 'schemas'), 0o555);
      try {
        const report = await learnFromTranscripts({ from: 'pairs', file: 'pairs.jsonl', cwd: dir });
        expect(report.groups[0]).toMatchObject({ changed: true, written: false });
        expect(report.groups[0]!.error).toMatch(/EACCES/);
      } finally {
        chmodSync(join(dir, 'schemas'), 0o755);
      }
      expect(readdirSync(join(dir, 'schemas')).sort()).toEqual([
        'calendar_tools.json',
        'notes_tools.json',
      ]);
    },
  );

  it('takes a group file named directly in schemas, as the loader does', async () => {
    const dir = project();
    writeFileSync(
      join(dir, 'pairs.jsonl'),
      [
        JSON.stringify({ message: 'book a dentist visit', tool: 'create_event' }),
        JSON.stringify({ message: 'jot down the plan', tool: 'write_note' }),
      ].join('\n'),
    );
    const report = await learnFromTranscripts({
      from: 'pairs',
      file: 'pairs.jsonl',
      cwd: dir,
      schemas: ['schemas/calendar_tools.json'],
    });
    expect(report.groups.map((group) => group.group)).toEqual(['calendar']);
    expect(report.unknown_tools).toEqual([{ tool: 'write_note', calls: 1 }]);
  });

  it('throws clear errors for a missing transcript, missing schemas and bad options', async () => {
    const dir = project();
    await expect(
      learnFromTranscripts({ from: 'openai', file: 'missing.jsonl', cwd: dir }),
    ).rejects.toThrow(/^cannot read missing\.jsonl: ENOENT.*; check the path$/);
    await expect(
      learnFromTranscripts({ from: 'openai', file: 'x.jsonl', cwd: dir, schemas: ['nowhere'] }),
    ).rejects.toThrow(
      /^schemas path nowhere does not exist; pass the directory of your \*_tools\.json files \(or one such file\) with --schemas$/,
    );
    writeFileSync(join(dir, 'x.jsonl'), '');
    await expect(
      learnFromTranscripts({
        from: 'openai',
        file: 'x.jsonl',
        cwd: dir,
        schemas: ['schemas/calendar_tools.json', 'x.jsonl'],
      }),
    ).rejects.toThrow(
      /^schemas path x\.jsonl is not a directory or a file named <group>_tools\.json; pass/,
    );
    const empty = createTempDir({ 'schemas/readme.txt': 'no groups here' });
    await expect(
      learnFromTranscripts({ from: 'openai', file: join(dir, 'x.jsonl'), cwd: empty }),
    ).rejects.toThrow(/^no \*_tools\.json files in schemas; pass the directory/);
    await expect(
      learnFromTranscripts({ from: 'openai', file: 'x.jsonl', cwd: dir, maxPerTool: 51 }),
    ).rejects.toThrow(
      'maxPerTool must be an integer from 1 to 50 (limits.maxExampleRequests), got 51',
    );
    await expect(
      learnFromTranscripts({ from: 'csv' as 'openai', file: 'x.jsonl', cwd: dir }),
    ).rejects.toThrow('unknown transcript format "csv"; use one of openai, anthropic, pairs');
  });

  it('refuses an unknown or mistyped option before reading anything, so a misspelt dryRun writes nothing', async () => {
    const dir = project();
    const before = readFileSync(join(dir, 'schemas/calendar_tools.json'), 'utf8');
    writeFileSync(
      join(dir, 'x.jsonl'),
      `${JSON.stringify({ message: 'add a dentist visit', tool: 'create_event' })}\n`,
    );
    const learn = (options: object) => learnFromTranscripts(options as never);
    await expect(
      learn({ from: 'pairs', file: 'x.jsonl', cwd: dir, dryrun: true }),
    ).rejects.toMatchObject({
      code: 'LEARN_INVALID_OPTIONS',
      message:
        'learnFromTranscripts: unknown option "dryrun"; did you mean "dryRun"? Options: from, file, schemas, cwd, maxPerTool, redact, dryRun, limits',
    });
    await expect(learn({ from: 'pairs', file: 'x.jsonl', cwd: dir, redact: 'no' })).rejects.toThrow(
      'learnFromTranscripts: option "redact" must be true or false, got "no"',
    );
    await expect(
      learn({ from: 'pairs', file: 'x.jsonl', cwd: dir, schemas: 'schemas' }),
    ).rejects.toThrow(
      'learnFromTranscripts: option "schemas" must be an array of directory paths, got "schemas"',
    );
    await expect(learn({ from: 'pairs', cwd: dir })).rejects.toThrow(
      'learnFromTranscripts: option "file" is required: the transcript file (JSON Lines) to learn from',
    );
    await expect(learn(null as never)).rejects.toMatchObject({ code: 'LEARN_INVALID_OPTIONS' });
    expect(readFileSync(join(dir, 'schemas/calendar_tools.json'), 'utf8')).toBe(before);
  });

  it("learns pairs of upstream MCP tools into their group's overlay, keyed by the server's name", async () => {
    const overlay = {
      ...makeGroup('github', { version: '0.3.0', tools: [] }),
      'x-upstream': {
        hidden: ['delete_repo'],
        tools: { 'search-issues': { example_requests: ['find login bugs'] } },
      },
    };
    const dir = project({ 'schemas/github_tools.json': json(overlay) });
    const pairs = [
      // the catalog renamed the server's search-issues; the overlay knows the server's name
      {
        message: 'any open bugs about logout?',
        tool: 'search_issues',
        group: 'github',
        server_tool: 'search-issues',
      },
      {
        message: 'open an issue: the build is red',
        tool: 'create_issue',
        group: 'github',
        server_tool: 'create_issue',
      },
      {
        message: 'draft the release notes',
        tool: 'draft_notes',
        group: 'gitlab',
        server_tool: 'draft',
      },
      { message: 'add a dentist visit', tool: 'create_event', group: 'calendar' },
    ];
    writeFileSync(join(dir, 'p.jsonl'), pairs.map((pair) => JSON.stringify(pair)).join('\n'));
    const report = await learnFromTranscripts({ from: 'pairs', file: 'p.jsonl', cwd: dir });
    expect(
      report.groups.map(({ group, old_version, new_version, written }) => ({
        group,
        old_version,
        new_version,
        written,
      })),
    ).toEqual([
      { group: 'calendar', old_version: '1.2.0', new_version: '1.2.1', written: true },
      { group: 'github', old_version: '0.3.0', new_version: '0.3.1', written: true },
    ]);
    expect(report.groups[1]?.tools).toEqual([
      { tool: 'search-issues', calls: 1, added: ['any open bugs about logout?'], total: 2 },
      { tool: 'create_issue', calls: 1, added: ['open an issue: the build is red'], total: 1 },
    ]);
    // a group with no file here: reported with the group its line named, which needs an overlay
    expect(report.unknown_tools).toEqual([
      { tool: 'draft_notes', calls: 1, group: 'gitlab', needs_overlay: true },
    ]);
    expect(readGroup(dir, 'github')['x-upstream']).toEqual({
      hidden: ['delete_repo'],
      tools: {
        'search-issues': { example_requests: ['find login bugs', 'any open bugs about logout?'] },
        create_issue: { example_requests: ['open an issue: the build is red'] },
      },
    });
    // the overlay still loads, and its example requests are what the gateway would index
    const registry = await loadRegistry({ dirs: ['schemas'], cwd: dir });
    expect(registry.diagnostics.filter((problem) => problem.severity === 'error')).toEqual([]);
  });

  it("finds a tool the gateway renamed in a snapshot of its server, by the server's name", async () => {
    const snapshot = makeGroup('beta', {
      tools: [makeTool({ name: 'echo', description: 'Echo a text.' })],
    });
    const dir = project({ 'schemas/beta_tools.json': json(snapshot) });
    const pairs = [
      {
        message: 'say it back loudly',
        tool: 'beta_echo',
        group: 'beta',
        server: 'beta',
        server_tool: 'echo',
      },
      // a local tool's pair names no server tool: no overlay is suggested for its group
      { message: 'archive the old notes', tool: 'archive_notes', group: 'notes_v2' },
    ];
    writeFileSync(join(dir, 'p.jsonl'), pairs.map((pair) => JSON.stringify(pair)).join('\n'));
    const report = await learnFromTranscripts({ from: 'pairs', file: 'p.jsonl', cwd: dir });
    expect(
      report.groups.map((group) => [group.group, group.tools.map((tool) => tool.tool)]),
    ).toEqual([['beta', ['echo']]]);
    expect(readGroup(dir, 'beta').tools).toEqual([
      expect.objectContaining({ name: 'echo', example_requests: ['say it back loudly'] }),
    ]);
    expect(report.unknown_tools).toEqual([{ tool: 'archive_notes', calls: 1, group: 'notes_v2' }]);
  });

  it("maps the name the gateway lists back to the overlay key of the server's tool", async () => {
    const overlay = {
      ...makeGroup('beta', { version: '0.2.0', tools: [] }),
      'x-upstream': { tools: { echo: { title: 'Echo' }, 'search-docs': { example_requests: [] } } },
    };
    const dir = project({ 'schemas/beta_tools.json': json(overlay) });
    // pairs written by hand name tools as the gateway lists them, without server_tool
    const pairs = [
      { message: 'say it back to me', tool: 'beta_echo', group: 'beta' },
      { message: 'find the setup page', tool: 'search_docs', group: 'beta' },
      { message: 'multiply six by seven', tool: 'multiply', group: 'beta' },
    ];
    writeFileSync(join(dir, 'p.jsonl'), pairs.map((pair) => JSON.stringify(pair)).join('\n'));
    const report = await learnFromTranscripts({ from: 'pairs', file: 'p.jsonl', cwd: dir });
    expect(report.unknown_tools).toEqual([]);
    expect(readGroup(dir, 'beta')['x-upstream']).toEqual({
      tools: {
        echo: { title: 'Echo', example_requests: ['say it back to me'] },
        'search-docs': { example_requests: ['find the setup page'] },
        // no key yet: the gateway reads the name it lists, which is the server's or its converted form
        multiply: { example_requests: ['multiply six by seven'] },
      },
    });
  });

  it('reports a renamed-looking name the overlay has no key for, and writes nothing for it', async () => {
    const overlay = { ...makeGroup('beta', { tools: [] }), 'x-upstream': {} };
    const dir = project({ 'schemas/beta_tools.json': json(overlay) });
    writeFileSync(
      join(dir, 'p.jsonl'),
      JSON.stringify({ message: 'say it back to me', tool: 'beta_echo', group: 'beta' }),
    );
    const before = readFileSync(join(dir, 'schemas/beta_tools.json'), 'utf8');
    const report = await learnFromTranscripts({ from: 'pairs', file: 'p.jsonl', cwd: dir });
    expect(report.groups).toEqual([]);
    expect(report.unknown_tools).toEqual([
      { tool: 'beta_echo', calls: 1, group: 'beta', needs_server_tool: true },
    ]);
    expect(readFileSync(join(dir, 'schemas/beta_tools.json'), 'utf8')).toBe(before);
  });

  it("finds a renamed tool in a snapshot of its server by the gateway's name", async () => {
    const snapshot = makeGroup('beta', {
      tools: [makeTool({ name: 'echo', description: 'Echo a text.' })],
    });
    const dir = project({ 'schemas/beta_tools.json': json(snapshot) });
    writeFileSync(
      join(dir, 'p.jsonl'),
      JSON.stringify({ message: 'say it back loudly', tool: 'beta_echo', group: 'beta' }),
    );
    const report = await learnFromTranscripts({ from: 'pairs', file: 'p.jsonl', cwd: dir });
    expect(report.unknown_tools).toEqual([]);
    expect(readGroup(dir, 'beta').tools).toEqual([
      expect.objectContaining({ name: 'echo', example_requests: ['say it back loudly'] }),
    ]);
  });
});

describe('learnFromTranscripts: what it refuses to copy or to publish', () => {
  it('removes control and bidirectional formatting characters from messages, keeping emoji', async () => {
    const dir = project({
      'pairs.jsonl': [
        JSON.stringify({
          message: '\u202e\u0000 weird 😀 unicode request for good two',
          tool: 'create_event',
        }),
        // marks inside a word vanish; a C1 control separates words like a space
        JSON.stringify({
          message: 'jot\u200f down\u2066 the\u2069 plan\u0085for later\u061c',
          tool: 'write_note',
        }),
        JSON.stringify({ message: '\u202a\u202c\u0007', tool: 'write_note' }),
      ].join('\n'),
    });
    const report = await learnFromTranscripts({ from: 'pairs', file: 'pairs.jsonl', cwd: dir });
    expect(exampleRequests(dir, 'calendar', 0)).toEqual(['weird 😀 unicode request for good two']);
    expect(exampleRequests(dir, 'notes', 0)).toEqual(['jot down the plan for later']);
    // nothing but invisible characters: an empty message
    expect(report.skipped.empty).toBe(1);
  });

  it('bumps a pre-release to the next pre-release, never to the release', async () => {
    const dir = project({
      'schemas/calendar_tools.json': json(
        makeGroup('calendar', {
          version: '2.0.0-rc.1',
          tools: [makeTool({ name: 'create_event' })],
        }),
      ),
      'schemas/notes_tools.json': json(
        makeGroup('notes', { version: '1.0.0-alpha', tools: [makeTool({ name: 'write_note' })] }),
      ),
      'pairs.jsonl': [
        JSON.stringify({ message: 'book the dentist', tool: 'create_event' }),
        JSON.stringify({ message: 'jot down the plan', tool: 'write_note' }),
      ].join('\n'),
    });
    const report = await learnFromTranscripts({ from: 'pairs', file: 'pairs.jsonl', cwd: dir });
    expect(report.groups.map((group) => [group.old_version, group.new_version])).toEqual([
      ['2.0.0-rc.1', '2.0.0-rc.2'],
      ['1.0.0-alpha', '1.0.0-alpha.0'],
    ]);
    expect(readGroup(dir, 'calendar').version).toBe('2.0.0-rc.2');
    expect(readGroup(dir, 'notes').version).toBe('1.0.0-alpha.0');
  });

  it('reports the group a pairs line named for an unknown tool, and a group that does not hold the tool', async () => {
    const dir = project({
      'pairs.jsonl': [
        JSON.stringify({ message: 'x', tool: 'nope_tool', group: 'research' }),
        JSON.stringify({ message: 'jot down the plan', tool: 'write_note', group: 'calendar' }),
        JSON.stringify({ message: 'note the address', tool: 'write_note', group: 'calendar' }),
        JSON.stringify({ message: 'book the dentist', tool: 'create_event', group: 'calendar' }),
      ].join('\n'),
    });
    const report = await learnFromTranscripts({ from: 'pairs', file: 'pairs.jsonl', cwd: dir });
    expect(report.unknown_tools).toEqual([{ tool: 'nope_tool', calls: 1, group: 'research' }]);
    // credited to the group that defines the tool, and said so
    expect(report.group_mismatch).toEqual([
      { tool: 'write_note', calls: 2, group: 'calendar', credited_to: 'notes' },
    ]);
    expect(exampleRequests(dir, 'notes', 0)).toEqual(['jot down the plan', 'note the address']);
  });

  it('says once that a UTF-16 transcript must be saved as UTF-8', async () => {
    const line = JSON.stringify({ message: 'book the dentist', tool: 'create_event' });
    const dir = project();
    writeFileSync(
      join(dir, 'le.jsonl'),
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${line}\n${line}\n`, 'utf16le')]),
    );
    writeFileSync(join(dir, 'plain-le.jsonl'), Buffer.from(`${line}\n`, 'utf16le'));
    await expect(
      learnFromTranscripts({ from: 'pairs', file: 'le.jsonl', cwd: dir }),
    ).rejects.toMatchObject({
      code: 'LEARN_INPUT_UNREADABLE',
      message:
        'le.jsonl is UTF-16 (little-endian), not UTF-8: save it as UTF-8 (a transcript is JSON Lines in UTF-8), then run learn again',
    });
    await expect(
      learnFromTranscripts({ from: 'pairs', file: 'plain-le.jsonl', cwd: dir }),
    ).rejects.toThrow(/^plain-le\.jsonl is UTF-16 \(little-endian\), not UTF-8: save it as UTF-8/);
    expect(readGroup(dir, 'calendar').version).toBe('1.2.0');
  });

  it('ignores a UTF-8 byte order mark at the start of the file and of an appended file', async () => {
    const dir = project({
      'pairs.jsonl': [
        `\uFEFF${JSON.stringify({ message: 'book the dentist', tool: 'create_event' })}`,
        `\uFEFF${JSON.stringify({ message: 'jot down the plan', tool: 'write_note' })}`,
      ].join('\n'),
    });
    const report = await learnFromTranscripts({ from: 'pairs', file: 'pairs.jsonl', cwd: dir });
    expect(report.problems).toEqual([]);
    expect(report.records).toBe(2);
    expect(exampleRequests(dir, 'calendar', 0)).toEqual(['book the dentist']);
    expect(exampleRequests(dir, 'notes', 0)).toEqual(['jot down the plan']);
  });
});
