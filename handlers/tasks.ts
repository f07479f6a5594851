/**
 * The `tasks` executor: a per-user to-do list stored as JSON in
 * `<dataDir>/tasks/<user_id>.json`, updated under a file lock with atomic write-rename.
 * @module
 */

import type { ToolContext, ToolHandlerOptions } from '../src/entries/handler-kit.js';
import {
  createId,
  readJsonFile,
  requireContextString,
  storeFile,
  ToolError,
  updateJsonFile,
} from '../src/entries/handler-kit.js';

type Priority = 'low' | 'normal' | 'high';

/** One task as stored and returned. */
export interface Task {
  id: string;
  title: string;
  status: 'open' | 'done';
  priority: Priority;
  due_date?: string;
  notes?: string;
  created_at: string;
  completed_at?: string;
}

interface TaskStore {
  version: 1;
  tasks: Task[];
}

const PRIORITY_RANK: Readonly<Record<Priority, number>> = { high: 0, normal: 1, low: 2 };

/** Adds a task; returns it with its new id. */
export async function add_task(
  input: Record<string, unknown>,
  context: ToolContext,
  options: ToolHandlerOptions,
): Promise<{ task: Task }> {
  const task: Task = {
    id: createId('task'),
    title: String(input.title),
    status: 'open',
    priority: (input.priority as Priority | undefined) ?? 'normal',
    created_at: new Date().toISOString(),
  };
  if (typeof input.due_date === 'string') task.due_date = input.due_date;
  if (typeof input.notes === 'string') task.notes = input.notes;
  return updateJsonFile(
    storePath(context, options),
    emptyStore,
    (raw) => {
      const store = checkStore(raw, context, options);
      store.tasks.push(task);
      return { value: store, result: { task } };
    },
    { signal: options.signal },
  );
}

/** Lists tasks (open by default), by due date (undated last), then priority, then age. */
export async function list_tasks(
  input: Record<string, unknown>,
  context: ToolContext,
  options: ToolHandlerOptions,
): Promise<{ tasks: Task[]; count: number }> {
  const status = (input.status as 'open' | 'done' | 'all' | undefined) ?? 'open';
  const dueBefore = typeof input.due_before === 'string' ? input.due_before : undefined;
  const store = checkStore(
    await readJsonFile(storePath(context, options), emptyStore),
    context,
    options,
  );
  const tasks = store.tasks
    .filter((task) => status === 'all' || task.status === status)
    .filter(
      (task) =>
        dueBefore === undefined || (task.due_date !== undefined && task.due_date <= dueBefore),
    )
    .sort(
      (a, b) =>
        compareDue(a.due_date, b.due_date) ||
        PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] ||
        a.created_at.localeCompare(b.created_at),
    );
  return { tasks, count: tasks.length };
}

/** Marks a task done; completing a done task again changes nothing. */
export async function complete_task(
  input: Record<string, unknown>,
  context: ToolContext,
  options: ToolHandlerOptions,
): Promise<{ task: Task; already_done: boolean }> {
  const taskId = String(input.task_id);
  return updateJsonFile<TaskStore, { task: Task; already_done: boolean }>(
    storePath(context, options),
    emptyStore,
    (raw) => {
      const store = checkStore(raw, context, options);
      const task = store.tasks.find((candidate) => candidate.id === taskId);
      if (task === undefined) {
        throw new ToolError(
          'TASK_NOT_FOUND',
          `No task has the id ${JSON.stringify(taskId)}; call list_tasks with status "all" to see the ids.`,
          { task_id: taskId },
        );
      }
      if (task.status === 'done') return { result: { task, already_done: true } };
      task.status = 'done';
      task.completed_at = new Date().toISOString();
      return { value: store, result: { task, already_done: false } };
    },
    { signal: options.signal },
  );
}

function storePath(context: ToolContext, options: ToolHandlerOptions): string {
  return storeFile(options.dataDir, 'tasks', requireContextString(context, 'user_id'), '.json');
}

function emptyStore(): TaskStore {
  return { version: 1, tasks: [] };
}

function checkStore(raw: unknown, context: ToolContext, options: ToolHandlerOptions): TaskStore {
  if (
    raw !== null &&
    typeof raw === 'object' &&
    Array.isArray((raw as { tasks?: unknown }).tasks)
  ) {
    return raw as TaskStore;
  }
  throw new ToolError(
    'STORE_CORRUPT',
    `The task store ${storePath(context, options)} does not hold {"tasks": [...]}; move it away to start empty.`,
    {},
  );
}

function compareDue(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  return a < b ? -1 : 1;
}
