/**
 * Run by bench/run.mjs in a fresh process (`node --expose-gc bench/memory-child.mjs DIR MESSAGE`):
 * loads the registry in DIR, collects garbage and prints RSS and heap in bytes as JSON; then
 * runs one select and one search (which build the ranking index) and prints them again.
 */
const [dir, message] = process.argv.slice(2);
const { loadRegistry } = await import('../dist/src/index.js');

function snapshot() {
  globalThis.gc();
  globalThis.gc();
  const usage = process.memoryUsage();
  return { rss: usage.rss, heapUsed: usage.heapUsed };
}

const before = snapshot();
const registry = await loadRegistry({ dirs: [dir] });
const afterLoad = snapshot();
registry.select(message, { maxTools: 20 });
registry.search(message, { k: 10 });
const afterIndex = snapshot();
process.stdout.write(
  `${JSON.stringify({ before, afterLoad, afterIndex, tools: registry.size, diagnostics: registry.diagnostics.length })}\n`,
);
