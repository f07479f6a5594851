import type { Embedder } from '../../src/embeddings/embedder.js';

/** Words on the same topic share an axis; the tests' stand-in for a model's notion of meaning. */
export const TOPICS: Readonly<Record<string, readonly string[]>> = {
  money: [
    'invoice',
    'invoices',
    'bill',
    'billing',
    'payment',
    'pay',
    'fees',
    'charge',
    'budget',
    'sales',
  ],
  calendar: ['meeting', 'calendar', 'schedule', 'appointment', 'agenda'],
  weather: ['weather', 'rain', 'forecast', 'temperature', 'umbrella'],
  engineering: ['deploy', 'release', 'build', 'ticket', 'bug'],
  notes: ['note', 'memo', 'todo', 'reminder', 'report'],
};

const NOISE_AXES = 16;
/** Length of the vectors: one axis per topic, then the noise axes. */
export const TOPIC_DIMENSIONS = Object.keys(TOPICS).length + NOISE_AXES;

/** An embedder for tests: deterministic, dependency-free, with an inspectable call log. */
export interface TopicEmbedder extends Embedder {
  /** The texts of each `embed` call, in order. */
  readonly calls: string[][];
}

/**
 * A tiny deterministic embedder: each word on a topic adds 1 on its topic's axis; any other
 * word adds a small weight (0.1-0.7, from a hash of the word) on one of 16 noise axes. So
 * texts on one topic are close whether or not they share words, and unrelated texts are not.
 */
export function createTopicEmbedder(id = 'topic-test'): TopicEmbedder {
  const axes = Object.keys(TOPICS);
  const axisOfWord = new Map<string, number>();
  axes.forEach((topic, axis) => {
    for (const word of TOPICS[topic]!) axisOfWord.set(word, axis);
  });
  const calls: string[][] = [];
  return {
    id,
    calls,
    async embed(texts) {
      calls.push([...texts]);
      return texts.map((text) => {
        const vector = new Array<number>(axes.length + NOISE_AXES).fill(0);
        for (const word of text.toLowerCase().split(/[^a-z]+/)) {
          if (word === '') continue;
          const axis = axisOfWord.get(word);
          if (axis !== undefined) {
            vector[axis]! += 1;
            continue;
          }
          let hash = 0;
          for (const char of word) hash = (hash * 31 + char.charCodeAt(0)) % 1_000_003;
          vector[axes.length + (hash % NOISE_AXES)]! += 0.1 + (hash % 7) / 10;
        }
        return vector;
      });
    },
  };
}
