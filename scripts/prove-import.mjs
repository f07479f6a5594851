#!/usr/bin/env node
// A proof of `toolcap import` on real tool lists: imports every function of the BFCL question
// files (their "function" lists, deduplicated by name) and every server of LiveMCPBench's
// tools.json into keyword groups in a temporary directory, then loads that directory with the
// loader and runs `toolcap validate` on it. Prints the counts (tools, groups, renamed names,
// warnings by kind). Reads ../shared/data (or --data DIR), so it is not part of the test suite.
// Usage: npm run build && node scripts/prove-import.mjs [--data DIR] [--keep] [--json]
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dataFlag = process.argv.indexOf('--data');
const data =
  dataFlag >= 0 && process.argv[dataFlag + 1] !== undefined
    ? resolve(process.argv[dataFlag + 1])
    : join(root, '..', 'shared', 'data');
const keep = process.argv.includes('--keep');
const asJson = process.argv.includes('--json');

// say what is missing before anything reads it (a raw ENOENT names neither the data set nor
// where it should be)
const bfclDir = join(data, 'bfcl');
const mcpTools = join(data, 'livemcpbench', 'tools.json');
const bfclFiles = existsSync(bfclDir)
  ? readdirSync(bfclDir)
      .filter((name) => /^BFCL_.*\.json$/.test(name))
      .sort()
  : [];
const missing = [
  ...(existsSync(bfclDir)
    ? bfclFiles.length === 0
      ? [`${bfclDir} holds no BFCL_*.json question files`]
      : []
    : [`${bfclDir} does not exist`]),
  ...(existsSync(mcpTools) ? [] : [`${mcpTools} does not exist`]),
];
if (missing.length > 0) {
  process.stderr.write(
    `prove-import: the data sets are missing from ${data}: ${missing.join('; ')}. Put the BFCL question files in bfcl/ and LiveMCPBench's tools.json in livemcpbench/, or pass --data DIR.\n`,
  );
  process.exit(1);
}
if (!existsSync(join(root, 'dist', 'src', 'index.js'))) {
  process.stderr.write('prove-import: dist/ is missing; run "npm run build" first.\n');
  process.exit(1);
}
const { main } = await import('../dist/src/cli/main.js');
const { loadRegistry } = await import('../dist/src/index.js');
const { importToolList, keywordDocument, toGroupName } = await import(
  '../dist/src/entries/import.js'
);

/** @type {{ dataset: string, group: string, from: string, label: string, entries: unknown[] }[]} */
const sources = [];

// BFCL: each question file is a JSON-lines file; each line's "function" is a list of tools
const seen = new Set();
let bfclFunctions = 0;
for (const file of bfclFiles) {
  const entries = [];
  for (const line of readFileSync(join(bfclDir, file), 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    for (const fn of JSON.parse(line).function ?? []) {
      bfclFunctions++;
      if (seen.has(fn.name)) continue;
      seen.add(fn.name);
      entries.push(fn);
    }
  }
  const category = basename(file, '.json').replace(/^BFCL_v\d+_/, '');
  sources.push({
    dataset: 'bfcl',
    group: toGroupName(`bfcl_${category}`),
    from: 'canonical',
    label: `bfcl/${file}`,
    entries,
  });
}

// LiveMCPBench: one group per MCP server
const servers = JSON.parse(readFileSync(mcpTools, 'utf8'));
const groupNames = new Set(sources.map((source) => source.group));
let mcpServers = 0;
for (const server of servers) {
  for (const [key, entry] of Object.entries(server.tools ?? {})) {
    mcpServers++;
    let group = toGroupName(key);
    for (let counter = 2; groupNames.has(group); counter++)
      group = `${toGroupName(key)}_${counter}`;
    groupNames.add(group);
    sources.push({
      dataset: 'livemcpbench',
      group,
      from: 'mcp',
      label: `livemcpbench/tools.json server "${key}"`,
      entries: entry.tools ?? [],
    });
  }
}

// TF-IDF: each group's keywords are ranked against the text of every other group
const documents = sources.map((source) =>
  keywordDocument(
    source.entries.map((tool) => ({
      name: String(tool.name),
      description: String(tool.description ?? ''),
    })),
  ),
);

const out = mkdtempSync(join(tmpdir(), 'toolcap-prove-import-'));
const reserved = new Set();
const totals = {
  groups: 0,
  tools_in: 0,
  tools_out: 0,
  renamed_invalid: 0,
  renamed_collision: 0,
  warnings: {},
  types_converted: {},
  categories: {},
  category_sources: {},
  failures: [],
};
const perDataset = {};
const started = performance.now();
sources.forEach((source, index) => {
  perDataset[source.dataset] ??= { groups: 0, tools_in: 0, tools_out: 0, renamed: 0, warnings: 0 };
  const stats = perDataset[source.dataset];
  try {
    const imported = importToolList(source.entries, {
      from: source.from,
      group: source.group,
      strategy: 'keyword',
      sourceLabel: source.label,
      reservedNames: reserved,
      restDocuments: documents.filter((_, other) => other !== index),
    });
    writeFileSync(
      join(out, `${source.group}_tools.json`),
      `${JSON.stringify(imported.document, null, 2)}\n`,
    );
    const tools = imported.document.tools;
    for (const tool of tools) reserved.add(tool.name);
    totals.groups++;
    stats.groups++;
    totals.tools_in += source.entries.length;
    stats.tools_in += source.entries.length;
    totals.tools_out += tools.length;
    stats.tools_out += tools.length;
    stats.renamed += imported.renamed.length;
    stats.warnings += imported.warnings.length;
    for (const entry of imported.renamed) {
      if (entry.reason === 'invalid') totals.renamed_invalid++;
      else totals.renamed_collision++;
    }
    for (const warning of imported.warnings) {
      totals.warnings[warning.code] = (totals.warnings[warning.code] ?? 0) + 1;
      const type = /^type "([^"]+)" is not a JSON Schema type/.exec(warning.message)?.[1];
      if (warning.code === 'TYPE_CONVERTED' && type !== undefined) {
        totals.types_converted[type] = (totals.types_converted[type] ?? 0) + 1;
      }
    }
    for (const { category, source: decidedBy } of imported.categories) {
      totals.categories[category] = (totals.categories[category] ?? 0) + 1;
      totals.category_sources[decidedBy] = (totals.category_sources[decidedBy] ?? 0) + 1;
    }
  } catch (error) {
    totals.failures.push({
      group: source.group,
      message: error instanceof Error ? error.message : String(error),
    });
  }
});
const importMs = Math.round(performance.now() - started);

