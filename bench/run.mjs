/**
 * `npm run bench`: the performance table of issue 7. Generates synthetic registries of 100,
 * 1,000 and 10,000 tools (seeded, so every run measures the same files) in a temp directory and
 * prints one table: each figure is a median (or p50) of repeated runs and each comparison a
 * ratio to a baseline measured in the same run, next to its target.
 *
 *   node bench/run.mjs [--quick] [--json]
 *
 * --quick: fewer repetitions and queries (about a third of the time; noisier).
 * --json:  print the rows as JSON instead of the table.
 *
 * See docs/guide/performance.md for how to read the table.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import MiniSearch from 'minisearch';
import { readToolE } from '../eval/datasets.mjs';
import { bareLoad } from './bare-load.mjs';
import { exampleInput } from './example-input.mjs';
import {
  collectGarbage,
  formatDuration,
  median,
  percentile,
  timeBatched,
  timeEach,
} from './measure.mjs';
import {
  generateCatalog,
  generateMessages,
  generateQueries,
  writeCatalog,
} from './synthetic-registry.mjs';
import { TOOL_TEXT_FIELDS, toolDocuments } from './tool-text.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { createRegistry, createTranslator, loadRegistry, PROVIDER_IDS, translate } = await import(
  '../dist/src/index.js'
);
const { validateToolInput } = await import('../dist/src/entries/json-schema.js');

const quick = process.argv.includes('--quick');
const asJson = process.argv.includes('--json');
const SIZES = [100, 1_000, 10_000];
const LARGEST = SIZES.at(-1);
const started = performance.now();
const rows = [];

/**
 * One table row. `ratio` is value / baseline unless given; `pass` is undefined for rows that
 * only inform.
 */
function addRow({ figure, value, baseline, baselineLabel, ratio, target, pass }) {
  const computed = ratio ?? (baseline === undefined ? undefined : value / baseline);
  rows.push({
    figure,
    value: typeof value === 'string' ? value : formatDuration(value),
    raw: typeof value === 'number' ? value : undefined,
    baselineRaw: baseline,
    baseline:
      baseline === undefined
        ? (baselineLabel ?? '—')
        : `${formatDuration(baseline)}${baselineLabel ? ` ${baselineLabel}` : ''}`,
    ratio: computed === undefined ? '—' : `${computed.toFixed(2)}x`,
    ratioValue: computed,
    target: target ?? '—',
    result: pass === undefined ? 'info' : pass ? 'pass' : 'FAIL',
  });
  if (!asJson) process.stderr.write(`  ${figure}: ${rows.at(-1).value}\n`);
}

function progress(text) {
  if (!asJson) process.stderr.write(`${text}\n`);
}

