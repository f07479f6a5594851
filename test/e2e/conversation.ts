import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, vi } from 'vitest';
import type { ToolCall } from '../../src/execute/types.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import type { Registry } from '../../src/toolcap/registry.js';

/**
 * The scripted conversation every end-to-end test drives, one provider at a time:
 *
 * Turn 1, "What's still open on my task list?": the model calls list_tasks; the result goes
 * back; the model answers in text.
 * Turn 2, "Mark the milk one as done, cancel my dentist appointment on March 2, and read me
 * notes/dentist.txt.": the model calls complete_task (approved: it runs), cancel_event (the
 * user says no: NOT_APPROVED) and get_agenda; where the provider does not constrain calls,
 * with a date the schema refuses (INVALID_INPUT) and a file tool the turn did not offer
 * (TOOL_NOT_FOUND or NOT_SELECTED); for Anthropic, a client-side tool search loads it.
 *
 * The model's responses are recorded in test/fixtures/provider-responses/<provider>/ (shaped
 * like the real APIs' responses); every request body is compared byte for byte with
 * test/e2e/expected/<provider>/request-<n>.json. Set UPDATE_E2E=1 to rewrite those files
 * (then read the diff: it is the review).
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RESPONSES = join(ROOT, 'test', 'fixtures', 'provider-responses');
const EXPECTED = join(ROOT, 'test', 'e2e', 'expected');

/** The user's messages, turn by turn. */
export const TURNS = [
  "What's still open on my task list?",
  'Mark the milk one as done, cancel my dentist appointment on March 2, and read me notes/dentist.txt.',
] as const;

/** The system prompt every request carries. */
export const SYSTEM_PROMPT =
  "You are a personal assistant. Use the tools to read and change the user's tasks, calendar and journal. Ask before guessing ids.";

/** The host's context for every call. */
export const CONTEXT = { user_id: 'u_42' } as const;

/** The clock of the conversation: complete_task stamps this time. */
export const NOW = new Date('2026-03-01T08:30:00.000Z');

/** The approval hook: the user approves everything but cancelling events. */
export function approve(call: ToolCall): boolean {
  return call.name !== 'cancel_event';
}

/** A registry over the bundled groups and handlers, with the user's task list in a temp dir. */
export async function openConversation(): Promise<{
  registry: Registry;
  close: () => Promise<void>;
}> {
  vi.useFakeTimers({ toFake: ['Date'], now: NOW });
  const dataDir = join(
    tmpdir(),
    `toolcap-e2e-${process.pid}-${Math.random().toString(36).slice(2)}`,
  );
  await mkdir(join(dataDir, 'tasks'), { recursive: true });
  await mkdir(join(dataDir, 'calendar'), { recursive: true });
  await writeFile(
    join(dataDir, 'calendar', 'u_42.json'),
    JSON.stringify({
      version: 1,
      events: [
        {
          id: 'evt_dentist',
          title: 'Dentist',
          start: '2026-03-02T09:30:00.000Z',
          end: '2026-03-02T10:15:00.000Z',
          attendees: [],
          location: 'Harbour Street Dental',
          created_at: '2026-02-10T12:00:00.000Z',
          updated_at: '2026-02-10T12:00:00.000Z',
        },
      ],
    }),
  );
  await writeFile(
    join(dataDir, 'tasks', 'u_42.json'),
    JSON.stringify({
      version: 1,
      tasks: [
        {
          id: 'task_milk',
          title: 'Buy milk',
          status: 'open',
          priority: 'normal',
          due_date: '2026-03-02',
          created_at: '2026-02-27T09:00:00.000Z',
        },
        {
          id: 'task_report',
          title: 'Send the quarterly report',
          status: 'open',
          priority: 'high',
          due_date: '2026-03-03',
          created_at: '2026-02-26T16:20:00.000Z',
        },
        {
          id: 'task_plants',
          title: 'Water the plants',
          status: 'done',
          priority: 'low',
          created_at: '2026-02-20T07:45:00.000Z',
          completed_at: '2026-02-21T18:00:00.000Z',
        },
      ],
    }),
  );
  const registry = await loadRegistry({
    cwd: ROOT,
    dirs: ['schemas'],
    handlers: ['handlers'],
    dataDir,
    strict: true,
  });
  return {
    registry,
    close: async () => {
      vi.useRealTimers();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A recorded response of `provider`'s model. */
export async function recordedResponse(provider: string, turn: number): Promise<unknown> {
  return JSON.parse(await readFile(join(RESPONSES, provider, `response-${turn}.json`), 'utf8'));
}

/** Checks a request body byte for byte against its committed JSON (or rewrites it). */
export async function expectRequest(provider: string, turn: number, body: unknown): Promise<void> {
  const file = join(EXPECTED, provider, `request-${turn}.json`);
  const text = `${JSON.stringify(body, null, 2)}\n`;
  if (process.env.UPDATE_E2E === '1') {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  expect(text).toBe(await readFile(file, 'utf8'));
}
