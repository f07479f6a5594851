#!/usr/bin/env node
/**
 * Stress probes of the stores, the lock and the bundled handlers, run against the build
 * (dist/). Every probe is bounded in processes and time and touches only local temporary
 * files; nothing opens a network connection.
 *
 *   npm run stress                         # build, then every probe
 *   node scripts/stress.mjs --only lock    # one probe (comma-separated list)
 *   node scripts/stress.mjs --json         # figures as JSON on stdout
 *   node scripts/stress.mjs --only lock --writers 30 --concurrency 10 --rounds 1 --busy 1
 *
 * Exits 1 when anything was lost or broken (an acknowledged write missing, two writers inside
 * the lock, a write after TIMEOUT, outside content returned...), 0 otherwise.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
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
    busy: { type: 'string' },
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
  // spinning processes that keep the cores busy: one per core (at least 2) unless told
  busy: values.busy === undefined ? Math.max(2, availableParallelism()) : positive('busy'),
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
  const loops = Array.from({ length: settings.busy }, () =>
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
    description: `${settings.writers} writer processes, ${settings.concurrency} at a time, 15% SIGKILLed, ${settings.busy} spinning process(es), ${settings.rounds} round(s)`,
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
// timeouts: calls that report TIMEOUT must never be written later

/**
 * One caller process: `calls` add_task calls at once through the bundled registry (built
 * handlers), each with a short time limit, printing "ok <title>" or "timeout <title>".
 */
const CALLER = `
  const { loadRegistry } = await import(process.env.INDEX_URL);
  const [root, dataDir, id, calls] = process.argv.slice(1);
  const registry = await loadRegistry({ cwd: root, dirs: ['schemas'], handlers: ['dist/handlers'], dataDir });
  await Promise.all(Array.from({ length: Number(calls) }, async (_, index) => {
    const title = 'c' + id + '.' + index;
    // limits from 100 ms to 3 s: some calls time out while queued, some in the lock, some not
    const timeoutMs = 100 + Math.round(Math.random() * 2900);
    const result = await registry.execute('add_task', { title }, { user_id: 'shared' }, { timeoutMs });
    process.stdout.write((result.ok ? 'ok ' : result.error.code.toLowerCase() + ' ') + title + '\\n');
  }));
`;

async function probeTimeouts() {
  const callers = Math.max(1, Math.round(settings.writers / 8));
  const perCaller = 8;
  const dataDir = mkdtempSync(join(tmpdir(), 'toolcap-stress-timeouts-'));
  const stopLoad = loadCpus();
  const outcomes = new Map();
  const startedAt = Date.now();
  try {
    let next = 0;
    const runOne = (id) =>
      new Promise((resolve) => {
        const child = startNode(
          ['--input-type=module', '-e', CALLER, root, dataDir, String(id), String(perCaller)],
          { env: { ...process.env, INDEX_URL: url('index.js') } },
        );
        let buffered = '';
        child.stdout.on('data', (chunk) => {
          buffered += chunk.toString('utf8');
        });
        child.once('exit', () => {
          for (const line of buffered.split('\n').filter(Boolean)) {
            const [kind, title] = line.split(' ');
            outcomes.set(title, kind);
          }
          resolve();
        });
      });
    const worker = async () => {
      while (next < callers) await runOne(next++);
    };
    await Promise.all(Array.from({ length: Math.min(settings.concurrency, callers) }, worker));
  } finally {
    stopLoad();
  }
  const store = join(dataDir, 'tasks', 'shared.json');
  const stored = existsSync(store)
    ? JSON.parse(readFileSync(store, 'utf8')).tasks.map((task) => task.title)
    : [];
  rmSync(dataDir, { recursive: true, force: true });
  const storedSet = new Set(stored);
  const titles = [...outcomes];
  const ok = titles.filter(([, kind]) => kind === 'ok');
  const timedOut = titles.filter(([, kind]) => kind === 'timeout');
  return {
    name: 'timeouts',
    description: `${callers * perCaller} add_task calls (limits of 0.1-3 s) from ${callers} processes on one store, ${settings.concurrency} at a time, ${settings.busy} spinning process(es)`,
    figures: {
      calls: callers * perCaller,
      answered: outcomes.size,
      ok: ok.length,
      timedOut: timedOut.length,
      okLost: ok.filter(([title]) => !storedSet.has(title)).length,
      writtenAfterTimeout: timedOut.filter(([title]) => storedSet.has(title)).length,
      duplicated: stored.length - storedSet.size,
      seconds: Math.round((Date.now() - startedAt) / 1000),
    },
    broken: 0,
    check(figures) {
      return (
        figures.okLost +
        figures.writtenAfterTimeout +
        figures.duplicated +
        (figures.calls - figures.answered)
      );
    },
  };
}