const registry = await loadRegistry({ dirs: [out] });
const errors = registry.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
const loaderWarnings = registry.diagnostics.length - errors.length;
let validateOutput = '';
const validateCode = await main(['validate', '--schemas', out], {
  stdout: (text) => {
    validateOutput += text;
  },
  stderr: (text) => {
    validateOutput += text;
  },
  cwd: out,
  env: { NO_COLOR: '1' },
  isTty: false,
});

const report = {
  input: {
    bfcl_functions: bfclFunctions,
    bfcl_unique_names: seen.size,
    livemcpbench_servers: mcpServers,
  },
  ...totals,
  per_dataset: perDataset,
  import_ms: importMs,
  loader: {
    groups: registry.groups().length,
    tools: registry.size,
    errors: errors.length,
    warnings: loaderWarnings,
    first_errors: errors
      .slice(0, 5)
      .map((diagnostic) => `${diagnostic.file} ${diagnostic.code} ${diagnostic.message}`),
  },
  validate: { exit_code: validateCode, summary: validateOutput.trim().split('\n').pop() },
  directory: keep ? out : '(removed; pass --keep to keep it)',
};

if (asJson) {
  console.log(JSON.stringify(report, null, 2));
} else {
  const sorted = (object) =>
    Object.entries(object)
      .sort((a, b) => b[1] - a[1])
      .map(([key, value]) => `${key} ${value}`)
      .join(', ');
  console.log(
    `input: ${bfclFunctions} BFCL functions (${seen.size} unique names), ${mcpServers} LiveMCPBench servers`,
  );
  console.log(
    `imported: ${totals.groups} groups, ${totals.tools_out} of ${totals.tools_in} tools in ${importMs} ms`,
  );
  for (const [dataset, stats] of Object.entries(perDataset)) {
    console.log(
      `  ${dataset}: ${stats.groups} groups, ${stats.tools_out}/${stats.tools_in} tools, ${stats.renamed} renamed, ${stats.warnings} warnings`,
    );
  }
  console.log(
    `renamed: ${totals.renamed_invalid} invalid names converted, ${totals.renamed_collision} renamed to avoid another group's name`,
  );
  console.log(`warnings by kind: ${sorted(totals.warnings)}`);
  console.log(
    `TYPE_CONVERTED warnings by source type (one per tool and type): ${sorted(totals.types_converted)}`,
  );
  console.log(
    `categories: ${sorted(totals.categories)} (decided by: ${sorted(totals.category_sources)})`,
  );
  console.log(
    `import failures: ${totals.failures.length}${totals.failures.map((failure) => `\n  ${failure.group}: ${failure.message}`).join('')}`,
  );
  console.log(
    `loader: ${report.loader.groups} groups, ${report.loader.tools} tools, ${errors.length} errors, ${loaderWarnings} warnings`,
  );
  for (const line of report.loader.first_errors) console.log(`  ${line}`);
  console.log(`toolcap validate: exit ${validateCode}: ${report.validate.summary}`);
  console.log(`files: ${report.directory}`);
}
if (!keep) rmSync(out, { recursive: true, force: true });
process.exitCode =
  totals.failures.length === 0 && errors.length === 0 && validateCode === 0 ? 0 : 1;
