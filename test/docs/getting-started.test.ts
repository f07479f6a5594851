import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createTempDir } from '../helpers/temp-files.js';

const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli', 'toolcap.mjs');
const GUIDE = readFileSync(join(ROOT, 'docs/guide/getting-started.md'), 'utf8');
const run = promisify(execFile);

function codeBlock(language: string): string {
  const match = GUIDE.match(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``));
  expect(match, `a ${language} block`).not.toBeNull();
  return match?.[1] ?? '';
}

/** Runs a `npx toolcap ...` command of the guide with the built CLI, in `cwd`. */
async function toolcap(command: string, cwd: string): Promise<string> {
  expect(command).toMatch(/^npx toolcap /);
  const words = command.split(/\s+/).slice(2);
  const { stdout } = await run(process.execPath, [CLI, ...words], { cwd, timeout: 30_000 });
  return stdout;
}

describe('docs/guide/getting-started.md', () => {
  it('works word for word in a new project, and toolcap import writes next to its group file', async () => {
    // a project that installed the package (node_modules/tool-capabilities is this checkout)
    const dir = createTempDir({ 'package.json': { type: 'module' } });
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(ROOT, join(dir, 'node_modules', 'tool-capabilities'), 'dir');

    // 1. the group file, where the guide says to save it
    const path = GUIDE.match(/Save this one as `([^`]+)`/)?.[1];
    expect(path).toBe('schemas/tasks_tools.json');
    mkdirSync(dirname(join(dir, path!)), { recursive: true });
    writeFileSync(join(dir, path!), codeBlock('json'));
    // its $schema, relative to the file, reaches the installed package's schema (for editors)
    const { $schema } = JSON.parse(codeBlock('json')) as { $schema: string };
    expect(existsSync(join(dir, dirname(path!), $schema))).toBe(true);

    // 2. validate, with the output the guide shows
    const [prompt, output] = codeBlock('console').trim().split('\n');
    expect(await toolcap(prompt!.replace(/^\$ /, ''), dir)).toBe(`${output}\n`);

    // 3. the handler, and 4. the turn, run as the guide writes them
    mkdirSync(join(dir, 'handlers'));
    writeFileSync(join(dir, 'handlers', 'tasks.js'), codeBlock('js'));
    writeFileSync(
      join(dir, 'turn.mjs'),
      `${codeBlock('ts')}\nconsole.log(JSON.stringify({ names: selection.names, tools: payload.length, result }));\n`,
    );
    const { stdout } = await run(process.execPath, ['turn.mjs'], { cwd: dir, timeout: 30_000 });
    expect(JSON.parse(stdout)).toEqual({
      names: ['add_task'],
      tools: 1,
      result: {
        ok: true,
        output: { id: expect.any(String), title: 'Call Dana', user: 'u1' },
      },
    });

    // importing more tools with the defaults adds to the same directory
    writeFileSync(
      join(dir, 'notes.json'),
      JSON.stringify([
        {
          name: 'add_note',
          description: 'Add a note.',
          parameters: { type: 'object', properties: { text: { type: 'string' } } },
        },
      ]),
    );
    await toolcap('npx toolcap import --from canonical notes.json --group notes', dir);
    expect(readdirSync(join(dir, 'schemas')).sort()).toEqual([
      'notes_tools.json',
      'tasks_tools.json',
    ]);
    expect(await toolcap(prompt!.replace(/^\$ /, ''), dir)).toBe(
      '2 group(s), 2 tool(s): 0 error(s), 0 warning(s)\n',
    );
  });
});
