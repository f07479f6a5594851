import { describe, expect, it } from 'vitest';
import { todayUtc } from '../../src/execute/handler-kit.js';
import { loadBundledRegistry, outputOf } from './bundled-registry.js';

interface CalendarEvent {
  id: string;
  title: string;
  start: string;
  end: string;
  attendees: string[];
  location?: string;
}

const user = { user_id: 'u1' };

describe('calendar handler', () => {
  it('creates an event lasting one hour by default and lists it in the agenda', async () => {
    const { registry } = await loadBundledRegistry();
    const event = outputOf<{ event: CalendarEvent }>(
      await registry.execute(
        'create_event',
        {
          title: 'Design review',
          start: '2026-11-27T10:00:00+01:00',
          attendees: ['Dana'],
          location: 'Room 4',
        },
        user,
      ),
    ).event;
    expect(event).toMatchObject({
      title: 'Design review',
      start: '2026-11-27T09:00:00.000Z',
      end: '2026-11-27T10:00:00.000Z',
      attendees: ['Dana'],
      location: 'Room 4',
    });
    await registry.execute(
      'create_event',
      { title: 'Early', start: '2026-11-27T07:00:00Z', end: '2026-11-27T07:30:00Z' },
      user,
    );
    await registry.execute(
      'create_event',
      { title: 'Next day', start: '2026-11-28T07:00:00Z' },
      user,
    );
    const agenda = outputOf<{ events: CalendarEvent[]; count: number }>(
      await registry.execute('get_agenda', { from: '2026-11-27' }, user),
    );
    expect(agenda.events.map((item) => item.title)).toEqual(['Early', 'Design review']);
    const twoDays = outputOf<{ count: number; to: string }>(
      await registry.execute('get_agenda', { from: '2026-11-27', to: '2026-11-28' }, user),
    );
    expect(twoDays).toMatchObject({ count: 3, to: '2026-11-28' });
    const today = outputOf<{ from: string; count: number }>(
      await registry.execute('get_agenda', {}, user),
    );
    expect(today).toMatchObject({ from: todayUtc(), count: 0 });
  });

  it('moves an event keeping its duration, edits fields, and cancels it', async () => {
    const { registry } = await loadBundledRegistry();
    const created = outputOf<{ event: CalendarEvent }>(
      await registry.execute(
        'create_event',
        { title: 'Standup', start: '2026-11-27T09:00:00Z', end: '2026-11-27T09:15:00Z' },
        user,
      ),
    ).event;
    const moved = outputOf<{ event: CalendarEvent; changed: string[] }>(
      await registry.execute(
        'update_event',
        {
          event_id: created.id,
          start: '2026-11-27T11:00:00Z',
          title: 'Late standup',
          attendees: ['Ann'],
        },
        user,
      ),
    );
    expect(moved.event).toMatchObject({
      title: 'Late standup',
      start: '2026-11-27T11:00:00.000Z',
      end: '2026-11-27T11:15:00.000Z',
      attendees: ['Ann'],
    });
    expect(moved.changed).toEqual(['title', 'start', 'attendees']);
    const untouched = outputOf<{ changed: string[] }>(
      await registry.execute('update_event', { event_id: created.id }, user),
    );
    expect(untouched.changed).toEqual([]);
    const relocated = outputOf<{ event: CalendarEvent }>(
      await registry.execute(
        'update_event',
        { event_id: created.id, end: '2026-11-27T12:00:00Z', location: 'Cafe' },
        user,
      ),
    );
    expect(relocated.event).toMatchObject({ end: '2026-11-27T12:00:00.000Z', location: 'Cafe' });

    const cancelled = outputOf<{ cancelled: CalendarEvent }>(
      await registry.execute('cancel_event', { event_id: created.id }, user),
    );
    expect(cancelled.cancelled.id).toBe(created.id);
    expect(await registry.execute('cancel_event', { event_id: created.id }, user)).toMatchObject({
      error: { code: 'EVENT_NOT_FOUND' },
    });
  });

  it('rejects impossible times and ranges as tool errors', async () => {
    const { registry } = await loadBundledRegistry();
    expect(
      await registry.execute(
        'create_event',
        { title: 'Backwards', start: '2026-11-27T10:00:00Z', end: '2026-11-27T09:00:00Z' },
        user,
      ),
    ).toMatchObject({ error: { code: 'INVALID_TIME_RANGE' } });
    expect(
      await registry.execute('create_event', { title: 'Bad', start: 'tomorrow at ten' }, user),
    ).toMatchObject({ error: { code: 'INVALID_INPUT', details: [{ pointer: '/start' }] } });
    expect(
      await registry.execute('get_agenda', { from: '2026-11-28', to: '2026-11-27' }, user),
    ).toMatchObject({ error: { code: 'INVALID_DATE_RANGE' } });
    expect(
      await registry.execute('update_event', { event_id: 'event_missing', title: 'x' }, user),
    ).toMatchObject({ error: { code: 'EVENT_NOT_FOUND' } });
  });
});
