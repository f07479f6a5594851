import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTranscriptLine } from '../../src/migrate/parse-transcript-line.js';

const EVAL = join(import.meta.dirname, '../../eval');

describe('the eval data for toolcap learn', () => {
  it('the ToolE transcripts parse cleanly and hold train queries only', async () => {
    const { isTestQuery } = (await import(join(EVAL, 'prepare-data.mjs'))) as {
      isTestQuery: (query: string) => boolean;
    };
    const lines = readFileSync(join(EVAL, 'data/transcripts/toole-train.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line !== '');
    expect(lines.length).toBeGreaterThan(1900);
    const perTool = new Map<string, number>();
    for (const line of lines) {
      const parsed = parseTranscriptLine(line, 'openai');
      if (!parsed.ok) throw new Error(parsed.problem);
      // a query with no content words ("Certainly!") is not learned
      expect(parsed.calls.length + parsed.unconfirmed).toBe(1);
      const [call] = parsed.calls;
      if (call === undefined) continue;
      expect(isTestQuery(call!.message), call!.message).toBe(false);
      perTool.set(call!.tool, (perTool.get(call!.tool) ?? 0) + 1);
    }
    expect(perTool.size).toBe(199);
    expect(Math.max(...perTool.values())).toBe(10);
  });

  it('every LiveMCPBench task names 2-6 distinct tools that exist', () => {
    const servers = JSON.parse(
      readFileSync(join(EVAL, 'data/livemcpbench/tools.json'), 'utf8'),
    ) as { tools?: Record<string, { tools?: { name: string }[] }> }[];
    const known = new Set(
      servers.flatMap((server) =>
        Object.entries(server.tools ?? {}).flatMap(([key, entry]) =>
          (entry.tools ?? []).map((tool) => `${key}/${tool.name}`),
        ),
      ),
    );
    const tasks = JSON.parse(readFileSync(join(EVAL, 'data/livemcpbench/tasks.json'), 'utf8')) as {
      id: string;
      message: string;
      tools: string[];
    }[];
    // two batches: task-01..task-99, then task-100..task-149 (see SOURCE.md)
    expect(tasks.map((task) => task.id)).toEqual(
      Array.from({ length: 149 }, (_, index) => `task-${String(index + 1).padStart(2, '0')}`),
    );
    expect(new Set(tasks.map((task) => task.id)).size).toBe(tasks.length);
    for (const task of tasks) {
      expect(task.tools.length, task.id).toBeGreaterThanOrEqual(2);
      expect(task.tools.length, task.id).toBeLessThanOrEqual(6);
      expect(new Set(task.tools).size, task.id).toBe(task.tools.length);
      for (const tool of task.tools) expect(known.has(tool), `${task.id} ${tool}`).toBe(true);
    }
  });

  it('the LiveMCPBench example requests give every tool five distinct requests', () => {
    const servers = JSON.parse(
      readFileSync(join(EVAL, 'data/livemcpbench/tools.json'), 'utf8'),
    ) as { tools?: Record<string, { tools?: { name: string }[] }> }[];
    const known = servers.flatMap((server) =>
      Object.entries(server.tools ?? {}).flatMap(([key, entry]) =>
        (entry.tools ?? []).map((tool) => `${key}/${tool.name}`),
      ),
    );
    const requests = JSON.parse(
      readFileSync(join(EVAL, 'data/livemcpbench/example-requests.json'), 'utf8'),
    ) as Record<string, string[]>;
    expect(Object.keys(requests).sort()).toEqual([...new Set(known)].sort());
    for (const [tool, list] of Object.entries(requests)) {
      expect(list, tool).toHaveLength(5);
      expect(new Set(list).size, tool).toBe(5);
      for (const request of list) {
        expect(request.trim().length, tool).toBeGreaterThan(0);
        expect(request.length, tool).toBeLessThanOrEqual(200);
      }
    }
  });

  it('the ToolE example requests give every tool five distinct requests', () => {
    const tools = JSON.parse(readFileSync(join(EVAL, 'data/metatool/plugin_des.json'), 'utf8'));
    const requests = JSON.parse(
      readFileSync(join(EVAL, 'data/metatool/example-requests.json'), 'utf8'),
    ) as Record<string, string[]>;
    expect(Object.keys(requests)).toEqual(Object.keys(tools));
    for (const [tool, list] of Object.entries(requests)) {
      expect(new Set(list).size, tool).toBe(5);
      for (const request of list) expect(request.length, tool).toBeLessThanOrEqual(200);
    }
  });
});
