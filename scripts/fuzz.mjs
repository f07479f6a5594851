#!/usr/bin/env node
/**
 * Large fuzz run: runs the property-based tests (every `*.fuzz.test.ts` under test/) with many
 * more cases than CI and prints how many ran.
 *
 *   node scripts/fuzz.mjs                          # 5,000 runs per property
 *   TOOLCAP_FUZZ_RUNS=50000 node scripts/fuzz.mjs  # more
 *   TOOLCAP_FUZZ_SEED=123 node scripts/fuzz.mjs    # replay the seed a failure reported
 *   node scripts/fuzz.mjs load.fuzz                # only files whose path contains this
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DEFAULT_RUNS = 5_000;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runs = process.env.TOOLCAP_FUZZ_RUNS ?? String(DEFAULT_RUNS);
if (!/^[1-9]\d*$/.test(runs)) {
  console.error(`TOOLCAP_FUZZ_RUNS must be a positive integer, not ${JSON.stringify(runs)}`);
  process.exit(2);
}
const filter = process.argv[2] ?? '';
const reportDir = mkdtempSync(join(tmpdir(), 'toolcap-fuzz-report-'));
const report = join(reportDir, 'runs.jsonl');
const vitest = join(
  dirname(createRequire(import.meta.url).resolve('vitest/package.json')),
  'vitest.mjs',
);

const started = Date.now();
// vitest filters by file path substring: every *.fuzz.test.ts, or the ones matching argv[2]
const result = spawnSync(
  process.execPath,
  [vitest, 'run', filter === '' ? '.fuzz.test' : filter, '--testTimeout', '0'],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, TOOLCAP_FUZZ_RUNS: runs, TOOLCAP_FUZZ_REPORT: report },
  },
);

let lines = [];
try {
  lines = readFileSync(report, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
} catch {
  lines = [];
}
rmSync(reportDir, { recursive: true, force: true });
const total = lines.reduce((sum, line) => sum + line.runs, 0);
console.log(
  `\nfuzz: ${lines.length} properties passed, ${total} runs in ${Math.round((Date.now() - started) / 1000)} s`,
);
for (const line of lines)
  console.log(`  ${String(line.runs).padStart(8)}  ${line.file}: ${line.property}`);
process.exit(result.status ?? 1);
