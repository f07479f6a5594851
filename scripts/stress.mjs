#!/usr/bin/env node
/**
 * Stress probes of the stores, the lock and the bundled handlers, run against the build
 * (dist/). Every probe is bounded in processes and time and touches only local temporary
 * files; nothing opens a network connection.
 *
 *   npm run stress                         # build, then every probe
 *   node scripts/stress.mjs --only lock    # one probe (comma-separated list)
 *   node scripts/stress.mjs --json         # figures as JSON on stdout
 *   node scripts/stress.mjs --only lock --writers 30 --concurrency 10 --rounds 1
 *
 * Exits 1 when anything was lost or broken (an acknowledged write missing, two writers inside
 * the lock, a write after TIMEOUT, outside content returned...), 0 otherwise.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist', 'src');
if (!existsSync(join(dist, 'index.js'))) {
  console.error('stress: dist/ is missing; run "npm run build" (npm run stress does)');
  process.exit(2);
}
const url = (path) => pathToFileURL(join(dist, path)).href;

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    json: { type: 'boolean', default: false },
    writers: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '25' },
    rounds: { type: 'string', default: '3' },
  },
});
const positive = (name) => {
  const number = Number(values[name]);
  if (!Number.isSafeInteger(number) || number < 1) {
    console.error(`stress: --${name} must be a positive integer, not ${values[name]}`);
    process.exit(2);
  }
  return number;
};
const settings = {
  writers: positive('writers'),
  concurrency: positive('concurrency'),
  rounds: positive('rounds'),
};

/** Child processes started by this script, stopped by their pids on the way out. */
const started = new Set();
process.on('exit', () => {
  for (const child of started) child.kill('SIGKILL');
});

function startNode(args, options = {}) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  started.add(child);
  child.once('exit', () => started.delete(child));
  return child;
}

/** Busy loops on every core (both, on this machine), stopped by the returned function. */
function loadCpus() {
  const loops = Array.from({ length: Math.max(2, availableParallelism()) }, () =>
    startNode(['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
  return () => {
    for (const loop of loops) loop.kill('SIGKILL');
  };
}

// ---------------------------------------------------------------------------------------------
// lock: many short-lived writer processes, some SIGKILLed, under CPU load

/**
 * One writer: increments a JSON counter (read-modify-write) and appends a journal line, a few
 * times, printing "ack <kind> <id>" after each call resolves. Inside the counter's critical
 * section it holds a marker file: finding a live process's marker is two writers inside.
 */
const WRITER = `
  const { updateJsonFile, appendJsonLines } = await import(process.env.STORE_URL);
  const { readFileSync, unlinkSync, writeFileSync } = await import('node:fs');
  const [counter, journal, marker, id, operations] = process.argv.slice(1);
  const alive = (pid) => { try { process.kill(pid, 0); return true; } catch (error) { return error.code !== 'ESRCH'; } };
  const enter = () => {
    try { writeFileSync(marker, String(process.pid), { flag: 'wx' }); return; } catch {}
    const other = Number(readFileSync(marker, 'utf8'));
    if (other !== process.pid && alive(other)) process.stdout.write('overlap\\n');
    writeFileSync(marker, String(process.pid));
  };
  // STORE_LOCKED (waited 10 s: the lock is not fair under heavy contention) is a refusal the
  // caller sees, never an acknowledged write; anything else thrown fails the process
  const attempt = async (kind, tag, write) => {
    try {
      await write();
      process.stdout.write('ack ' + kind + ' ' + tag + '\\n');
    } catch (error) {
      if (error.code !== 'STORE_LOCKED') throw error;
      process.stdout.write('refused ' + kind + ' ' + tag + '\\n');
    }
  };
  for (let index = 0; index < Number(operations); index++) {
    const tag = id + '.' + index;
    await attempt('counter', tag, () =>
      updateJsonFile(counter, () => ({ n: 0, ids: [] }), async (current) => {
        enter();
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 2));
        try { unlinkSync(marker); } catch {}
        return { value: { n: current.n + 1, ids: [...current.ids, tag] }, result: undefined };
      }),
    );
    await attempt('journal', tag, () => appendJsonLines(journal, [{ id: tag }]));
  }
`;

async function runWriters(dir, { writers, concurrency, killShare, operations }) {
  const counter = join(dir, 'counter.json');
  const journal = join(dir, 'journal.jsonl');
  const marker = join(dir, 'inside');
  const acks = { counter: new Set(), journal: new Set() };
  let overlaps = 0;
  let refused = 0;
  let killed = 0;
  let failed = 0;
  let next = 0;
  const runOne = (id) =>
    new Promise((resolve) => {
      const child = startNode(
        ['--input-type=module', '-e', WRITER, counter, journal, marker, String(id), operations],
        { env: { ...process.env, STORE_URL: url('execute/file-store.js') } },
      );
      let buffered = '';
      child.stdout.on('data', (chunk) => {
        buffered += chunk.toString('utf8');
        const lines = buffered.split('\n');
        buffered = lines.pop();
        for (const line of lines) {
          const [word, kind, tag] = line.split(' ');
          if (word === 'ack') acks[kind].add(tag);
          else if (word === 'refused') refused++;
          else if (word === 'overlap') overlaps++;
        }
      });
      let stderr = '';
      child.stderr.on('data', (chunk) => {
        stderr += chunk.toString('utf8');
      });
      const victim = Math.random() < killShare;
      const timer = victim
        ? setTimeout(() => child.kill('SIGKILL'), 30 + Math.random() * 400)
        : undefined;
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        if (signal === 'SIGKILL') killed++;
        else if (code !== 0) {
          failed++;
          if (failed <= 3) console.error(`stress: writer ${id} exited ${code}: ${stderr.trim()}`);
        }
        resolve();
      });
    });
  const worker = async () => {
    while (next < writers) await runOne(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, writers) }, worker));

  const stored = existsSync(counter)
    ? JSON.parse(readFileSync(counter, 'utf8'))
    : { n: 0, ids: [] };
  const lines = existsSync(journal)
    ? readFileSync(journal, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line).id)
    : [];
  const storedIds = new Set(stored.ids);
  const journalIds = new Set(lines);
  const lostCounter = [...acks.counter].filter((tag) => !storedIds.has(tag)).length;
  const lostJournal = [...acks.journal].filter((tag) => !journalIds.has(tag)).length;
  return {
    writers,
    killed,
    failed,
    acknowledged: acks.counter.size + acks.journal.size,
    refused,
    stored: stored.ids.length + lines.length,
    lost: lostCounter + lostJournal,
    duplicated: stored.ids.length - storedIds.size + (lines.length - journalIds.size),
    inconsistent: stored.n === stored.ids.length ? 0 : 1,
    overlaps,
  };
}