// ---------------------------------------------------------------------------------------------
// files: a directory flipped between a real directory and a symlink to outside

const FLIPPER = `
  const { renameSync, symlinkSync, unlinkSync } = require('node:fs');
  const [sub, parked, outside] = process.argv.slice(1);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const rest = () => Atomics.wait(pause, 0, 0, Math.random() * 0.5);
  process.stdout.write('flipping\\n');
  for (;;) {
    try {
      renameSync(sub, parked); symlinkSync(outside, sub); rest();
      unlinkSync(sub); renameSync(parked, sub); rest();
    } catch {}
  }
`;

async function probeFiles() {
  const { loadRegistry } = await import(url('index.js'));
  const base = mkdtempSync(join(tmpdir(), 'toolcap-stress-files-'));
  const workspace = join(base, 'workspace');
  const outside = join(base, 'outside');
  mkdirSync(join(workspace, 'sub'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(workspace, 'sub', 'notes.txt'), 'inside A\n');
  writeFileSync(join(outside, 'notes.txt'), 'OUTSIDE A\n');
  const registry = await loadRegistry({
    cwd: root,
    dirs: ['schemas'],
    handlers: ['dist/handlers'],
    dataDir: join(base, 'data'),
  });
  const flipper = startNode(
    ['-e', FLIPPER, join(workspace, 'sub'), join(workspace, 'parked'), outside],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  await new Promise((resolve) => flipper.stdout.once('data', resolve));
  const counts = { reads: 0, readOk: 0, edits: 0, editOk: 0, refused: 0, leaked: 0 };
  const startedAt = Date.now();
  const calls = settings.writers * 25;
  try {
    for (let call = 0; call < calls && Date.now() - startedAt < 120_000; call++) {
      const context = { workspace_root: workspace };
      const read = await registry.execute('file_read', { file_path: 'sub/notes.txt' }, context);
      counts.reads++;
      if (read.ok) {
        counts.readOk++;
        if (read.output.content.includes('OUTSIDE')) counts.leaked++;
      } else if (read.error.code === 'PATH_OUTSIDE_WORKSPACE') counts.refused++;
      const [from, to] = call % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
      const edit = await registry.execute(
        'file_edit',
        { file_path: 'sub/notes.txt', old_string: from, new_string: to },
        context,
      );
      counts.edits++;
      if (edit.ok) counts.editOk++;
      else if (edit.error.code === 'PATH_OUTSIDE_WORKSPACE') counts.refused++;
    }
  } finally {
    flipper.kill('SIGKILL');
  }
  const outsideModified =
    readFileSync(join(outside, 'notes.txt'), 'utf8') === 'OUTSIDE A\n' ? 0 : 1;
  const filesOutside = readdirSync(outside).length - 1;
  rmSync(base, { recursive: true, force: true });
  return {
    name: 'files',
    description: `file_read and file_edit, ${calls} calls each, while another process flips a directory between a real one and a symlink to outside`,
    figures: {
      ...counts,
      outsideModified,
      filesLeftOutside: filesOutside,
      seconds: Math.round((Date.now() - startedAt) / 1000),
    },
    broken: counts.leaked + outsideModified + filesOutside,
  };
}

// ---------------------------------------------------------------------------------------------
// killed edits: file_edit processes SIGKILLed at random moments

const EDITOR = `
  const { file_edit } = await import(process.env.FILES_URL);
  const [workspace] = process.argv.slice(1);
  process.stdout.write('ready\\n');
  for (let index = 0; ; index++) {
    const [from, to] = index % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
    await file_edit({ file_path: 'big.txt', old_string: from + '|', new_string: to + '|' }, { workspace_root: workspace }).catch(() => {});
  }
`;

async function probeKilledEdits() {
  const { utimesSync } = await import('node:fs');
  const { loadRegistry } = await import(url('index.js'));
  const workspace = mkdtempSync(join(tmpdir(), 'toolcap-stress-edits-'));
  const body = 'x'.repeat(200_000);
  writeFileSync(join(workspace, 'big.txt'), `A|${body}\n`);
  const rounds = Math.max(10, Math.round(settings.writers / 4));
  let torn = 0;
  let leftovers = 0;
  const startedAt = Date.now();
  for (let round = 0; round < rounds; round++) {
    const child = startNode(['--input-type=module', '-e', EDITOR, workspace], {
      env: {
        ...process.env,
        FILES_URL: pathToFileURL(join(root, 'dist', 'handlers', 'files.js')).href,
      },
    });
    await new Promise((resolve) => child.stdout.once('data', resolve));
    await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 80));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    const text = readFileSync(join(workspace, 'big.txt'), 'utf8');
    if (!/^[AB]\|x{200000}\n$/.test(text)) torn++;
    leftovers = Math.max(leftovers, readdirSync(workspace).length - 1);
  }
  // what the killed editors left is stale once older than 10 s: age it, then edit once
  const old = new Date(Date.now() - 60_000);
  for (const entry of readdirSync(workspace)) {
    if (entry !== 'big.txt') utimesSync(join(workspace, entry), old, old);
  }
  const registry = await loadRegistry({
    cwd: root,
    dirs: ['schemas'],
    handlers: ['dist/handlers'],
  });
  const text = readFileSync(join(workspace, 'big.txt'), 'utf8');
  const [from, to] = text.startsWith('A|') ? ['A|', 'B|'] : ['B|', 'A|'];
  const last = await registry.execute(
    'file_edit',
    { file_path: 'big.txt', old_string: from, new_string: to },
    { workspace_root: workspace },
  );
  const remaining = readdirSync(workspace).length - 1;
  rmSync(workspace, { recursive: true, force: true });
  return {
    name: 'killed-edits',
    description: `${rounds} file_edit processes on a 200 KB file, each SIGKILLed at a random moment`,
    figures: {
      rounds,
      tornFiles: torn,
      mostTemporariesSeen: leftovers,
      temporariesAfterNextEdit: remaining,
      nextEditOk: last.ok ? 1 : 0,
      seconds: Math.round((Date.now() - startedAt) / 1000),
    },
    broken: torn + remaining + (last.ok ? 0 : 1),
  };
}

