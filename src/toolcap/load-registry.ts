import { stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { LoadLimits } from '../format/limits.js';
import type { Diagnostic } from '../format/types.js';
import { checkMisnamedGroupFile } from '../load/check-misnamed-group-file.js';
import { displayPath } from '../load/display-path.js';
import { describeSkippedEntry, listSchemaDirectory } from '../load/list-group-files.js';
import { checkGroupText, describeFileType, readGroupFileText } from '../load/read-group-file.js';
import { RegistryLoadError } from '../load/registry-load-error.js';
import { inferToolCategory } from '../migrate/infer-category.js';
import { assembleSnapshot, type CandidateGroup } from '../registry/assemble-registry.js';
import type { TextAnalyzerOptions } from '../text/text-analyzer.js';
import { checkOptions, toStringList } from '../util/check-options.js';
import { createRegistryObject, type Registry } from './registry.js';
import {
  LOAD_REGISTRY_OPTIONS,
  type LoadRegistryOptions,
  resolveRegistrySettings,
} from './registry-options.js';

/**
 * Group files read, parsed and validated per turn of the event loop. Reading is synchronous:
 * a group file is small and CPU-bound to load (parsing and validating take about twice as long
 * as reading it from the page cache), and each asynchronous file operation costs the main
 * thread ~10 µs of promise and thread-pool steps, 4-5 operations a file: at 10,000 tools the
 * asynchronous reads cost ~45 ms more than these (docs/decisions/2026-11-25-performance.md). Yielding
 * after every window keeps a server's requests and timers running during a (re)load, as
 * the asynchronous reads did.
 */
const FILES_PER_TURN = 16;

/** A group file's name: `<group>_tools.json`. */
const GROUP_FILE_NAME = /_tools\.json$/;

/**
 * Loads every `*_tools.json` under `dirs` (files in sorted order, so results are
 * deterministic), validates them, and returns an immutable registry. A bad file or tool
 * never stops the others: it is skipped and described in `registry.diagnostics`. Files are read
 * synchronously, `FILES_PER_TURN` per turn of the event loop.
 */
export async function loadRegistry(options: LoadRegistryOptions = {}): Promise<Registry> {
  checkOptions('loadRegistry', options, LOAD_REGISTRY_OPTIONS);
  const cwd = options.cwd ?? process.cwd();
  const settings = resolveRegistrySettings(options, cwd, new Map());
  const { limits } = settings;
  const diagnostics: Diagnostic[] = [];
  const display = (file: string) => displayPath(file, cwd);

  const dirs = options.dirs === undefined ? ['schemas'] : toStringList(options.dirs);
  const files = await findGroupFiles(dirs, cwd, diagnostics, display, limits);
  const contextCheckNames = new Set(settings.contextChecks.keys());
  const keywordWords = customWords(options.analyzer);
  const candidates: CandidateGroup[] = [];
  // assembleRegistry locates only the diagnostics it adds: a tool name or group version that an
  // earlier file also has, or tools past limits.maxTools. Only files that may get one keep their
  // text for positions; the others' texts die young (about 20 MB of RSS at 10,000 tools)
  const seenToolNames = new Set<string>();
  const seenVersions = new Set<string>();
  let toolCount = 0;
  for (let start = 0; start < files.length; start += FILES_PER_TURN) {
    if (start > 0) await nextTurn();
    for (const file of files.slice(start, start + FILES_PER_TURN)) {
      const displayFile = display(file);
      const result = readGroupFileText(file, limits, displayFile);
      if ('diagnostic' in result) {
        diagnostics.push(result.diagnostic);
        continue;
      }
      const {
        document,
        validation,
        diagnostics: problems,
      } = checkGroupText(result.text, displayFile, {
        limits,
        fileName: basename(file),
        contextChecks: contextCheckNames,
        checkExamples: options.checkExamples === true,
        ...(keywordWords === undefined ? {} : { words: keywordWords }),
      });
      diagnostics.push(...problems);
      if (document === undefined || validation === undefined) continue;
      const group = validation.group;
      if (group !== undefined) {
        // without build metadata: 1.2.0 and 1.2.0+b collide (DUPLICATE_GROUP_VERSION)
        const version = `${group.group}@${group.version.split('+')[0]}`;
        let mayCollide = seenVersions.has(version);
        seenVersions.add(version);
        for (const tool of group.tools) {
          if (seenToolNames.has(tool.name)) mayCollide = true;
          else seenToolNames.add(tool.name);
        }
        toolCount += group.tools.length;
        candidates.push({
          definition: group,
          file,
          displayFile,
          toolPointers: validation.toolPointers,
          ...(validation.originalNames !== undefined
            ? { originalNames: validation.originalNames }
            : {}),
          source: 'json',
          ...(mayCollide || toolCount > limits.maxTools
            ? { locate: (pointer: string) => document.locate(pointer) }
            : {}),
        });
      }
    }
  }

  const assembled = assembleSnapshot({
    candidates,
    diagnostics,
    limits,
    ...(options.pins !== undefined ? { pins: options.pins } : {}),
    ...(options.fallbackTools !== undefined ? { fallbackTools: options.fallbackTools } : {}),
    inferFallbackCategory: inferToolCategory,
  });
  let snapshot = assembled.snapshot;
  const toolsDirs = toStringList(options.toolsDirs);
  if (toolsDirs.length > 0) {
    // loaded on demand: discovery spawns processes, which plain loading never needs
    const { addExternalTools } = await import('../execute/external/load-external-tools.js');
    snapshot = await addExternalTools(
      snapshot,
      {
        dirs: toolsDirs,
        cwd,
        ...(options.externalGroup !== undefined ? { group: options.externalGroup } : {}),
        ...(options.executionLimits?.discoveryTimeoutMs !== undefined
          ? { timeoutMs: options.executionLimits.discoveryTimeoutMs }
          : {}),
      },
      limits,
    );
  }
  const registry = createRegistryObject(snapshot, {
    ...settings,
    fallbackImplementations: assembled.fallbackImplementations,
  });
  if (
    options.strict === true &&
    registry.diagnostics.some((diagnostic) => diagnostic.severity === 'error')
  ) {
    throw new RegistryLoadError(
      'Loading the tool registry failed in strict mode',
      registry.diagnostics,
    );
  }
  return registry;
}

async function findGroupFiles(
  dirs: readonly string[],
  cwd: string,
  diagnostics: Diagnostic[],
  display: (file: string) => string,
  limits: LoadLimits,
): Promise<string[]> {
  const seen = new Set<string>();
  const files: string[] = [];
  for (const dir of dirs) {
    const absolute = resolve(cwd, dir);
    let stats: Awaited<ReturnType<typeof stat>> | undefined;
    let failure: NodeJS.ErrnoException | undefined;
    try {
      stats = await stat(absolute);
    } catch (error) {
      failure = error as NodeJS.ErrnoException;
    }
    const shown = display(absolute);
    if (stats !== undefined && !stats.isDirectory() && GROUP_FILE_NAME.test(basename(absolute))) {
      // one group file given directly: load just that file (one that is not a regular file, such
      // as a FIFO, is refused when it is opened, as FILE_UNREADABLE)
      if (!seen.has(absolute)) {
        seen.add(absolute);
        files.push(absolute);
      }
      continue;
    }
    if (stats === undefined || !stats.isDirectory()) {
      // a group file named directly but misnamed: say how to name it
      const misnamed =
        stats?.isFile() === true ? checkMisnamedGroupFile(absolute, limits, shown) : undefined;
      if (misnamed !== undefined) {
        diagnostics.push({ ...misnamed, severity: 'error', code: 'SCHEMAS_DIR_NOT_FOUND' });
        continue;
      }
      const missing = stats === undefined && failure?.code === 'ENOENT';
      diagnostics.push({
        severity: 'error',
        code: missing || stats !== undefined ? 'SCHEMAS_DIR_NOT_FOUND' : 'FILE_UNREADABLE',
        file: shown,
        pointer: '',
        message: missing
          ? `schema directory ${shown} does not exist; check the path`
          : stats !== undefined
            ? `${shown} is ${stats.isFile() ? 'a file' : `not a regular file (it is ${describeFileType(stats)})`}, not a directory of group files, and its name does not end in _tools.json; give the directory that holds the group files, or a file named <group>_tools.json`
            : `schema directory ${shown} could not be read (${failure?.code ?? failure?.message}); check the path and its permissions`,
      });
      continue;
    }
    const { groupFiles: found, nearMisses, skipped } = await listSchemaDirectory(absolute);
    if (found.length === 0) {
      diagnostics.push({
        severity: 'warning',
        code: 'NO_GROUP_FILES',
        file: display(absolute),
        pointer: '',
        message: `no *_tools.json files in ${display(absolute)}; group files must be named <group>_tools.json`,
      });
    }
    for (const file of found) {
      if (seen.has(file)) continue;
      seen.add(file);
      files.push(file);
    }
    for (const entry of skipped) {
      if (seen.has(entry.path)) continue;
      seen.add(entry.path);
      diagnostics.push(describeSkippedEntry(entry, display));
    }
    // a group file with a slightly wrong name would otherwise be skipped without a word
    for (const file of nearMisses) {
      if (seen.has(file)) continue;
      seen.add(file);
      const misnamed = checkMisnamedGroupFile(file, limits, display(file));
      if (misnamed !== undefined) diagnostics.push(misnamed);
    }
  }
  return files;
}

/** A turn of the event loop: timers and I/O callbacks waiting to run get to run. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * How a custom analyzer finds words, for keywords that can never match: its own `analyze`, or
 * its `tokenizer` option. Undefined for the default, whose tokenizer the check uses without
 * stemming anything at load time.
 */
function customWords(
  analyzer: LoadRegistryOptions['analyzer'],
): ((text: string) => readonly unknown[]) | undefined {
  if (analyzer === undefined) return undefined;
  if ('analyze' in analyzer && typeof analyzer.analyze === 'function') {
    return (text) => analyzer.analyze(text);
  }
  const { tokenizer } = analyzer as TextAnalyzerOptions;
  return typeof tokenizer === 'function' ? tokenizer : undefined;
}
