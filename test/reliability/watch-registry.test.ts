import { mkdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { RegistryLoadError } from '../../src/load/registry-load-error.js';
import type { Registry } from '../../src/toolcap/registry.js';
import {
  type RegistryChange,
  type RegistryWatcher,
  watchRegistry,
} from '../../src/watch/watch-registry.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';

const watchers: RegistryWatcher[] = [];
afterEach(async () => {
  for (const watcher of watchers.splice(0)) await watcher.close();
});

async function startWatcher(
  dir: string,
  options: Parameters<typeof watchRegistry>[0] = {},
): Promise<{ watcher: RegistryWatcher; changes: RegistryChange[] }> {
  const changes: RegistryChange[] = [];
  const watcher = await watchRegistry(
    { dirs: [dir], cwd: dir, handlers: ['handlers'], dataDir: join(dir, 'data'), ...options },
    (change) => changes.push(change),
  );
  watchers.push(watcher);
  return { watcher, changes };
}

/** Resolves with the first change (from now on) that matches, or fails after `timeoutMs`. */
function waitForChange(
  watcher: RegistryWatcher,
  matches: (change: RegistryChange) => boolean = () => true,
  timeoutMs = 5_000,
): Promise<RegistryChange> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error('no matching registry change'));
    }, timeoutMs);
    const unsubscribe = watcher.subscribe((change) => {
      if (!matches(change)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(change);
    });
  });
}

function groupText(group: string, version: string, toolName = `${group}_tool`): string {
  return JSON.stringify(
    makeGroup(group, {
      version,
      selection: { strategy: 'keyword', keywords: ['deploy'] },
      tools: [makeTool({ name: toolName, metadata: { executor: 'pair' } })],
    }),
  );
}

