import { execFileSync, spawn } from 'node:child_process';
import { closeSync, constants, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';

// These tests run the built CLI (`npm test` builds first; during development run `npm run build`).
const ROOT = join(import.meta.dirname, '../..');
const BIN = join(ROOT, 'dist/cli/toolcap.mjs');
/** Writers started at once: enough to interleave, few enough for a shared 2-core machine. */
const WRITERS = 4;
/** A writer still running after this long is killed by its pid. */
const LIMIT_MS = 60_000;

interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI in `cwd`; the child is killed by its pid if it outlives LIMIT_MS. */
function runToolcap(args: readonly string[], cwd: string): Promise<ChildRun> {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npm run build" first`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    const timer = setTimeout(() => {
      if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
    }, LIMIT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const toolNames = Array.from({ length: WRITERS }, (_, index) => `tool_${index + 1}`);
const WORDS = ['apples', 'bananas', 'cherries', 'grapes', 'lemons', 'mangoes'];

/** One group file, "good" at 1.0.0, with one tool per writer. */
function project(files: Record<string, unknown> = {}): string {
  return createTempDir({
    'schemas/good_tools.json': makeGroup('good', {
      tools: toolNames.map((name) => makeTool({ name, description: `Handles ${name}.` })),
    }),
    ...files,
  });
}

function readGood(dir: string): { version: string; tools: { example_requests?: string[] }[] } {
  return JSON.parse(readFileSync(join(dir, 'schemas/good_tools.json'), 'utf8'));
}

/** Each writer's report: its group entry for "good". */
function goodEntries(runs: readonly ChildRun[]): { new_version: string; written: boolean }[] {
  return runs.map((run) => {
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      groups: { group: string; new_version: string; written: boolean }[];
    };
    return report.groups.find((group) => group.group === 'good')!;
  });
}

async function delay(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

describe('concurrent writers of one group file', () => {
  it.skipIf(process.platform === 'win32')(
    'learn: every writer read the file before any wrote, and all their requests survive',
    async () => {
      const dir = project();
      // each transcript is a FIFO: a writer blocks on it after reading the group files, so
      // once every FIFO has its reader, every writer holds the same old copy of the file
      const fifos = toolNames.map((_, index) => join(dir, `w${index + 1}.jsonl`));
      for (const fifo of fifos) execFileSync('mkfifo', [fifo]);
      const runs = fifos.map((fifo) =>
        runToolcap(['learn', '--from', 'pairs', fifo, '--json'], dir),
      );
      const deadline = Date.now() + LIMIT_MS;
      const writers: number[] = [];
      for (const fifo of fifos) {
        for (;;) {
          try {
            // fails with ENXIO until the writer has opened its end
            writers.push(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
            break;
          } catch (error) {
            if ((error as { code?: string }).code !== 'ENXIO' || Date.now() > deadline) {
              throw error;
            }
            await delay(20);
          }
        }
      }
      writers.forEach((descriptor, index) => {
        const tool = toolNames[index]!;
        const lines = WORDS.map((word, line) =>
          JSON.stringify({ message: `writer ${index + 1} wants ${line + 2} ${word}`, tool }),
        );
        writeSync(descriptor, `${lines.join('\n')}\n`);
        closeSync(descriptor);
      });
      const entries = goodEntries(await Promise.all(runs));

      // serialized: each writer added to what the previous one wrote, one bump each
      expect(entries.every((entry) => entry.written)).toBe(true);
      expect(entries.map((entry) => entry.new_version).sort()).toEqual(
        toolNames.map((_, index) => `1.0.${index + 1}`),
      );
      const good = readGood(dir);
      expect(good.version).toBe(`1.0.${WRITERS}`);
      expect(good.tools.map((tool) => tool.example_requests?.length ?? 0)).toEqual(
        toolNames.map(() => WORDS.length),
      );
      // the lock is released: no lock directory is left beside the file
      expect(existsSync(join(dir, 'schemas/good_tools.json.lock'))).toBe(false);
    },
    LIMIT_MS * 2,
  );

  it(
    'examples: writers whose answers all arrive after every writer read the file keep them all',
    async () => {
      const dir = project();
      // holds every answer until all writers have asked: each has read the group file by then
      const waiting: { response: ServerResponse; tool: string }[] = [];
      const server = createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
            messages: { content: string }[];
          };
          const tool = /^Tool: (\S+)$/m.exec(body.messages.at(-1)?.content ?? '')?.[1] ?? '';
          waiting.push({ response, tool });
          if (waiting.length < WRITERS) return;
          for (const held of waiting.splice(0)) {
            const answer = JSON.stringify(
              WORDS.slice(0, 3).map((word) => `${held.tool} please with ${word}`),
            );
            held.response.writeHead(200, { 'content-type': 'application/json' });
            held.response.end(
              JSON.stringify({ choices: [{ message: { role: 'assistant', content: answer } }] }),
            );
          }
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
        const runs = await Promise.all(
          toolNames.map((tool) =>
            runToolcap(
              ['examples', '--chat-url', url, '--model', 'm', '--tool', tool, '--per-tool', '3'],
              dir,
            ),
          ),
        );
        for (const run of runs) {
          expect(run.stderr).toBe('');
          expect(run.code).toBe(0);
          expect(run.stdout).toMatch(
            /\ngood 1\.0\.\d -> 1\.0\.\d {2}schemas\/good_tools\.json {2}\(written\)\n/,
          );
        }
        const versions = runs.map((run) => /-> (1\.0\.\d)/.exec(run.stdout)?.[1]).sort();
        expect(versions).toEqual(toolNames.map((_, index) => `1.0.${index + 1}`));
        const good = readGood(dir);
        expect(good.version).toBe(`1.0.${WRITERS}`);
        expect(good.tools.map((tool) => tool.example_requests)).toEqual(
          toolNames.map((tool) => WORDS.slice(0, 3).map((word) => `${tool} please with ${word}`)),
        );
      } finally {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
    },
    LIMIT_MS * 2,
  );
});