async function probeLock() {
  const rounds = [];
  for (let round = 0; round < settings.rounds; round++) {
    const dir = mkdtempSync(join(tmpdir(), 'toolcap-stress-lock-'));
    const stopLoad = loadCpus();
    const started = Date.now();
    try {
      const figures = await runWriters(dir, {
        writers: settings.writers,
        concurrency: settings.concurrency,
        killShare: 0.15,
        operations: '2',
      });
      rounds.push({ ...figures, seconds: Math.round((Date.now() - started) / 100) / 10 });
    } finally {
      stopLoad();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const sum = (key) => rounds.reduce((total, round) => total + round[key], 0);
  return {
    name: 'lock',
    description: `${settings.writers} writer processes, ${settings.concurrency} at a time, 15% SIGKILLed, every core busy, ${settings.rounds} round(s)`,
    figures: {
      rounds: rounds.length,
      writers: sum('writers'),
      killed: sum('killed'),
      acknowledged: sum('acknowledged'),
      refused: sum('refused'),
      lost: sum('lost'),
      duplicated: sum('duplicated'),
      inconsistent: sum('inconsistent'),
      overlaps: sum('overlaps'),
      failed: sum('failed'),
      seconds: Math.round(rounds.reduce((total, round) => total + round.seconds, 0)),
    },
    broken: sum('lost') + sum('duplicated') + sum('inconsistent') + sum('overlaps') + sum('failed'),
  };
}

// ---------------------------------------------------------------------------------------------

const PROBES = { lock: probeLock };

const selected =
  values.only === undefined ? Object.keys(PROBES) : values.only.split(',').filter(Boolean);
for (const name of selected) {
  if (!Object.hasOwn(PROBES, name)) {
    console.error(`stress: unknown probe "${name}"; probes: ${Object.keys(PROBES).join(', ')}`);
    process.exit(2);
  }
}
const results = [];
for (const name of selected) {
  if (!values.json) console.error(`stress: ${name}...`);
  const result = await PROBES[name]();
  results.push(result);
  if (!values.json) {
    console.log(`${result.name}: ${result.description}`);
    for (const [key, value] of Object.entries(result.figures)) {
      console.log(`  ${key.padEnd(14)} ${value}`);
    }
  }
}
if (values.json) console.log(JSON.stringify(results, null, 2));
process.exitCode = results.some((result) => result.broken > 0) ? 1 : 0;