// ---------------------------------------------------------------------------------------------
// names: unknown tool names of every length against a large registry

async function probeNames() {
  const { createRegistry } = await import(url('index.js'));
  const tools = Array.from({ length: 1_000 }, (_, index) => ({
    name: `tool_number_${index}`,
    description: 'A tool.',
    category: 'analysis',
    input_schema: { type: 'object', properties: {} },
    metadata: {
      executor: 'none',
      requires_context: [],
      cost_estimate: 'low',
      latency_estimate: 'fast',
    },
  }));
  const registry = createRegistry().register({
    group: 'many',
    version: '1.0.0',
    description: 'Many tools.',
    selection: { strategy: 'always' },
    tools,
  });
  const lengths = [10, 64, 65, 1_000, 10_000, 100_000, 1_000_000];
  let slowest = 0;
  let longestMessage = 0;
  let suggestedForLong = 0;
  let wrong = 0;
  for (const length of lengths) {
    for (const letter of ['t', 'z']) {
      const name = letter.repeat(length);
      const started = performance.now();
      const result = await registry.execute(name, {});
      slowest = Math.max(slowest, performance.now() - started);
      if (result.ok || result.error.code !== 'TOOL_NOT_FOUND') {
        wrong++;
        continue;
      }
      longestMessage = Math.max(longestMessage, result.error.message.length);
      if (length > 64 && result.error.details.suggestions.length > 0) suggestedForLong++;
    }
  }
  return {
    name: 'names',
    description: `unknown names of ${lengths.join(', ')} characters against 1,000 tools`,
    figures: {
      names: lengths.length * 2,
      slowestMs: Math.round(slowest * 10) / 10,
      longestMessage,
      suggestedForLong,
      wrong,
    },
    broken: wrong + suggestedForLong + (longestMessage > 300 ? 1 : 0),
  };
}

