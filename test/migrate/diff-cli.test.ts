import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';

function versions(newOverrides: Record<string, unknown>) {
  const before = makeGroup('things', {
    tools: [makeTool(), makeTool({ name: 'other_thing', description: 'Another.' })],
  });
  return createTempDir({
    'old/things_tools.json': before,
    'new/things_tools.json': { ...before, ...newOverrides },
  });
}

describe('toolcap diff', () => {
  it('prints the classified changes as JSON and exits 1 when the bump is too small', async () => {
    const dir = versions({ version: '1.0.1', tools: [makeTool()] });
    const result = await runCli(
      ['diff', 'old/things_tools.json', 'new/things_tools.json', '--json'],
      { cwd: dir },
    );
    expect(result.code).toBe(1);
    expect(result.json()).toEqual({
      group: 'things',
      old_group: 'things',
      old_version: '1.0.0',
      new_version: '1.0.1',
      required_bump: 'major',
      actual_bump: 'patch',
      ok: false,
      changes: [
        {
          kind: 'tool_removed',
          tool: 'other_thing',
          pointer: '/tools/1',
          bump: 'major',
          message: 'tool "other_thing" was removed',
        },
      ],
      diagnostics: [],
    });
    expect(result.stderr).toBe('');
  });

  it('exits 0 when the bump is enough, and prints a table for humans', async () => {
    const dir = versions({
      version: '1.1.0',
      tools: [
        makeTool(),
        makeTool({ name: 'other_thing', description: 'Another one.' }),
        makeTool({ name: 'third_thing', description: 'A third.' }),
      ],
    });
    const result = await runCli(['diff', 'old/things_tools.json', 'new/things_tools.json'], {
      cwd: dir,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'group things: 1.0.0 -> 1.1.0',
        'BUMP   KIND                 POINTER               CHANGE',
        'MINOR  tool_added           /tools/2              tool "third_thing" was added',
        'PATCH  description_changed  /tools/1/description  tool "other_thing": description changed',
        'required bump: minor; actual bump: minor: ok',
        '',
      ].join('\n'),
    );
  });

  it('says which version NEW needs, and "no changes" when there are none', async () => {
    const dir = versions({ tools: [makeTool()] });
    const result = await runCli(['diff', 'old/things_tools.json', 'new/things_tools.json'], {
      cwd: dir,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'required bump: major; actual bump: none: not enough (NEW must be at least 2.0.0)',
    );
    const same = await runCli(['diff', 'old/things_tools.json', 'old/things_tools.json'], {
      cwd: dir,
    });
    expect(same.code).toBe(0);
    expect(same.stdout).toBe(
      'group things: 1.0.0 -> 1.0.0\nno changes\nrequired bump: none; actual bump: none: ok\n',
    );
  });

  it('applies the 0.x rule: a breaking change needs a minor bump', async () => {
    const before = makeGroup('things', { version: '0.3.0' });
    const dir = createTempDir({
      'a.json': before,
      'b.json': { ...before, version: '0.4.0', tools: [] },
      'c.json': { ...before, version: '0.3.1', tools: [] },
    });
    expect((await runCli(['diff', 'a.json', 'b.json'], { cwd: dir })).code).toBe(0);
    const tooSmall = await runCli(['diff', 'a.json', 'c.json'], { cwd: dir });
    expect(tooSmall.code).toBe(1);
    expect(tooSmall.stdout).toContain('not enough (NEW must be at least 0.4.0)');
  });

  it('passes a keyword respelling that matches the same messages, at the same version', async () => {
    const before = makeGroup('billing', {
      selection: { strategy: 'keyword', keywords: ['invoice', 'refund', 'billing', 'charge'] },
    });
    const dir = createTempDir({
      'old.json': before,
      'new.json': {
        ...before,
        selection: { strategy: 'keyword', keywords: ['invoices', 'Refund', 'billing', 'charges'] },
      },
    });
    const result = await runCli(['diff', 'old.json', 'new.json'], { cwd: dir });
    expect(result.stdout).toBe(
      'group billing: 1.0.0 -> 1.0.0\nno changes\nrequired bump: none; actual bump: none: ok\n',
    );
    expect(result.code).toBe(0);
  });

  it('names each group with its own version when the group names differ', async () => {
    const dir = createTempDir({
      'old/billing_tools.json': makeGroup('billing', {
        version: '1.2.0',
        tools: [makeTool({ name: 'create_invoice', description: 'Create an invoice.' })],
      }),
      'calendar_tools.json': makeGroup('calendar', {
        version: '1.1.0',
        tools: [
          makeTool({ name: 'create_event', description: 'Create an event.', category: 'creation' }),
        ],
      }),
    });
    const args = ['diff', 'old/billing_tools.json', 'calendar_tools.json'];
    const result = await runCli(args, { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')[0]).toBe('group billing@1.2.0 -> calendar@1.1.0');
    expect(result.stdout).toContain(
      'group renamed from "billing" to "calendar"; pins and references to the old name stop matching. The two versions share no tool name: if they are different groups, compare two versions of one group instead',
    );
    expect(result.stdout).toContain('not enough (the version went down)');
    const json = await runCli([...args, '--json'], { cwd: dir });
    expect(json.json()).toMatchObject({
      group: 'calendar',
      old_group: 'billing',
      old_version: '1.2.0',
      new_version: '1.1.0',
      changes: [
        { kind: 'group_renamed', pointer: '/group' },
        { kind: 'tool_removed', tool: 'create_invoice' },
        { kind: 'tool_added', tool: 'create_event' },
      ],
    });
  });

  it('reports a version that went down', async () => {
    const dir = versions({ version: '0.9.0' });
    const result = await runCli(['diff', 'old/things_tools.json', 'new/things_tools.json'], {
      cwd: dir,
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('not enough (the version went down)');
  });

  it('exits 2 with a usage message when an argument is missing', async () => {
    const result = await runCli(['diff', 'only-one.json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('"toolcap diff" takes 2 argument(s) (OLD NEW), got 1');
  });

  it('exits 2 and names the file when it cannot be read', async () => {
    const dir = createTempDir({ 'a.json': makeGroup('things') });
    const result = await runCli(['diff', 'a.json', 'missing.json'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^toolcap: cannot read missing\.json: ENOENT.*check the path\n$/);
    const json = await runCli(['diff', 'a.json', 'missing.json', '--json'], { cwd: dir });
    expect(json.json()).toMatchObject({ error: 'GROUP_SOURCE_UNREADABLE', diagnostics: [] });
  });

  it('exits 2 with file:line:column diagnostics for invalid files', async () => {
    const dir = createTempDir({
      'a.json': makeGroup('things'),
      'broken.json': '{\n  "group": "things",\n  "version": 1\n',
      'invalid.json': makeGroup('things', { version: '1.0' }),
      'empty.json': '',
    });
    const broken = await runCli(['diff', 'a.json', 'broken.json'], { cwd: dir });
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/^broken\.json:4:1: error JSON_SYNTAX invalid JSON: /);
    expect(broken.stderr).toContain(
      'toolcap: cannot compare: broken.json is not a valid group file',
    );
    const invalid = await runCli(['diff', 'invalid.json', 'empty.json'], { cwd: dir });
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain(
      'invalid.json:3:3: error INVALID_VERSION version "1.0" is not a strict semantic version',
    );
    expect(invalid.stderr).toContain('empty.json:1:1: error EMPTY_FILE');
    expect(invalid.stderr).toContain(
      'toolcap: cannot compare: invalid.json and empty.json are not valid group files (see the errors above; "toolcap validate" checks a directory)',
    );
  });

  it('with --json, puts diagnostics and errors only in the JSON document, not on stderr', async () => {
    const dir = createTempDir({
      'a.json': makeGroup('things'),
      'invalid.json': makeGroup('things', { version: '1.2' }),
      'warned.json': { ...makeGroup('things'), unknown: true },
    });
    const invalid = await runCli(['diff', 'a.json', 'invalid.json', '--json'], { cwd: dir });
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toBe('');
    expect(invalid.json()).toMatchObject({
      error: 'INVALID_GROUP_FILE',
      message:
        'cannot compare: invalid.json is not a valid group file (see "diagnostics"; "toolcap validate" checks a directory)',
      diagnostics: [
        {
          code: 'INVALID_VERSION',
          file: 'invalid.json',
          message: expect.stringContaining('version "1.2" is not a strict semantic version'),
        },
      ],
    });
    // warnings of files that can be compared: in the result's "diagnostics"
    const warned = await runCli(['diff', 'a.json', 'warned.json', '--json'], { cwd: dir });
    expect(warned.code).toBe(0);
    expect(warned.stderr).toBe('');
    expect(warned.json()).toMatchObject({
      ok: true,
      diagnostics: [{ code: 'UNKNOWN_FIELD', severity: 'warning', file: 'warned.json' }],
    });
    const unreadable = await runCli(['diff', 'a.json', 'missing.json', '--json'], { cwd: dir });
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toBe('');
    expect(unreadable.json()).toMatchObject({
      error: 'GROUP_SOURCE_UNREADABLE',
      message: expect.stringMatching(/^cannot read missing\.json: ENOENT/),
    });
  });

  it('refuses a directory with a usage error naming the fix', async () => {
    const dir = createTempDir({
      'old/things_tools.json': makeGroup('things'),
      'new/things_tools.json': makeGroup('things'),
    });
    for (const args of [
      ['diff', 'old', 'new/things_tools.json'],
      ['diff', 'old/things_tools.json', 'new', '--json'],
    ]) {
      const result = await runCli(args, { cwd: dir });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      const directory = args[1] === 'old' ? 'old' : 'new';
      expect(result.stderr).toBe(
        `toolcap: ${directory} is a directory, but "toolcap diff" compares two group files: pass OLD and NEW versions of one <group>_tools.json (e.g. toolcap diff git:HEAD:schemas/calendar_tools.json schemas/calendar_tools.json), once per changed file\nRun "toolcap help diff" for its options.\n`,
      );
    }
  });

  it('does not require the file name to match the group, and prints warnings', async () => {
    const dir = createTempDir({
      'old-copy.json': makeGroup('things'),
      'new-copy.json': { ...makeGroup('things'), unknown: true },
    });
    const result = await runCli(['diff', 'old-copy.json', 'new-copy.json'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('warning UNKNOWN_FIELD unknown field "unknown"');
  });

  it('reads git:REV:PATH from the repository', async () => {
    const dir = createTempDir({ 'schemas/things_tools.json': makeGroup('things') });
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
        cwd: dir,
        stdio: 'pipe',
      });
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'v1');
    writeFileSync(
      join(dir, 'schemas/things_tools.json'),
      JSON.stringify(makeGroup('things', { version: '1.1.0', description: 'Changed.' })),
    );
    const result = await runCli(
      ['diff', 'git:HEAD:schemas/things_tools.json', 'schemas/things_tools.json', '--json'],
      { cwd: dir },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.json()).toMatchObject({
      required_bump: 'patch',
      actual_bump: 'minor',
      ok: true,
      changes: [{ kind: 'group_description_changed' }],
    });
    const missing = await runCli(['diff', 'git:HEAD:nope.json', 'schemas/things_tools.json'], {
      cwd: dir,
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^toolcap: cannot read git:HEAD:nope\.json from git: fatal: /);
    // a directory at REV is named as one, with the group files it holds
    const directory = await runCli(['diff', 'git:HEAD:schemas/', 'schemas/things_tools.json'], {
      cwd: dir,
    });
    expect(directory.code).toBe(2);
    expect(directory.stderr.split('\n')[0]).toBe(
      'toolcap: git:HEAD:schemas/ is a directory at HEAD; diff compares one group file, e.g. git:HEAD:schemas/<group>_tools.json (group files there: things_tools.json)',
    );
  });

  it('--allow-missing-old: a group file not yet in REV is a new group (exit 0)', async () => {
    const dir = createTempDir({ 'schemas/things_tools.json': makeGroup('things') });
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
        cwd: dir,
        stdio: 'pipe',
      });
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'v1');
    const added = join(dir, 'newteam');
    mkdirSync(added);
    writeFileSync(
      join(added, 'calendar_tools.json'),
      JSON.stringify({ ...makeGroup('calendar', { version: '1.1.0' }), unknown: true }),
    );
    const args = ['diff', 'git:HEAD:newteam/calendar_tools.json', 'newteam/calendar_tools.json'];

    const refused = await runCli(args, { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^toolcap: cannot read git:HEAD:newteam\/calendar_tools\.json from git: fatal: .*\. If newteam\/calendar_tools\.json is a new group, pass --allow-missing-old: a new group has no earlier version to check\n$/,
    );
    const refusedJson = await runCli([...args, '--json'], { cwd: dir });
    expect(refusedJson.code).toBe(2);
    expect(refusedJson.json()).toMatchObject({
      error: 'GROUP_SOURCE_UNREADABLE',
      message: expect.stringContaining('pass --allow-missing-old'),
    });

    const accepted = await runCli([...args, '--allow-missing-old'], { cwd: dir });
    expect(accepted.code).toBe(0);
    expect(accepted.stdout).toBe(
      'group calendar: new group at 1.1.0 (OLD git:HEAD:newteam/calendar_tools.json does not exist)\nno earlier version, so no version bump rule applies: ok\n',
    );
    expect(accepted.stderr).toContain('warning UNKNOWN_FIELD');
    const acceptedJson = await runCli([...args, '--allow-missing-old', '--json'], { cwd: dir });
    expect(acceptedJson.code).toBe(0);
    expect(acceptedJson.stderr).toBe('');
    expect(acceptedJson.json()).toEqual({
      group: 'calendar',
      old_group: null,
      old_version: null,
      new_version: '1.1.0',
      group_added: true,
      required_bump: 'none',
      actual_bump: null,
      ok: true,
      changes: [],
      diagnostics: [expect.objectContaining({ code: 'UNKNOWN_FIELD' })],
    });
    // ./PATH is relative to the current directory, as for reading
    const relative = await runCli(
      ['diff', 'git:HEAD:./calendar_tools.json', 'calendar_tools.json', '--allow-missing-old'],
      { cwd: added },
    );
    expect(relative.code).toBe(0);

    // a file that exists in REV is compared as usual
    const existing = await runCli(
      [
        'diff',
        'git:HEAD:schemas/things_tools.json',
        'schemas/things_tools.json',
        '--allow-missing-old',
      ],
      { cwd: dir },
    );
    expect(existing.stdout).toContain('group things: 1.0.0 -> 1.0.0\nno changes');
    // a bad revision is an error to fix, not a new group
    const badRevision = await runCli(
      [
        'diff',
        'git:nope:newteam/calendar_tools.json',
        'newteam/calendar_tools.json',
        '--allow-missing-old',
      ],
      { cwd: dir },
    );
    expect(badRevision.code).toBe(2);
    expect(badRevision.stderr).toMatch(
      /^toolcap: cannot read git:nope:newteam\/calendar_tools\.json from git: /,
    );
    expect(badRevision.stderr).not.toContain('--allow-missing-old');
    // NEW is still read and validated
    const newMissing = await runCli(
      ['diff', 'git:HEAD:gone.json', 'gone.json', '--allow-missing-old'],
      { cwd: dir },
    );
    expect(newMissing.code).toBe(2);
    expect(newMissing.stderr).toMatch(/^toolcap: cannot read gone\.json: ENOENT/);
  });

  it('--allow-missing-old accepts a missing OLD path, not an unreadable one', async () => {
    const dir = createTempDir({ 'new.json': makeGroup('things', { version: '0.1.0' }) });
    const result = await runCli(['diff', 'old.json', 'new.json', '--allow-missing-old'], {
      cwd: dir,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'group things: new group at 0.1.0 (OLD old.json does not exist)',
    );
    const without = await runCli(['diff', 'old.json', 'new.json'], { cwd: dir });
    expect(without.code).toBe(2);
    expect(without.stderr).toMatch(
      /^toolcap: cannot read old\.json: ENOENT.*; check the path\. If new\.json is a new group, pass --allow-missing-old: a new group has no earlier version to check\n$/,
    );
    // an OLD path whose parent is a file cannot be a group added later: still an error
    const notMissing = await runCli(
      ['diff', 'new.json/old.json', 'new.json', '--allow-missing-old'],
      {
        cwd: dir,
      },
    );
    expect(notMissing.code).toBe(2);
    expect(notMissing.stderr).not.toContain('--allow-missing-old');
  });

  it('rejects a malformed git: source and an option-like revision', async () => {
    for (const source of ['git:HEAD', 'git:--output=x:a.json']) {
      const result = await runCli(['diff', source, source]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('is not of the form git:REV:PATH');
    }
  });
});
