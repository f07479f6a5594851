/**
 * Agent tasks over real MCP servers (eval/data/livemcpbench, see SOURCE.md): every server of
 * tools.json imported as a user would (`toolcap import --from mcp --strategy keyword`, one group
 * per server, through `importToolList`), the task tools mapped through the same renaming, and
 * `select` measured with `maxTools: 20`.
 *
 * Protocol, per task with tools t1..tn (in the order an agent calls them):
 * - first turn: `select(message, options)` with no history; a needed tool is held when the
 *   selection contains it. Reported: held tools / needed tools (over all tasks), and the share
 *   of tasks with every tool held.
 * - turn by turn: step i (1..n) is `select(message, { ...options, history })` where history is
 *   `[{ tool: t1 }, ..., { tool: t(i-1) }]` (the calls so far; the user message stays the turn's
 *   message, as in an agent loop that selects again after each tool result); the step counts
 *   when t(i) is selected. Step 1 is the first turn. Reported: steps whose tool was offered /
 *   all steps, and the same for steps 2..n only.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DATA = join(dirname(fileURLToPath(import.meta.url)), 'data/livemcpbench');

/**
 * Imports each server into its own keyword group (TF-IDF keywords against the other servers,
 * names made valid and unique across groups, in file order), writes the group files into a
 * temporary directory and loads it. Returns the registry, the tasks with their tools mapped to
 * registry names, and how many task tools were renamed by the import. `exampleRequests` (a map
 * from `SERVER/TOOL` to strings) gives the tools `example_requests`, as a deployment would.
 */
export async function loadLiveMcpBench(library, { exampleRequests } = {}) {
  const { importToolList, keywordDocument, toGroupName, loadRegistry } = library;
  const servers = JSON.parse(readFileSync(join(DATA, 'tools.json'), 'utf8'));
  const sources = [];
  const groupNames = new Set();
  for (const server of servers) {
    for (const [key, entry] of Object.entries(server.tools ?? {})) {
      let group = toGroupName(key);
      for (let counter = 2; groupNames.has(group); counter++)
        group = `${toGroupName(key)}_${counter}`;
      groupNames.add(group);
      sources.push({ key, group, entries: entry.tools ?? [] });
    }
  }
  const documents = sources.map((source) =>
    keywordDocument(
      source.entries.map((tool) => ({
        name: String(tool.name),
        description: String(tool.description ?? ''),
      })),
    ),
  );
  const dir = mkdtempSync(join(tmpdir(), 'toolcap-eval-livemcpbench-'));
  const names = new Map();
  const reserved = new Set();
  try {
    sources.forEach((source, index) => {
      const imported = importToolList(source.entries, {
        from: 'mcp',
        group: source.group,
        strategy: 'keyword',
        sourceLabel: `livemcpbench/tools.json server "${source.key}"`,
        reservedNames: reserved,
        restDocuments: documents.filter((_, other) => other !== index),
      });
      const renamed = new Map(imported.renamed.map((entry) => [entry.from, entry.to]));
      for (const tool of source.entries) {
        names.set(`${source.key}/${tool.name}`, renamed.get(tool.name) ?? tool.name);
      }
      for (const tool of imported.document.tools) {
        reserved.add(tool.name);
        const requests = exampleRequests?.get(
          `${source.key}/${tool['x-original-name'] ?? tool.name}`,
        );
        if (requests !== undefined) tool.example_requests = requests;
      }
      writeFileSync(
        join(dir, `${source.group}_tools.json`),
        `${JSON.stringify(imported.document, null, 2)}\n`,
      );
    });
    const registry = await loadRegistry({ dirs: [dir], cwd: dir });
    const errors = registry.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');
    if (errors.length > 0) throw new Error(`imported servers do not load: ${errors[0].message}`);
    let renamedUses = 0;
    const tasks = JSON.parse(readFileSync(join(DATA, 'tasks.json'), 'utf8')).map((task) => ({
      ...task,
      tools: task.tools.map((reference) => {
        const name = names.get(reference);
        if (name === undefined || !registry.has(name)) {
          throw new Error(`${task.id}: unknown tool ${reference} (tasks.json names SERVER/TOOL)`);
        }
        if (name !== reference.slice(reference.indexOf('/') + 1)) renamedUses++;
        return name;
      }),
    }));
    return { registry, tasks, renamedUses, servers: sources.length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Whether a task is on the development side: the first byte of the SHA-256 of its id is below
 * 86 (about a third of the tasks). Selection methods may be looked at against these tasks
 * while they are developed; the others are held out and only measured.
 */
export function isDevelopmentTask(task) {
  return createHash('sha256').update(task.id).digest()[0] < 86;
}

/**
 * The batch a task was written in: 1 for task-01..task-99, 2 for task-100 on (written later by
 * someone who had not seen the selector, and measured before any tuning on them).
 */
export function taskBatch(task) {
  return Number(task.id.slice('task-'.length)) >= 100 ? 2 : 1;
}

/** First-turn and turn-by-turn figures of `select` with `options` (see the protocol above). */
export function measureTasks(registry, tasks, options) {
  let needed = 0;
  let held = 0;
  let complete = 0;
  let steps = 0;
  let offered = 0;
  let laterSteps = 0;
  let laterOffered = 0;
  let selectedTotal = 0;
  for (const task of tasks) {
    const first = new Set(registry.select(task.message, options).names);
    selectedTotal += first.size;
    const found = task.tools.filter((name) => first.has(name)).length;
    needed += task.tools.length;
    held += found;
    if (found === task.tools.length) complete++;
    task.tools.forEach((name, index) => {
      const history = task.tools.slice(0, index).map((tool) => ({ tool }));
      const selection = registry.select(task.message, { ...options, history });
      const hit = selection.names.includes(name);
      steps++;
      if (hit) offered++;
      if (index > 0) {
        laterSteps++;
        if (hit) laterOffered++;
      }
    });
  }
  return {
    firstTurnHeld: held / needed,
    tasksComplete: complete / tasks.length,
    turnByTurn: offered / steps,
    laterSteps: laterOffered / laterSteps,
    meanSelected: selectedTotal / tasks.length,
    needed,
    steps,
  };
}

/**
 * The example requests of `example-requests.json` (five per tool, written from the tool
 * descriptions alone; see SOURCE.md), as the map `loadLiveMcpBench` takes.
 */
export function readExampleRequests() {
  const entries = JSON.parse(readFileSync(join(DATA, 'example-requests.json'), 'utf8'));
  return new Map(Object.entries(entries));
}
