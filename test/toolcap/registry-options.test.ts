import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { watchRegistry } from '../../src/watch/watch-registry.js';

const GROUP = {
  group: 'notes',
  version: '1.0.0',
  description: 'Notes.',
  selection: { strategy: 'always' },
  tools: [
    {
      name: 'add_note',
      description: 'Add a note.',
      category: 'creation',
      input_schema: { type: 'object', properties: {} },
      metadata: { executor: 'notes' },
    },
  ],
};

async function projectWithTools(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'toolcap-options-'));
  await mkdir(join(dir, 'tools'));
  await writeFile(join(dir, 'tools', 'notes_tools.json'), JSON.stringify(GROUP));
  return dir;
}

describe('registry options are checked at the boundary', () => {
  it('takes a single directory string as a one-element list (dirs, handlers, toolsDirs)', async () => {
    const cwd = await projectWithTools();
    const registry = await loadRegistry({ cwd, dirs: 'tools', handlers: 'my-handlers' });
    expect(registry.diagnostics).toEqual([]);
    expect(registry.list().map((tool) => tool.name)).toEqual(['add_note']);
    expect(registry.settings.handlerDirs).toEqual([join(cwd, 'my-handlers')]);
  });

  it('refuses an empty path, which would stand for the whole working directory', async () => {
    // tools/notes_tools.json is under cwd: an empty path would load it
    const cwd = await projectWithTools();
    await expect(loadRegistry({ cwd, dirs: [''] })).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message:
        'loadRegistry: option "dirs" has an empty path at index 0, which would load every *_tools.json under the working directory (cwd); give a directory such as "schemas" (an empty path is usually an unset environment variable)',
    });
    await expect(loadRegistry({ cwd, dirs: '' })).rejects.toThrow(
      'loadRegistry: option "dirs" is an empty path, which would load every *_tools.json',
    );
    await expect(loadRegistry({ cwd, dirs: [], toolsDirs: [''] })).rejects.toThrow(
      'option "toolsDirs" has an empty path at index 0, which would register the executables of the working directory (cwd); give a directory such as "tools"',
    );
    expect(() => createRegistry({ handlers: ['handlers', ''] })).toThrow(
      'createRegistry: option "handlers" has an empty path at index 1, which would import handler modules from the working directory (cwd); give a directory such as "handlers"',
    );
  });

  it('names the option and the expected shape for a wrong shape', async () => {
    await expect(loadRegistry({ handlers: { github: {} } as never })).rejects.toThrow(
      'loadRegistry: option "handlers" must be a string or an array of strings, got an object',
    );
    await expect(loadRegistry({ dirs: 42 as never })).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message: 'loadRegistry: option "dirs" must be a string or an array of strings, got 42',
    });
    await expect(loadRegistry({ dirs: ['schemas', 5] as never })).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message:
        'loadRegistry: option "dirs" must be a string or an array of strings; the entry at index 1 is 5, not a string',
    });
    expect(() => createRegistry({ contextChecks: { isAdmin: true } as never })).toThrow(
      'createRegistry: option "contextChecks" must be an object of predicates by name, such as { has_project: (context, message) => ... }; "isAdmin" is true, not a function',
    );
    expect(() => createRegistry({ limits: { maxTools: -1 } })).toThrow(
      'option "limits" must be an object of non-negative integers',
    );
    expect(() => createRegistry({ limits: { maxTool: 5 } as never })).toThrow(
      'with keys among maxFileBytes',
    );
    expect(() => createRegistry({ pins: { calendar: 1 } as never })).toThrow(
      'createRegistry: option "pins" must be an object of semver ranges by group, such as { calendar: "^1.0.0" }; "calendar" is 1, not a string',
    );
    expect(() => createRegistry({ pins: 'calendar' as never })).toThrow(
      'createRegistry: option "pins" must be an object of semver ranges by group, such as { calendar: "^1.0.0" }, got "calendar"',
    );
    expect(() => createRegistry({ executionLimits: { timeoutsMs: { fast: 0 } } })).toThrow(
      'option "executionLimits" must be an object such as',
    );
    expect(() => createRegistry(null as never)).toThrow(
      'createRegistry: options must be an object',
    );
  });

  it('refuses an empty pin, naming the group (usually an unset environment variable)', async () => {
    const message =
      'option "pins" has an empty range for group "billing"; give a version or range such as "^1.0.0", or leave the group out for its highest version (an empty pin is usually an unset environment variable)';
    await expect(loadRegistry({ dirs: [], pins: { billing: '' } })).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message: `loadRegistry: ${message}`,
    });
    expect(() => createRegistry({ pins: { calendar: '^1', billing: ' ' } })).toThrow(
      `createRegistry: ${message}`,
    );
  });

  it('accepts an external environment allow-list and refuses a malformed one', () => {
    const registry = createRegistry({ executionLimits: { externalEnv: { allow: ['MYTOOL_*'] } } });
    expect(registry.settings.executionLimits?.externalEnv).toEqual({ allow: ['MYTOOL_*'] });
    expect(() =>
      createRegistry({ executionLimits: { externalEnv: { allow: ['not a name'] } } }),
    ).toThrow('option "executionLimits" must be an object such as');
  });

  it('rejects an unknown option with the closest known one', async () => {
    await expect(loadRegistry({ dir: ['schemas'] } as never)).rejects.toThrow(
      'loadRegistry: unknown option "dir"; did you mean "dirs"?',
    );
    expect(() => createRegistry({ dirs: ['schemas'] } as never)).toThrow(
      'createRegistry: unknown option "dirs"',
    );
  });

  it('checks watchRegistry options, and passes its own options not on to loadRegistry', async () => {
    const cwd = await projectWithTools();
    await expect(watchRegistry({ cwd, dirs: 'tools', debounceMs: -1 })).rejects.toThrow(
      'watchRegistry: option "debounceMs" must be a number of milliseconds (0 or more), got -1',
    );
    const watcher = await watchRegistry({ cwd, dirs: 'tools', debounceMs: 5, pollIntervalMs: 0 });
    try {
      expect(
        watcher
          .current()
          .list()
          .map((tool) => tool.name),
      ).toEqual(['add_note']);
    } finally {
      await watcher.close();
    }
  });
});
