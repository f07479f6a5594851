import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli', 'toolcap.mjs');
const run = promisify(execFile);

const QUICK_START = [
  'npm ci && npm run build && npx toolcap validate && npx toolcap select --context user_id=u1 "Schedule a réunion with Dana on Friday and add it to my to-do list"',
  'npm ci && npm test',
];

function read(page: string): string {
  return readFileSync(join(ROOT, page), 'utf8');
}

/** The fenced code blocks of a page in `language`. */
function codeBlocks(text: string, language: string): string[] {
  return [...text.matchAll(new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``, 'g'))].map(
    (match) => match[1] ?? '',
  );
}

/** Splits one shell command into words, honouring double quotes. */
function shellWords(command: string): string[] {
  return [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((match) => match[1] ?? match[2] ?? '');
}

/** Type errors of `code` compiled as a module of this repository (imports resolve as a user's would). */
function typeErrors(code: string, name: string): string[] {
  const file = join(ROOT, 'test', 'docs', `${name}.ts`);
  const { options } = ts.convertCompilerOptionsFromJson(
    { ...JSON.parse(read('tsconfig.json')).compilerOptions, noUnusedLocals: false },
    ROOT,
  );
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (path, version, ...rest) =>
    path === file
      ? ts.createSourceFile(path, code, version)
      : getSourceFile(path, version, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (path) => path === file || fileExists(path);
  const program = ts.createProgram([file], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((diagnostic) => diagnostic.file?.fileName === file)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
}

describe('README', () => {
  it('starts with the two fresh-clone commands, word for word', () => {
    const [first] = codeBlocks(read('README.md'), 'sh');
    expect(first?.trim().split('\n')).toEqual(QUICK_START);
  });

  it("runs the quick start's main job on the bundled schemas", async () => {
    const commands = (QUICK_START[0] ?? '')
      .split(' && ')
      .filter((command) => command.startsWith('npx toolcap '));
    expect(commands).toHaveLength(2);
    const [validate, select] = await Promise.all(
      commands.map((command) =>
        run(process.execPath, [CLI, ...shellWords(command).slice(2)], {
          cwd: ROOT,
          timeout: 30_000,
        }),
      ),
    );
    expect(validate?.stdout).toBe('5 group(s), 16 tool(s): 0 error(s), 0 warning(s)\n');
    const chosen = (select?.stdout ?? '').split('\nDROPPED')[0] ?? '';
    for (const tool of ['create_event', 'add_task', 'recall_journal'])
      expect(chosen).toContain(tool);
    expect(chosen).not.toContain('read_project_doc');
    expect(select?.stdout).toMatch(/read_project_doc\s+project_docs\s+MISSING_CONTEXT/);
  });

  it('shows a turn in code that typechecks against the published types, in under 30 lines', () => {
    const [turn] = codeBlocks(read('README.md'), 'ts');
    expect(turn).toBeDefined();
    expect((turn ?? '').trim().split('\n').length).toBeLessThan(30);
    expect(typeErrors(turn ?? '', '__readme_turn')).toEqual([]);
  });

  it('a snippet with a type error is caught (the check can fail)', () => {
    const broken =
      "import { loadRegistry } from 'tool-capabilities';\nconst registry = await loadRegistry();\nregistry.select(42);\n";
    expect(typeErrors(broken, '__broken_turn').join('\n')).toMatch(/number.*string/);
  });
});

describe('docs/guide snippets', () => {
  it.each([
    ['docs/guide/agent-loop.md', 0],
    ['docs/guide/getting-started.md', 0],
    ['docs/guide/semantic.md', 0],
  ])('%s: code block %i typechecks', (page, index) => {
    const block = codeBlocks(read(page), 'ts')[index];
    expect(block).toBeDefined();
    expect(typeErrors(block ?? '', `__${page.replace(/\W/g, '_')}_${index}`)).toEqual([]);
  });
});

describe('docs/guide/frameworks.md snippets', () => {
  // the AI SDK sample's provider package is not installed here: its one function is declared
  const OPENAI_PROVIDER = "import { openai } from '@ai-sdk/openai';";
  const OPENAI_DECLARED = "declare const openai: (model: string) => import('ai').LanguageModel;";

  it.each([
    [0, 'Vercel AI SDK'],
    [1, 'OpenAI Agents SDK'],
    [2, 'createMcpToolFilter'],
  ])('code block %i (%s) typechecks', (index) => {
    const block = codeBlocks(read('docs/guide/frameworks.md'), 'ts')[index];
    expect(block).toBeDefined();
    const code = (block ?? '').replace(OPENAI_PROVIDER, OPENAI_DECLARED);
    expect(typeErrors(code, `__frameworks_${index}`)).toEqual([]);
  });
});

describe('docs/guide/execution.md: handlerModules', () => {
  it('the in-memory handler modules sample typechecks, with a real module namespace', () => {
    const block = codeBlocks(read('docs/guide/execution.md'), 'ts').find((code) =>
      code.includes('handlerModules: {'),
    );
    expect(block).toBeDefined();
    // the sample's ./handlers/calendar.js is the repository's bundled calendar handler
    const code = (block ?? '').replace("'./handlers/calendar.js'", "'../../handlers/calendar.js'");
    expect(code).toContain('../../handlers/calendar.js');
    expect(typeErrors(code, '__execution_handler_modules')).toEqual([]);
  });
});

describe('adapter types', () => {
  it('createPrepareStep typechecks beside typed code tools spread into the ToolSet', () => {
    // the migration pattern: code tools still to move, then the registry's tools
    const code = `import { generateText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { loadRegistry } from 'tool-capabilities';
import { createAiSdkTools, createPrepareStep } from 'tool-capabilities/ai-sdk';
const codeTools = {
  legacyThing: tool({ description: 'Legacy.', inputSchema: z.object({ a: z.string() }), execute: async ({ a }) => a }),
};
const registry = await loadRegistry();
await generateText({
  model: new MockLanguageModelV3({}),
  prompt: 'hi',
  tools: { ...codeTools, ...createAiSdkTools(registry) },
  prepareStep: createPrepareStep(registry, { alwaysActive: ['legacyThing'] }),
});
const step = createPrepareStep(registry)({ messages: [], stepNumber: 0, experimental_context: {} });
const names: string[] = step.activeTools;
`;
    expect(typeErrors(code, '__prepare_step_types')).toEqual([]);
  });
});

describe('code-defined tool types', () => {
  it("a fallback tool's execute takes the handler options as its third argument", () => {
    const code = `import { loadRegistry, type FallbackTool, type ToolHandlerOptions } from 'tool-capabilities';
const slow: FallbackTool = {
  name: 'slow_lookup',
  description: 'A lookup that honours cancellation.',
  execute: async (input, context, options: ToolHandlerOptions) => {
    options.signal.throwIfAborted();
    return { input, context, tool: options.toolName, dataDir: options.dataDir, services: options.services };
  },
};
const registry = await loadRegistry({ fallbackTools: [slow] });
`;
    expect(typeErrors(code, '__fallback_execute_types')).toEqual([]);
  });
});
