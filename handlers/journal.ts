/**
 * The `journal` executor: per-user journal entries stored as JSON lines in
 * `<dataDir>/journal/<user_id>.jsonl`, appended under a file lock with atomic write-rename.
 * Dates are calendar days (`YYYY-MM-DD`); "today" is the current UTC date.
 * @module
 */

import type { ToolContext, ToolHandlerOptions } from '../src/entries/handler-kit.js';
import {
  appendJsonLines,
  createId,
  readJsonLines,
  requireContextString,
  scoreText,
  storeFile,
  todayUtc,
  tokenizeWords,
} from '../src/entries/handler-kit.js';

/** One journal entry as stored and returned. */
export interface JournalEntry {
  id: string;
  date: string;
  text: string;
  mood?: string;
  tags?: string[];
  created_at: string;
}

/** Appends an entry (dated today unless `date` is given). */
export async function write_journal(
  input: Record<string, unknown>,
  context: ToolContext,
  options: ToolHandlerOptions,
): Promise<{ entry: JournalEntry }> {
  const entry: JournalEntry = {
    id: createId('entry'),
    date: typeof input.date === 'string' ? input.date : todayUtc(),
    text: String(input.text),
    created_at: new Date().toISOString(),
  };
  if (typeof input.mood === 'string') entry.mood = input.mood;
  if (Array.isArray(input.tags)) entry.tags = input.tags.map(String);
  await appendJsonLines(storePath(context, options), [entry], { signal: options.signal });
  return { entry };
}

/** Every entry of one day (default today), oldest first. */
export async function recall_journal(
  input: Record<string, unknown>,
  context: ToolContext,
  options: ToolHandlerOptions,
): Promise<{ date: string; entries: JournalEntry[]; count: number }> {
  const date = typeof input.date === 'string' ? input.date : todayUtc();
  const entries = (await readEntries(context, options))
    .filter((entry) => entry.date === date)
    .sort((a, b) => a.created_at.localeCompare(b.created_at));
  return { date, entries, count: entries.length };
}

/** The entries that best match the words of `query` (tags count double), best first. */
export async function search_journals(
  input: Record<string, unknown>,
  context: ToolContext,
  options: ToolHandlerOptions,
): Promise<{ query: string; results: (JournalEntry & { score: number })[]; count: number }> {
  const query = String(input.query);
  const limit = typeof input.limit === 'number' ? input.limit : 10;
  const terms = tokenizeWords(query);
  const results = (await readEntries(context, options))
    .map((entry) => ({
      ...entry,
      score: scoreText(terms, entry.text) + 2 * scoreText(terms, (entry.tags ?? []).join(' ')),
    }))
    .filter((entry) => entry.score > 0)
    .sort(
      (a, b) =>
        b.score - a.score ||
        b.date.localeCompare(a.date) ||
        b.created_at.localeCompare(a.created_at),
    )
    .slice(0, limit);
  return { query, results, count: results.length };
}

function storePath(context: ToolContext, options: ToolHandlerOptions): string {
  return storeFile(options.dataDir, 'journal', requireContextString(context, 'user_id'), '.jsonl');
}

async function readEntries(
  context: ToolContext,
  options: ToolHandlerOptions,
): Promise<JournalEntry[]> {
  const records = await readJsonLines(storePath(context, options));
  return records.filter(isEntry);
}

function isEntry(record: unknown): record is JournalEntry {
  if (record === null || typeof record !== 'object') return false;
  const entry = record as Partial<JournalEntry>;
  return (
    typeof entry.id === 'string' &&
    typeof entry.date === 'string' &&
    typeof entry.text === 'string' &&
    typeof entry.created_at === 'string'
  );
}
