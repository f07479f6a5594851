import { describe, expect, it } from 'vitest';
import { chooseExampleRequests } from '../../src/migrate/choose-example-requests.js';

describe('chooseExampleRequests', () => {
  it('drops repeats that differ only in case, spacing and punctuation', () => {
    const chosen = chooseExampleRequests(
      ['Book a room for Tuesday'],
      ['book a room for tuesday!', 'What is on my calendar?', 'what is on my  calendar'],
      { max: 20 },
    );
    expect(chosen).toEqual({
      added: ['What is on my calendar?'],
      duplicates: 2,
      nearDuplicates: 0,
      overCap: 0,
    });
  });

  it('merges near-duplicates (word sets at least 80% alike) with what it keeps', () => {
    const chosen = chooseExampleRequests(
      [],
      [
        'schedule a meeting with the design team tomorrow morning',
        'schedule meetings with the design team tomorrow morning please',
        'cancel my dentist appointment',
      ],
      { max: 20 },
    );
    expect(chosen.added).toEqual([
      'schedule a meeting with the design team tomorrow morning',
      'cancel my dentist appointment',
    ]);
    expect(chosen.nearDuplicates).toBe(1);
  });

  it('merges at a Jaccard similarity of 0.8 and keeps 0.75', () => {
    // 4 shared words of 5 in all: 0.8
    expect(
      chooseExampleRequests(
        [],
        ['invoice customer overdue reminder', 'invoice customer overdue reminder payment'],
        { max: 5 },
      ),
    ).toMatchObject({ added: ['invoice customer overdue reminder'], nearDuplicates: 1 });
    // 3 shared words of 4 in all: 0.75
    expect(
      chooseExampleRequests([], ['invoice customer overdue', 'invoice customer overdue payment'], {
        max: 5,
      }).added,
    ).toHaveLength(2);
  });

  it('a lower similarity threshold merges more', () => {
    const candidates = ['book a room for the team', 'book a room for the offsite'];
    expect(chooseExampleRequests([], candidates, { max: 5 }).added).toHaveLength(2);
    expect(chooseExampleRequests([], candidates, { max: 5, similarity: 0.5 }).added).toHaveLength(
      1,
    );
  });

  it('fills the cap with the most varied requests, in first-seen order', () => {
    const candidates = [
      'weather in Paris today',
      'weather in Paris tomorrow',
      'weather in Paris this weekend',
      'will it rain in Tokyo on Friday',
      'do I need an umbrella',
    ];
    const chosen = chooseExampleRequests([], candidates, { max: 3 });
    // the first is taken (ties go to the first seen), then the two farthest from what is kept
    expect(chosen.added).toEqual([
      'weather in Paris today',
      'will it rain in Tokyo on Friday',
      'do I need an umbrella',
    ]);
    expect(chosen.overCap).toBe(2);
  });

  it('keeps existing requests, counts them against the cap, and is deterministic', () => {
    const existing = ['a', 'b'].map((word) => `find flights to ${word}`);
    const candidates = ['hotel near the beach', 'car rental at the airport', 'train to Rome'];
    const first = chooseExampleRequests(existing, candidates, { max: 3 });
    expect(first.added).toEqual(['hotel near the beach']);
    expect(first.overCap).toBe(2);
    expect(chooseExampleRequests(existing, candidates, { max: 3 })).toEqual(first);
    expect(chooseExampleRequests(existing, candidates, { max: 2 }).added).toEqual([]);
  });
});
