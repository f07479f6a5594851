import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

let porter: { stem(word: string): string } | undefined;

/**
 * English Porter stemming from natural's submodule, loaded on first use (never the natural
 * index, which costs ~300 ms and prints dotenv notices). `appointments` → `appoint`,
 * `scheduling` → `schedul`.
 */
export function porterStem(word: string): string {
  porter ??= require('natural/lib/natural/stemmers/porter_stemmer.js') as {
    stem(word: string): string;
  };
  return porter.stem(word);
}
