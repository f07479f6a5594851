/**
 * The `calendar` executor: per-user events stored as JSON in
 * `<dataDir>/calendar/<user_id>.json`, updated under a file lock with atomic write-rename.
 * Times are ISO 8601 instants, stored in UTC; agenda days are UTC days.
 * @module
 */

import type { ToolContext, ToolHandlerOptions } from '../src/entries/handler-kit.js';
import {
  createId,
  readJsonFile,
  requireContextString,
  storeFile,
  ToolError,
  todayUtc,
  updateJsonFile,
} from '../src/entries/handler-kit.js';

/** One event as stored and returned. */
export interface CalendarEvent {
  id: string;
  title: string;
  start: string;
  end: string;
  attendees: string[];
  location?: string;
  created_at: string;
  updated_at: string;
}

interface CalendarStore {
  version: 1;
  events: CalendarEvent[];
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const EDITABLE_FIELDS = ['title', 'start', 'end', 'attendees', 'location'] as const;

/** Creates an event; `end` defaults to one hour after `start`. */
export async function create_event(
  input: Record<string, unknown>,
  context: ToolContext,
  options: ToolHandlerOptions,
): Promise<{ event: CalendarEvent }> {
  const start = parseInstant(input.start, 'start');
  const end =
    input.end === undefined ? new Date(start.getTime() + HOUR_MS) : parseInstant(input.end, 'end');
  checkRange(start, end);
  const now = new Date().toISOString();
  const event: CalendarEvent = {
    id: createId('event'),
    title: String(input.title),
    start: start.toISOString(),
    end: end.toISOString(),
    attendees: Array.isArray(input.attendees) ? input.attendees.map(String) : [],
    created_at: now,
    updated_at: now,
  };
  if (typeof input.location === 'string') event.location = input.location;
  return updateJsonFile(
    storePath(context, options),
    emptyStore,
    (raw) => {
      const store = checkStore(raw);
      store.events.push(event);
      return { value: store, result: { event } };
    },
    { signal: options.signal },
  );
}

/** Events overlapping the UTC days `from`..`to` (default today), by start time. */
export async function get_agenda(
  input: Record<string, unknown>,
  context: ToolContext,
  options: ToolHandlerOptions,
): Promise<{ from: string; to: string; events: CalendarEvent[]; count: number }> {
  const from = typeof input.from === 'string' ? input.from : todayUtc();
  const to = typeof input.to === 'string' ? input.to : from;
  if (to < from) {
    throw new ToolError(
      'INVALID_DATE_RANGE',
      `"to" (${to}) is before "from" (${from}); give from <= to.`,
      { from, to },
    );
  }
  const rangeStart = Date.parse(`${from}T00:00:00Z`);
  const rangeEnd = Date.parse(`${to}T00:00:00Z`) + DAY_MS;
  const store = checkStore(await readJsonFile(storePath(context, options), emptyStore));
  const events = store.events
    .filter((event) => Date.parse(event.start) < rangeEnd && Date.parse(event.end) > rangeStart)
    .sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
  return { from, to, events, count: events.length };
}

/** Changes an event; moving `start` without `end` keeps the duration. */
export async function update_event(
  input: Record<string, unknown>,
  context: ToolContext,
  options: ToolHandlerOptions,
): Promise<{ event: CalendarEvent; changed: string[] }> {
  const eventId = String(input.event_id);
  return updateJsonFile(
    storePath(context, options),
    emptyStore,
    (raw) => {
      const store = checkStore(raw);
      const event = findEvent(store, eventId);
      const changed = EDITABLE_FIELDS.filter((field) => input[field] !== undefined);
      if (changed.length === 0) return { result: { event, changed } };
      const oldStart = Date.parse(event.start);
      const oldEnd = Date.parse(event.end);
      const start =
        input.start === undefined ? new Date(oldStart) : parseInstant(input.start, 'start');
      const end =
        input.end !== undefined
          ? parseInstant(input.end, 'end')
          : new Date(start.getTime() + (oldEnd - oldStart));
      checkRange(start, end);
      event.start = start.toISOString();
      event.end = end.toISOString();
      if (typeof input.title === 'string') event.title = input.title;
      if (Array.isArray(input.attendees)) event.attendees = input.attendees.map(String);
      if (typeof input.location === 'string') event.location = input.location;
      event.updated_at = new Date().toISOString();
      return { value: store, result: { event, changed } };
    },
    { signal: options.signal },
  );
}

/** Deletes an event. */
export async function cancel_event(
  input: Record<string, unknown>,
  context: ToolContext,
  options: ToolHandlerOptions,
): Promise<{ cancelled: CalendarEvent }> {
  const eventId = String(input.event_id);
  return updateJsonFile(
    storePath(context, options),
    emptyStore,
    (raw) => {
      const store = checkStore(raw);
      const event = findEvent(store, eventId);
      store.events = store.events.filter((candidate) => candidate !== event);
      return { value: store, result: { cancelled: event } };
    },
    { signal: options.signal },
  );
}

function findEvent(store: CalendarStore, eventId: string): CalendarEvent {
  const event = store.events.find((candidate) => candidate.id === eventId);
  if (event === undefined) {
    throw new ToolError(
      'EVENT_NOT_FOUND',
      `No event has the id ${JSON.stringify(eventId)}; call get_agenda to see event ids.`,
      { event_id: eventId },
    );
  }
  return event;
}

function parseInstant(value: unknown, field: string): Date {
  const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) {
    throw new ToolError(
      'INVALID_TIME',
      `"${field}" must be an ISO 8601 date-time such as 2026-11-27T10:00:00Z, got ${JSON.stringify(value)}.`,
      { field },
    );
  }
  return new Date(time);
}

function checkRange(start: Date, end: Date): void {
  if (end.getTime() <= start.getTime()) {
    throw new ToolError(
      'INVALID_TIME_RANGE',
      `The event would end (${end.toISOString()}) before or when it starts (${start.toISOString()}); give an end after the start.`,
      { start: start.toISOString(), end: end.toISOString() },
    );
  }
}

function storePath(context: ToolContext, options: ToolHandlerOptions): string {
  return storeFile(options.dataDir, 'calendar', requireContextString(context, 'user_id'), '.json');
}

function emptyStore(): CalendarStore {
  return { version: 1, events: [] };
}

function checkStore(raw: unknown): CalendarStore {
  if (
    raw !== null &&
    typeof raw === 'object' &&
    Array.isArray((raw as { events?: unknown }).events)
  ) {
    return raw as CalendarStore;
  }
  throw new ToolError(
    'STORE_CORRUPT',
    'The calendar store does not hold {"events": [...]}; move it away to start empty.',
    {},
  );
}