const workDir = await mkdtemp(join(tmpdir(), 'toolcap-bench-'));
try {
  // -------------------------------------------------------------------------------------------
  progress('generating registries');
  const catalogs = new Map();
  for (const size of SIZES) {
    const catalog = generateCatalog(size);
    const dir = join(workDir, `tools-${size}`);
    await writeCatalog(catalog, dir);
    catalogs.set(size, { ...catalog, dir, messages: generateMessages(catalog, 400) });
  }

  // -------------------------------------------------------------------------------------------
  // load, and the ranking index built by the first select
  const registries = new Map();
  for (const size of SIZES) {
    progress(`load ${size}`);
    const { dir, messages } = catalogs.get(size);
    const repeats = quick ? 3 : size === LARGEST ? 7 : 11;
    const ours = [];
    const bare = [];
    const builds = [];
    let registry;
    // interleaved, after a full collection each, so both see the same machine state
    for (let repeat = 0; repeat < repeats + 1; repeat++) {
      collectGarbage();
      let start = performance.now();
      const documents = await bareLoad(dir);
      const bareTime = performance.now() - start;
      if (documents.length === 0) throw new Error('no files');
      collectGarbage();
      start = performance.now();
      // a fresh analyzer (the default one, with empty stem caches), as in a new process
      registry = await loadRegistry({ dirs: [dir], analyzer: {} });
      const loadTime = performance.now() - start;
      start = performance.now();
      registry.select(messages[0], { maxTools: 20 });
      const buildTime = performance.now() - start;
      if (registry.size !== size || registry.diagnostics.length > 0) {
        throw new Error(`expected ${size} tools without diagnostics, got ${registry.size}`);
      }
      // the first round warms the JIT and the file cache
      if (repeat === 0) continue;
      bare.push(bareTime);
      ours.push(loadTime);
      builds.push(buildTime);
    }
    registries.set(size, registry);
    const files = size / 20;
    addRow({
      figure: `load ${size.toLocaleString('en-US')} tools (${files} files)`,
      value: median(ours),
      baseline: median(bare),
      baselineLabel: 'glob+read+parse',
      target: size === LARGEST ? '≤ 2.0x' : undefined,
      pass: size === LARGEST ? median(ours) / median(bare) <= 2.0 : undefined,
    });
    addRow({
      figure: `ranking index build (first select) ${size.toLocaleString('en-US')} tools`,
      value: median(builds),
    });
  }

  // -------------------------------------------------------------------------------------------
  // select p50 against the naive matcher, each size in a fresh process. The sizes take turns
  // over several passes, so a busy moment of the machine hits one pass, not one size: each
  // figure is the median of its passes' p50s, and the 10,000 / 1,000 ratio the median of the
  // ratios within each pass
  const passes = quick ? 1 : 5;
  const selectRuns = new Map(SIZES.map((size) => [size, []]));
  for (let pass = 0; pass < passes; pass++) {
    for (const size of SIZES) {
      progress(`select ${size}${passes > 1 ? ` (pass ${pass + 1} of ${passes})` : ''}`);
      const child = spawnSync(
        process.execPath,
        [join(root, 'bench/select-child.mjs'), catalogs.get(size).dir, String(size), '3'],
        { cwd: root, stdio: 'pipe', encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
      );
      if (child.status !== 0) throw new Error(`select child failed: ${child.stderr}`);
      selectRuns.get(size).push(JSON.parse(child.stdout));
    }
  }
  const passP50 = (size, key) => selectRuns.get(size).map((run) => percentile(run[key], 0.5));
  for (const size of SIZES) {
    const runs = selectRuns.get(size);
    const ourP50 = median(passP50(size, 'ours'));
    const naiveP50 = median(passP50(size, 'baseline'));
    const largest = size === LARGEST;
    addRow({
      figure: `select p50 (maxTools 20) ${size.toLocaleString('en-US')} tools`,
      value: ourP50,
      baseline: naiveP50,
      baselineLabel: 'naive matcher',
      // ≥ 4x faster than the naive matcher
      target: largest ? '≤ 0.25x' : undefined,
      pass: largest ? ourP50 / naiveP50 <= 0.25 : undefined,
    });
    if (largest) {
      addRow({
        figure: `select p99 ${size.toLocaleString('en-US')} tools`,
        value: percentile(
          runs.flatMap((run) => run.ours),
          0.99,
        ),
        baseline: percentile(
          runs.flatMap((run) => run.baseline),
          0.99,
        ),
        baselineLabel: 'naive matcher',
      });
    }
  }
  const largeP50 = passP50(10_000, 'ours');
  const scaleRatio = median(passP50(1_000, 'ours').map((p50, pass) => largeP50[pass] / p50));
  addRow({
    figure: 'select p50 at 10,000 / p50 at 1,000',
    value: `${scaleRatio.toFixed(2)}x`,
    ratio: scaleRatio,
    target: '≤ 2.0x',
    pass: scaleRatio <= 2.0,
  });

  // -------------------------------------------------------------------------------------------
  // search top 10 against minisearch over the same texts
  for (const size of SIZES) {
    progress(`search ${size}`);
    const catalog = catalogs.get(size);
    const registry = registries.get(size);
    const queries = generateQueries(catalog, quick ? 150 : 400);
    const miniQueries = queries.slice(0, size === LARGEST ? (quick ? 20 : 60) : quick ? 60 : 150);
    const start = performance.now();
    const mini = new MiniSearch({ fields: TOOL_TEXT_FIELDS });
    mini.addAll(toolDocuments(catalog.groups));
    const miniBuild = performance.now() - start;
    const search = (query) => registry.search(query, { k: 10 });
    const miniSearch = (query) => mini.search(query).slice(0, 10);
    timeEach(queries.slice(0, 50), search, 1);
    timeEach(miniQueries.slice(0, 5), miniSearch, 1);
    collectGarbage();
    const ours = timeEach(queries, search, quick ? 1 : 2);
    collectGarbage();
    const baseline = timeEach(miniQueries, miniSearch, 1);
    const largest = size === LARGEST;
    addRow({
      figure: `search p50 (top 10) ${size.toLocaleString('en-US')} tools`,
      value: percentile(ours, 0.5),
      baseline: percentile(baseline, 0.5),
      baselineLabel: 'minisearch',
      target: largest ? '≤ 0.25x' : undefined,
      pass: largest ? percentile(ours, 0.5) / percentile(baseline, 0.5) <= 0.25 : undefined,
    });
    if (largest) {
      addRow({
        figure: `minisearch index build ${size.toLocaleString('en-US')} tools`,
        value: miniBuild,
      });
    }
  }

  // -------------------------------------------------------------------------------------------
  // semantic search with the built-in word vectors at the largest size: what the optional
  // semantic scorer costs (embedding the catalog once, then the query and a fused ranking of
  // every tool per search), against lexical search on the same registry
  {
    progress('semantic search');
    const { createWordVectorEmbedder } = await import('../dist/src/entries/embeddings.js');
    const { dir } = catalogs.get(LARGEST);
    const embedder = createWordVectorEmbedder({ builtin: true });
    await embedder.embed(['']);
    const semanticRegistry = await loadRegistry({
      dirs: [dir],
      semantic: { embedder, cacheDir: false },
    });
    let start = performance.now();
    await semanticRegistry.prepareSemantic();
    const prepared = performance.now() - start;
    const queries = generateQueries(catalogs.get(LARGEST), quick ? 50 : 200);
    const lexical = (query) => semanticRegistry.search(query, { k: 10 });
    timeEach(queries.slice(0, 20), lexical, 1);
    for (const query of queries.slice(0, 10)) await semanticRegistry.searchAsync(query, { k: 10 });
    collectGarbage();
    const fused = [];
    for (const query of queries) {
      start = performance.now();
      await semanticRegistry.searchAsync(query, { k: 10 });
      fused.push(performance.now() - start);
    }
    collectGarbage();
    const plain = timeEach(queries, lexical, 1);
    addRow({
      figure: `semantic: embed the catalog (built-in vectors), ${LARGEST.toLocaleString('en-US')} tools`,
      value: prepared,
    });
    addRow({
      figure: `semantic: searchAsync p50 (built-in vectors), ${LARGEST.toLocaleString('en-US')} tools`,
      value: percentile(fused, 0.5),
      baseline: percentile(plain, 0.5),
      baselineLabel: 'lexical search',
    });
  }

  // -------------------------------------------------------------------------------------------
  // recall on the quality eval (MetaTool / ToolE, as eval/run.mjs): ours against minisearch
  {
    progress('recall (ToolE)');
    const data = readToolE();
    const used = new Set();
    const names = data.tools.map((tool) => {
      let name = tool.name.replace(/[^A-Za-z0-9_]/g, '_').slice(0, 60);
      if (!/^[A-Za-z_]/.test(name)) name = `_${name}`;
      let unique = name;
      for (let suffix = 2; used.has(unique); suffix++) unique = `${name}_${suffix}`;
      used.add(unique);
      return unique;
    });
    const registry = createRegistry().register({
      group: 'eval',
      version: '1.0.0',
      description: 'Tools',
      selection: { strategy: 'always' },
      tools: data.tools.map((tool, index) => ({
        name: names[index],
        description: tool.description.trim() || tool.name,
        category: 'retrieval',
        input_schema: { type: 'object', properties: {} },
        metadata: { executor: 'eval' },
      })),
    });
    const mini = new MiniSearch({ fields: ['name', 'description'] });
    mini.addAll(
      data.tools.map((tool, id) => ({ id, name: tool.name, description: tool.description })),
    );
    const position = new Map(names.map((name, index) => [name, index]));
    const goldOf = new Map(data.tools.map((tool, index) => [tool.name, index]));
    const queries = quick ? data.single.filter((_, index) => index % 4 === 0) : data.single;
    let ours = 0;
    let theirs = 0;
    for (const { query, tool } of queries) {
      const gold = goldOf.get(tool);
      if (registry.search(query, { k: 5 }).some((result) => position.get(result.name) === gold)) {
        ours++;
      }
      if (
        mini
          .search(query)
          .slice(0, 5)
          .some((result) => result.id === gold)
      ) {
        theirs++;
      }
    }
    addRow({
      figure: `search recall@5, ToolE (${queries.length.toLocaleString('en-US')} queries, 199 tools)`,
      value: (ours / queries.length).toFixed(3),
      baseline: undefined,
      baselineLabel: `${(theirs / queries.length).toFixed(3)} minisearch`,
      ratio: ours / theirs,
      target: '≥ 1.0x (no worse)',
      pass: ours >= theirs,
    });
  }

  // -------------------------------------------------------------------------------------------
  // translate a 20-tool selection: cold (translate(), which builds everything afresh) and
  // cached (a registry's translator given the same list again)
  {
    progress('translate');
    const catalog = catalogs.get(1_000);
    const group = catalog.groups[3];
    const message = `please ${group.selection.keywords[0]} for the team`;
    const repeats = quick ? 7 : 15;
    for (const provider of PROVIDER_IDS) {
      const cold = [];
      let tools;
      // the first rounds warm the JIT up: "cold" is about the translator's work, not V8's
      const warmUp = 30;
      for (let repeat = 0; repeat < repeats + warmUp; repeat++) {
        const registry = createRegistry().register(structuredClone(group));
        tools = registry.select(message, { maxTools: 20 }).tools;
        if (tools.length !== 20) throw new Error(`expected 20 selected tools, got ${tools.length}`);
        const start = performance.now();
        translate(tools, provider);
        if (repeat >= warmUp) cold.push(performance.now() - start);
      }
      const translator = createTranslator();
      translator.translate(tools, provider);
      const cached = timeBatched(() => translator.translate(tools, provider), { batch: 2000 });
      addRow({
        figure: `translate 20 tools, ${provider}, cold`,
        value: median(cold),
      });
      // a repeated turn is what a translator exists for: it must cost next to nothing
      addRow({
        figure: `translate 20 tools, ${provider}, cached`,
        value: cached,
        baseline: median(cold),
        baselineLabel: 'cold',
        target: '≤ 0.05x',
        pass: cached / median(cold) <= 0.05,
      });
    }
  }

  // -------------------------------------------------------------------------------------------
  // execute: input validation per call after the first, against ajv alone on the same schema
  {
    progress('execute validation');
    const catalog = catalogs.get(1_000);
    const registry = registries.get(1_000);
    const tools = catalog.tools.slice(0, 20).map((tool) => registry.get(tool.name));
    const inputs = tools.map((tool) => exampleInput(tool.input_schema));
    // the baseline: ajv itself, configured as src/schema/compile-schema.ts configures it
    // (ownProperties: model input is untrusted), and ajv with its default options as an aside
    const sameOptions = addFormats(
      new Ajv2020({
        allErrors: true,
        strict: false,
        validateSchema: false,
        addUsedSchema: false,
        ownProperties: true,
      }),
    );
    const validators = tools.map((tool) => sameOptions.compile(structuredClone(tool.input_schema)));
    const defaults = new Ajv2020({ allErrors: true, strict: false });
    const defaultValidators = tools.map((tool) =>
      defaults.compile(structuredClone(tool.input_schema)),
    );
    tools.forEach((tool, index) => {
      const result = validateToolInput(tool, inputs[index]);
      if (!result.ok || !validators[index](inputs[index])) {
        throw new Error(`the example input of ${tool.name} is not valid`);
      }
    });
    let next = 0;
    const variants = [
      (index) => validateToolInput(tools[index], inputs[index]),
      (index) => validators[index](inputs[index]),
      (index) => defaultValidators[index](inputs[index]),
    ];
    const perCall = variants.map(() => []);
    const timeVariant = (run, calls) => {
      const start = performance.now();
      for (let call = 0; call < calls; call++) {
        next = (next + 1) % 20;
        run(next);
      }
      return (performance.now() - start) / calls;
    };
    // short batches in rotating order, so a burst of machine noise hits all three alike
    const samples = quick ? 41 : 121;
    for (let sample = 0; sample < samples; sample++) {
      for (let offset = 0; offset < variants.length; offset++) {
        const variant = (sample + offset) % variants.length;
        perCall[variant].push(timeVariant(variants[variant], 500));
      }
    }
    const [ours, bare, bareDefaults] = perCall;
    addRow({
      figure: 'execute: input validation per call (after the first)',
      value: median(ours),
      baseline: median(bare),
      baselineLabel: 'ajv validate, same options',
      target: '≤ 1.5x',
      pass: median(ours) / median(bare) <= 1.5,
    });
    addRow({
      figure: 'execute: input validation per call, against ajv defaults',
      value: median(ours),
      baseline: median(bareDefaults),
      baselineLabel: 'ajv validate, default options',
    });
  }

  // -------------------------------------------------------------------------------------------
  // CLI cold start against `node -e 0`, spawned alternately
  {
    progress('CLI cold start');
    // the shipped CLI: package.json "bin" (the esbuild bundle)
    const bin = join(root, 'dist/cli/toolcap.mjs');
    const commands = [
      { label: 'node -e 0', args: ['-e', '0'] },
      {
        label: 'toolcap select',
        args: [bin, 'select', 'schedule a meeting with Dana and add a task to my to-do list'],
        target: true,
      },
      { label: 'toolcap list', args: [bin, 'list'] },
      { label: 'toolcap validate', args: [bin, 'validate'] },
      { label: 'toolcap search', args: [bin, 'search', 'write in my journal'] },
    ];
    const times = commands.map(() => []);
    const repeats = quick ? 7 : 21;
    for (let repeat = 0; repeat < repeats + 1; repeat++) {
      commands.forEach((command, index) => {
        const start = performance.now();
        const result = spawnSync(process.execPath, command.args, { cwd: root, stdio: 'pipe' });
        const elapsed = performance.now() - start;
        if (result.status !== 0) {
          throw new Error(`${command.label} exited ${result.status}: ${result.stderr}`);
        }
        if (repeat > 0) times[index].push(elapsed);
      });
    }
    const node = median(times[0]);
    commands.slice(1).forEach((command, index) => {
      const value = median(times[index + 1]);
      addRow({
        figure: `CLI cold start: ${command.label} (bundled schemas)`,
        value,
        baseline: node,
        baselineLabel: 'node -e 0',
        target: command.target ? '≤ 2.5x' : undefined,
        pass: command.target ? value / node <= 2.5 : undefined,
      });
    });
  }

  // -------------------------------------------------------------------------------------------
  // memory at 10,000 tools, in a fresh process
  {
    progress('memory');
    const { dir, messages } = catalogs.get(LARGEST);
    // fresh processes, ours and the bare baseline alternating; RSS varies by several MB between
    // processes (how far V8 grew the young generation, malloc arenas), so each is a median
    const runs = [];
    const bareRuns = [];
    const spawnMemoryChild = (...mode) => {
      const result = spawnSync(
        process.execPath,
        ['--expose-gc', join(root, 'bench/memory-child.mjs'), dir, messages[0], ...mode],
        { cwd: root, stdio: 'pipe', encoding: 'utf8' },
      );
      if (result.status !== 0) throw new Error(`memory child failed: ${result.stderr}`);
      return JSON.parse(result.stdout);
    };
    for (let run = 0; run < (quick ? 1 : 5); run++) {
      runs.push(spawnMemoryChild());
      bareRuns.push(spawnMemoryChild('bare'));
    }
    const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
    const afterLoad = median(runs.map((run) => run.afterLoad.rss));
    const afterIndex = median(runs.map((run) => run.afterIndex.rss));
    const bareLoad = median(bareRuns.map((run) => run.afterLoad.rss));
    // a registry holds no more than a plain parse of the same files would
    addRow({
      figure: `memory after load, ${LARGEST.toLocaleString('en-US')} tools (RSS)`,
      value: mb(afterLoad),
      baselineLabel: `${mb(bareLoad)} bare glob+read+parse`,
      ratio: afterLoad / bareLoad,
      target: '≤ 1.0x',
      pass: afterLoad <= bareLoad,
    });
    addRow({
      figure: `memory after bare glob+read+parse, ${LARGEST.toLocaleString('en-US')} tools (RSS)`,
      value: mb(median(bareRuns.map((run) => run.afterLoad.rss))),
      baselineLabel: `heap ${mb(median(bareRuns.map((run) => run.afterLoad.heapUsed)))}`,
    });
    addRow({
      figure: `memory after first select + search, ${LARGEST.toLocaleString('en-US')} tools (RSS)`,
      value: mb(afterIndex),
      baselineLabel: `heap ${mb(median(runs.map((run) => run.afterIndex.heapUsed)))}`,
    });
  }
  // -------------------------------------------------------------------------------------------
  // the MCP gateway: a forwarded call against the same call made to the upstream directly, in a
  // fresh process (this one holds the 10,000-tool catalogs, whose garbage collections would
  // land on the gateway's calls and not on the direct ones' child)
  {
    progress('gateway');
    const child = spawnSync(
      process.execPath,
      [join(root, 'bench', 'gateway.mjs'), '--json', '--floor', ...(quick ? ['--quick'] : [])],
      { encoding: 'utf8', maxBuffer: 1 << 24 },
    );
    if (child.status !== 0) throw new Error(`bench/gateway.mjs failed: ${child.stderr}`);
    for (const row of JSON.parse(child.stdout).rows) rows.push(row);
  }
} finally {
  await rm(workDir, { recursive: true, force: true });
}

const machine = {
  node: process.version,
  cpus: cpus().length,
  cpu: cpus()[0]?.model.trim() ?? 'unknown',
  seconds: Math.round((performance.now() - started) / 1000),
  quick,
};
if (asJson) {
  console.log(JSON.stringify({ machine, rows }, null, 2));
} else {
  const header = ['figure', 'value', 'baseline', 'ratio', 'target', 'result'];
  const table = rows.map((row) => header.map((key) => row[key]));
  const widths = header.map((key, column) =>
    Math.max(key.length, ...table.map((cells) => cells[column].length)),
  );
  const line = (cells) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
  console.log(
    `\ntoolcap bench: node ${machine.node}, ${machine.cpus} × ${machine.cpu}${quick ? ', --quick' : ''}, ${machine.seconds} s`,
  );
  console.log(line(header));
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`);
  for (const cells of table) console.log(line(cells));
  const failed = rows.filter((row) => row.result === 'FAIL').length;
  console.log(
    `\n${rows.filter((row) => row.result === 'pass').length} pass, ${failed} fail (ratio = value / baseline; see docs/guide/performance.md)`,
  );
}