/** Waits until the handler is running (its gate is set), or fails if the call settled first. */
async function waitForGate(gate: { open: unknown }, call: Promise<unknown>): Promise<void> {
  let settled = false;
  void call.finally(() => {
    settled = true;
  });
  while (gate.open === undefined) {
    if (settled)
      throw new Error(`the call ended before its handler ran: ${JSON.stringify(await call)}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function openGate(gate: { open: (() => void) | undefined }): void {
  if (gate.open === undefined) throw new Error('the handler is not waiting');
  gate.open();
}

function versionOf(registry: Registry, group: string): string | undefined {
  return registry.group(group)?.version;
}

describe('watchRegistry: hot reload without loss', () => {
  it('swaps in a fixed edit; the old snapshot stays as it was', async () => {
    const dir = createTempDir({ 'alpha_tools.json': groupText('alpha', '1.0.0') });
    const { watcher } = await startWatcher(dir);
    const first = watcher.current();
    expect(versionOf(first, 'alpha')).toBe('1.0.0');

    const swapped = waitForChange(watcher, (change) => change.type === 'swapped');
    writeFileSync(join(dir, 'alpha_tools.json'), groupText('alpha', '1.1.0'));
    const change = await swapped;
    expect(change.type === 'swapped' && change.previous).toBe(first);
    expect(versionOf(watcher.current(), 'alpha')).toBe('1.1.0');
    expect(versionOf(first, 'alpha')).toBe('1.0.0');
    expect(Object.isFrozen(first.get('alpha_tool'))).toBe(true);
  });

  it('keeps serving the last good registry through a broken edit, and reports why', async () => {
    const dir = createTempDir({ 'alpha_tools.json': groupText('alpha', '1.0.0') });
    const { watcher } = await startWatcher(dir);
    const good = watcher.current();

    const rejected = waitForChange(watcher, (change) => change.type === 'rejected');
    writeFileSync(join(dir, 'alpha_tools.json'), '{"group": "alpha", "version": ');
    const change = await rejected;
    expect(change).toMatchObject({
      type: 'rejected',
      registry: good,
      errors: [expect.objectContaining({ code: 'JSON_SYNTAX', file: 'alpha_tools.json' })],
    });
    expect(change.type === 'rejected' && change.rejected.size).toBe(0);
    expect(watcher.current()).toBe(good);
    expect(watcher.current().get('alpha_tool')).toBeDefined();

    // a semantically broken edit too: valid JSON, invalid group
    const rejectedAgain = waitForChange(watcher, (next) => next.type === 'rejected');
    writeFileSync(join(dir, 'alpha_tools.json'), groupText('alpha', 'v2'));
    expect(await rejectedAgain).toMatchObject({
      errors: [expect.objectContaining({ code: 'INVALID_VERSION' })],
    });
    expect(watcher.current()).toBe(good);

    const swapped = waitForChange(watcher, (next) => next.type === 'swapped');
    writeFileSync(join(dir, 'alpha_tools.json'), groupText('alpha', '2.0.0'));
    await swapped;
    expect(versionOf(watcher.current(), 'alpha')).toBe('2.0.0');
  });

  it('a file broken since start-up does not block edits elsewhere; a deleted file is a change', async () => {
    const dir = createTempDir({
      'alpha_tools.json': groupText('alpha', '1.0.0'),
      'broken_tools.json': '{ nope',
    });
    const { watcher } = await startWatcher(dir);
    expect(watcher.current().diagnostics.map((diagnostic) => diagnostic.code)).toEqual([
      'JSON_SYNTAX',
    ]);
    const swapped = waitForChange(watcher, (change) => change.type === 'swapped');
    writeFileSync(join(dir, 'alpha_tools.json'), groupText('alpha', '1.0.1'));
    await swapped;
    expect(versionOf(watcher.current(), 'alpha')).toBe('1.0.1');

    const removed = waitForChange(watcher, (change) => change.type === 'swapped');
    rmSync(join(dir, 'alpha_tools.json'));
    await removed;
    expect(watcher.current().group('alpha')).toBeUndefined();
  });

  it('picks up group files in new subdirectories, and directories created later (polling)', async () => {
    const dir = createTempDir({ 'alpha_tools.json': groupText('alpha', '1.0.0') });
    const later = join(dir, 'later');
    const { watcher } = await startWatcher(dir, { dirs: [dir, later], pollIntervalMs: 50 });
    expect(watcher.current().diagnostics.map((diagnostic) => diagnostic.code)).toEqual([
      'SCHEMAS_DIR_NOT_FOUND',
    ]);

    const nested = waitForChange(watcher, (change) => change.type === 'swapped');
    mkdirSync(join(dir, 'sub', 'deeper'), { recursive: true });
    writeFileSync(join(dir, 'sub', 'deeper', 'beta_tools.json'), groupText('beta', '1.0.0'));
    await nested;
    expect(versionOf(watcher.current(), 'beta')).toBe('1.0.0');

    // "later" did not exist, so it has no fs.watch: only polling can see it
    const created = waitForChange(
      watcher,
      (change) => change.type === 'swapped' && change.registry.group('gamma') !== undefined,
    );
    mkdirSync(later);
    writeFileSync(join(later, 'gamma_tools.json'), groupText('gamma', '1.0.0'));
    await created;
    expect(watcher.current().diagnostics).toEqual([]);
  });

  it('watches a group file named directly, through fs.watch and through polling', async () => {
    for (const pollIntervalMs of [0, 50]) {
      const dir = createTempDir({
        'single/alpha_tools.json': groupText('alpha', '1.0.0'),
        'single/beta_tools.json': groupText('beta', '1.0.0'),
      });
      const file = join(dir, 'single', 'alpha_tools.json');
      // only the named file is loaded; with fs.watch off, polling alone must notice the edit
      const { watcher } = await startWatcher(dir, {
        dirs: [file],
        pollIntervalMs,
        ...(pollIntervalMs > 0 ? { debounceMs: 60_000 } : {}),
      });
      expect(
        watcher
          .current()
          .groups()
          .map((group) => group.group),
      ).toEqual(['alpha']);
      const swapped = waitForChange(watcher, (change) => change.type === 'swapped');
      // an editor's atomic save: write a temporary file, then rename it over the group file
      writeFileSync(`${file}.tmp`, groupText('alpha', '1.1.0'));
      renameSync(`${file}.tmp`, file);
      await swapped;
      expect(versionOf(watcher.current(), 'alpha')).toBe('1.1.0');
    }
  });

  it('reload() reports nothing when nothing changed; close() stops watching', async () => {
    const dir = createTempDir({ 'alpha_tools.json': groupText('alpha', '1.0.0') });
    const { watcher, changes } = await startWatcher(dir);
    expect(await watcher.reload()).toBeUndefined();
    watcher.subscribe(() => {
      throw new Error('a failing listener does not stop the watcher');
    });
    writeFileSync(join(dir, 'alpha_tools.json'), groupText('alpha', '1.0.1'));
    expect(await watcher.reload()).toMatchObject({ type: 'swapped' });
    await watcher.close();
    await watcher.close();
    const before = changes.length;
    writeFileSync(join(dir, 'alpha_tools.json'), groupText('alpha', '9.0.0'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(changes).toHaveLength(before);
    expect(versionOf(watcher.current(), 'alpha')).toBe('1.0.1');
  });

  it('strict mode: the first load throws, and any error rejects a reload', async () => {
    const broken = createTempDir({ 'alpha_tools.json': '{' });
    await expect(watchRegistry({ dirs: [broken], strict: true })).rejects.toBeInstanceOf(
      RegistryLoadError,
    );
    const dir = createTempDir({ 'alpha_tools.json': groupText('alpha', '1.0.0') });
    const { watcher } = await startWatcher(dir, { strict: true });
    writeFileSync(join(dir, 'beta_tools.json'), '{');
    expect(await watcher.reload()).toMatchObject({ type: 'rejected' });
  });

  it('editing two groups together in a loop while selecting: no selection sees a mixed or half-loaded registry', async () => {
    const dir = createTempDir({
      'alpha_tools.json': groupText('alpha', '1.0.0'),
      'beta_tools.json': groupText('beta', '1.0.0'),
    });
    const { watcher, changes } = await startWatcher(dir, { debounceMs: 5, pollIntervalMs: 20 });
    const EDITS = 40;
    let writing = true;
    const observed = new Set<string>();
    const problems: string[] = [];
    let selections = 0;
    let lastPatch = 0;

    const selector = (async () => {
      while (writing) {
        const registry = watcher.current();
        const selection = registry.select('please deploy it');
        const versions = new Set(selection.tools.map((tool) => tool.version));
        if (selection.tools.length !== 2 || versions.size !== 1) {
          problems.push(
            `mixed or half-loaded: ${JSON.stringify(selection.tools.map((t) => t.version))}`,
          );
        }
        const version = [...versions][0] ?? '';
        const patch = Number(version.split('.')[2]);
        if (patch < lastPatch) problems.push(`went back from ${lastPatch} to ${patch}`);
        lastPatch = Math.max(lastPatch, patch);
        observed.add(version);
        selections++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();

    for (let edit = 1; edit <= EDITS; edit++) {
      const version = `1.0.${edit}`;
      if (edit % 7 === 0) {
        // a broken edit of one file first: it must never be served
        writeFileSync(join(dir, 'alpha_tools.json'), groupText('alpha', version).slice(0, 40));
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
      // both files in one synchronous step, as an editor's "save all" would
      writeFileSync(join(dir, 'alpha_tools.json'), groupText('alpha', version));
      writeFileSync(join(dir, 'beta_tools.json'), groupText('beta', version));
      await new Promise((resolve) => setTimeout(resolve, edit % 3 === 0 ? 0 : 8));
      // every tenth edit, let the watcher catch up, so that several swaps happen however
      // slow the machine is (a busy one can otherwise fold all the edits into one or two)
      if (edit % 10 === 0) {
        const caughtUp = Date.now() + 5_000;
        while (versionOf(watcher.current(), 'alpha') !== version && Date.now() < caughtUp) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }
    }
    const final = `1.0.${EDITS}`;
    const deadline = Date.now() + 5_000;
    while (versionOf(watcher.current(), 'alpha') !== final && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    writing = false;
    await selector;

    expect(problems).toEqual([]);
    expect(versionOf(watcher.current(), 'alpha')).toBe(final);
    expect(versionOf(watcher.current(), 'beta')).toBe(final);
    expect(selections).toBeGreaterThan(EDITS);
    expect(observed.size).toBeGreaterThan(2);
    const swaps = changes.filter((change) => change.type === 'swapped');
    expect(swaps.length).toBeGreaterThan(2);
    for (const swap of swaps) {
      expect(versionOf(swap.registry, 'alpha')).toBe(versionOf(swap.registry, 'beta'));
      expect(swap.registry.diagnostics).toEqual([]);
    }
  });

  it('an execution in flight during a swap finishes on the snapshot it started with', async () => {
    const dir = createTempDir({
      'alpha_tools.json': JSON.stringify(
        makeGroup('alpha', {
          tools: [
            makeTool({
              name: 'slow_tool',
              metadata: { executor: 'gate' },
              output_schema: {
                type: 'object',
                properties: { v: { type: 'integer', const: 1 } },
                required: ['v'],
              },
            }),
          ],
        }),
      ),
      // the handler waits until the test opens the gate, then answers { v: 1 }
      'handlers/gate.js': `
        export const gate = { open: undefined };
        export function slow_tool() {
          return new Promise((resolve) => { gate.open = () => resolve({ v: 1 }); });
        }
      `,
    });
    const { watcher } = await startWatcher(dir);
    const old = watcher.current();
    expect(old.get('slow_tool')).toBeDefined();
    // the same module instance the registry imports (by real path)
    const handler = (await import(
      pathToFileURL(realpathSync(join(dir, 'handlers', 'gate.js'))).href
    )) as { gate: { open: (() => void) | undefined } };
    const inFlight = old.execute('slow_tool', { query: 'x' });
    await waitForGate(handler.gate, inFlight);

    // the new version answers with a different output schema
    const swapped = waitForChange(watcher, (change) => change.type === 'swapped');
    writeFileSync(
      join(dir, 'alpha_tools.json'),
      JSON.stringify(
        makeGroup('alpha', {
          version: '2.0.0',
          tools: [
            makeTool({
              name: 'slow_tool',
              metadata: { executor: 'gate' },
              output_schema: {
                type: 'object',
                properties: { v: { type: 'integer', const: 2 } },
                required: ['v'],
              },
            }),
          ],
        }),
      ),
    );
    await swapped;
    expect(versionOf(watcher.current(), 'alpha')).toBe('2.0.0');
    openGate(handler.gate);
    // validated against the output_schema of the snapshot the call started on
    expect(await inFlight).toEqual({ ok: true, output: { v: 1 } });
    handler.gate.open = undefined;
    const onNew = watcher.current().execute('slow_tool', { query: 'x' });
    await waitForGate(handler.gate, onNew);
    openGate(handler.gate);
    expect(await onNew).toMatchObject({ ok: false });
  });
});
