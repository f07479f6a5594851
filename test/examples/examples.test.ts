import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
// the examples import the package by name, as an app would: they need the build
const built = existsSync(join(ROOT, 'dist/src/entries/ai-sdk.js'));
const LIMIT_MS = 60_000;

interface ExampleRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node examples/<name>/index.mjs`, killed by its pid if it outlives LIMIT_MS. */
function runExample(name: string): Promise<ExampleRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'examples', name, 'index.mjs')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
    }, LIMIT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const SELECTED =
  'recall_journal, write_journal, search_journals, add_task, list_tasks, complete_task';
const NOT_FOUND =
  'TASK_NOT_FOUND: No task has the id \\"task_that_does_not_exist\\"; call list_tasks with status \\"all\\" to see the ids.';
const ANSWER = 'answer: Added "Renew passport"; there was no task to complete.';

describe.runIf(built)('the example apps', () => {
  it('ai-sdk: prepareStep narrows each step, results and tool errors reach the model', async () => {
    const run = await runExample('ai-sdk');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.slice(0, 3)).toEqual([0, 1, 2].map((step) => `step ${step} offers: ${SELECTED}`));
    expect(lines[3]).toMatch(
      /^model reads add_task: \{"type":"json","value":\{"task":\{"id":"task_\w+","title":"Renew passport","status":"open","priority":"normal","created_at":"[^"]+","due_date":"2026-12-01"\}\}\}$/,
    );
    expect(lines.slice(4)).toEqual([
      `model reads complete_task: {"type":"error-text","value":"${NOT_FOUND}"}`,
      'add_task -> ok',
      'complete_task -> TASK_NOT_FOUND',
      ANSWER,
    ]);
  });

  it('openai-agents: strict function tools, results and tool errors reach the model', async () => {
    const run = await runExample('openai-agents');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`offered: ${SELECTED.replaceAll(',', ' (strict),')} (strict)`);
    expect(lines[1]).toMatch(
      /^model reads add_task: \{"type":"text","text":"\{\\"task\\":\{\\"id\\":/,
    );
    expect(lines[1]).toContain('\\"title\\":\\"Renew passport\\"');
    expect(lines.slice(2)).toEqual([
      `model reads complete_task: {"type":"text","text":"${NOT_FOUND}"}`,
      ANSWER,
    ]);
  });

  it('langchain: structured tools, results and error ToolMessages reach the model', async () => {
    const run = await runExample('langchain');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`offered: ${SELECTED}`);
    expect(lines[1]).toMatch(/^model reads add_task \(success\): \{"task":\{"id":"task_\w+"/);
    expect(lines[1]).toContain('"title":"Renew passport"');
    expect(lines.slice(2)).toEqual([
      `model reads complete_task (error): ${NOT_FOUND.replaceAll('\\"', '"')}`,
      ANSWER,
    ]);
  });
});
