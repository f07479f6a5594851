#!/usr/bin/env node
// `npm run docs`: writes the code catalogues of docs/reference/ from the built catalogues
// (run after `npm run build`). A test fails when the pages are out of date.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cataloguePages } from './render-catalogue.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const library = await import('../dist/src/index.js');
for (const [file, text] of Object.entries(cataloguePages(library))) {
  writeFileSync(join(root, 'docs/reference', file), text);
  console.log(`wrote docs/reference/${file}`);
}