// ---------------------------------------------------------------------------------------------
// fifo: a group file swapped for a FIFO while the loader lists and reads

const SWAPPER = `
  const { closeSync, constants, openSync, renameSync } = require('node:fs');
  const [file, regular, fifo] = process.argv.slice(1);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const rest = () => Atomics.wait(pause, 0, 0, Math.random() * 0.3);
  // a reader stuck in a blocking open of the FIFO (the bug) is released by opening the other
  // end, which only succeeds while someone reads: the probe ends, and counts it
  const release = (path) => {
    try {
      closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
      process.stdout.write('released a blocked reader\\n');
    } catch {}
  };
  process.stdout.write('swapping\\n');
  for (;;) {
    try {
      renameSync(file, regular); renameSync(fifo, file); rest();
      renameSync(file, fifo); renameSync(regular, file); rest();
    } catch {}
    release(file);
    release(fifo);
  }
`;

async function probeFifo() {
  const { loadRegistry } = await import(url('index.js'));
  const dir = mkdtempSync(join(tmpdir(), 'toolcap-stress-fifo-'));
  const group = {
    group: 'swapped',
    version: '1.0.0',
    description: 'A group file that is sometimes a FIFO.',
    selection: { strategy: 'always' },
    tools: [],
  };
  writeFileSync(join(dir, 'swapped_tools.json'), JSON.stringify(group));
  execFileSync('mkfifo', [join(dir, 'fifo')]);
  const swapper = startNode(
    ['-e', SWAPPER, join(dir, 'swapped_tools.json'), join(dir, 'regular'), join(dir, 'fifo')],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  await new Promise((resolve) => swapper.stdout.once('data', resolve));
  const loads = settings.writers * 2;
  const counts = { loads: 0, loaded: 0, refusedFifo: 0, missing: 0, other: 0, slowLoads: 0 };
  const startedAt = Date.now();
  try {
    for (let index = 0; index < loads && Date.now() - startedAt < 60_000; index++) {
      const started = Date.now();
      const registry = await loadRegistry({ dirs: [dir], cwd: dir });
      counts.loads++;
      if (Date.now() - started > 1_000) counts.slowLoads++;
      if (registry.group('swapped') !== undefined) counts.loaded++;
      for (const diagnostic of registry.diagnostics) {
        // the file is absent for a moment on each swap: missing files are expected too
        if (diagnostic.message.includes('not a regular file')) counts.refusedFifo++;
        else if (diagnostic.code === 'NO_GROUP_FILES' || diagnostic.message.includes('ENOENT')) {
          counts.missing++;
        } else counts.other++;
      }
    }
  } finally {
    swapper.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    name: 'fifo',
    description: `${loads} loads while another process swaps the group file with a FIFO`,
    figures: { ...counts, seconds: Math.round((Date.now() - startedAt) / 1000) },
    // a reader that blocked in open is released with nothing to read: EMPTY_FILE, in `other`
    broken: loads - counts.loads + counts.other,
  };
}

// ---------------------------------------------------------------------------------------------

const PROBES = {
  lock: probeLock,
  timeouts: probeTimeouts,
  files: probeFiles,
  'killed-edits': probeKilledEdits,
  names: probeNames,
  fifo: probeFifo,
};

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
  if (typeof result.check === 'function') {
    result.broken = result.check(result.figures);
    delete result.check;
  }
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
