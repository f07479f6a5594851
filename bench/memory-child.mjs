/**
 * Run by bench/run.mjs in a fresh process (`node --expose-gc bench/memory-child.mjs DIR MESSAGE
 * [bare]`): loads the registry in DIR, collects garbage and prints RSS and heap in bytes as JSON;
 * then runs one select and one search (which build the ranking index) and prints them again.
 * With `bare`, does only the load baseline (`bare-load.mjs`: fast-glob, readFile, JSON.parse,
 * keeping the parsed documents) and prints the same figures after it, so the table shows how much of
 * the RSS any loader of these files pays.
 */
const [dir, message, mode] = process.argv.slice(2);

function snapshot() {
  globalThis.gc();
  globalThis.gc();
  const usage = process.memoryUsage();
  return { rss: usage.rss, heapUsed: usage.heapUsed };
}

const before = snapshot();
if (mode === 'bare') {
  const { bareLoad } = await import('./bare-load.mjs');
  const documents = await bareLoad(dir);
  const afterLoad = snapshot();
  process.stdout.write(`${JSON.stringify({ before, afterLoad, files: documents.length })}\n`);
} else {
  const { loadRegistry } = await import('../dist/src/index.js');
  const registry = await loadRegistry({ dirs: [dir] });
  const afterLoad = snapshot();
  registry.select(message, { maxTools: 20 });
  registry.search(message, { k: 10 });
  const afterIndex = snapshot();
  process.stdout.write(
    `${JSON.stringify({ before, afterLoad, afterIndex, tools: registry.size, diagnostics: registry.diagnostics.length })}\n`,
  );
}
