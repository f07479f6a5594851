/**
 * Run by bench/run.mjs in a fresh process per registry size (`node bench/select-child.mjs DIR
 * SIZE ROUNDS`), so one size's heap and caches do not weigh on another's: loads the registry,
 * warms up, then times `select` (maxTools 20) and the naive matcher on the same 400 messages,
 * in alternating rounds. Prints every per-call time in milliseconds as JSON.
 */
import { timeEach } from './measure.mjs';
import { createNaiveMatcher } from './naive-matcher.mjs';
import { generateCatalog, generateMessages } from './synthetic-registry.mjs';

const [dir, sizeText, roundsText] = process.argv.slice(2);
const { loadRegistry } = await import('../dist/src/index.js');
const catalog = generateCatalog(Number(sizeText));
const messages = generateMessages(catalog, 400);
const registry = await loadRegistry({ dirs: [dir] });
if (registry.size !== catalog.tools.length || registry.diagnostics.length > 0) {
  throw new Error(`${dir}: expected ${catalog.tools.length} tools without diagnostics`);
}
const naive = createNaiveMatcher(catalog.groups);
const select = (message) => registry.select(message, { maxTools: 20 });
const match = (message) => naive(message, 20);
// warm-up (the first select builds the ranking index)
for (let round = 0; round < 3; round++) {
  timeEach(messages, select);
  timeEach(messages, match);
}
const ours = [];
const baseline = [];
for (let round = 0; round < Number(roundsText); round++) {
  ours.push(...timeEach(messages, select));
  baseline.push(...timeEach(messages, match));
}
process.stdout.write(`${JSON.stringify({ ours, baseline })}\n`);
