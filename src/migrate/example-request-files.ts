import { rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import compare from 'semver/functions/compare.js';
import inc from 'semver/functions/inc.js';
import prerelease from 'semver/functions/prerelease.js';
import { ToolcapError } from '../errors/toolcap-error.js';
import { withFileLock } from '../execute/file-store.js';
import type { LoadLimits } from '../format/limits.js';
import type { Diagnostic, ToolDefinition, ToolGroupDefinition } from '../format/types.js';
import { listGroupFiles } from '../load/list-group-files.js';
import { checkGroupText, readGroupFileText } from '../load/read-group-file.js';
import { errorMessage } from '../util/error-message.js';
import { type ChosenExampleRequests, chooseExampleRequests } from './choose-example-requests.js';
import {
  detectTextStyle,
  setGroupVersion,
  setOverlayExampleRequests,
  setToolExampleRequests,
} from './edit-group-text.js';
import { redactMessage } from './redact-message.js';

// Reading group files, adding example requests to their tools and writing them back: shared by
// `toolcap learn` (requests from transcripts) and `toolcap examples` (requests from a model).

const BYTE_ORDER_MARK = '\uFEFF';
const GROUP_FILE_NAME = /_tools\.json$/;

/** A valid group file that may be edited, as read. */
export interface EditableGroupFile {
  file: string;
  display: string;
  text: string;
  group: ToolGroupDefinition;
  /** Index of each tool of `group.tools` in the file's `tools` array. */
  positions: number[];
  /** `code pointer` of each error the file has (a skipped tool's), which an edit may keep. */
  errors: ReadonlySet<string>;
  /**
   * For an overlay of an upstream MCP server's group (a file with an `x-upstream` field): the
   * example requests each tool entry of `x-upstream.tools` has, by the entry's key.
   */
  overlay?: Map<string, readonly string[]>;
}

/** A tool whose example requests may be added to, and where it is written. */
export interface RequestTarget {
  owner: EditableGroupFile;
  /** Order within the owner: the file order of its tools, then overlay entries as first used. */
  order: number;
  /** The tool's name, or for an overlay its key in `x-upstream.tools`. */
  name: string;
  /** The example requests the tool has now. */
  existing: readonly string[];
  /** The tool's index in the file's `tools` array; undefined for an overlay entry. */
  position: number | undefined;
  /** The tool's definition; undefined for an overlay entry (the server has it). */
  definition: ToolDefinition | undefined;
}

/** What adding to one tool did. */
export interface AddedRequests {
  target: RequestTarget;
  chosen: ChosenExampleRequests;
  /** How many example requests the tool has afterwards. */
  total: number;
}

/** A group file's text with requests added, and what changed. */
export interface EditedGroup {
  text: string;
  changed: boolean;
  oldVersion: string;
  /** The bumped version (see `bumpVersion`) when something was added; else `oldVersion`. */
  newVersion: string;
  tools: AddedRequests[];
}

/**
 * Adds `candidates` to each target's example requests in `groupFile`'s text (chosen with
 * `chooseExampleRequests`, at most `maxPerTool` per tool), in the file's own layout, and bumps
 * the group's version (`bumpVersion`) when anything was added. Targets are edited in the order
 * given.
 */
export function addExampleRequests(
  groupFile: EditableGroupFile,
  additions: readonly { target: RequestTarget; candidates: readonly string[] }[],
  maxPerTool: number,
): EditedGroup {
  const bom = groupFile.text.startsWith(BYTE_ORDER_MARK) ? BYTE_ORDER_MARK : '';
  let text = groupFile.text.slice(bom.length);
  const style = detectTextStyle(text);
  const oldVersion = groupFile.group.version;
  let changed = false;
  const tools: AddedRequests[] = [];
  for (const { target, candidates } of additions) {
    const chosen = chooseExampleRequests(target.existing, candidates, { max: maxPerTool });
    tools.push({ target, chosen, total: target.existing.length + chosen.added.length });
    if (chosen.added.length === 0) continue;
    const requests = [...target.existing, ...chosen.added];
    text =
      target.position === undefined
        ? setOverlayExampleRequests(text, target.name, requests, style)
        : setToolExampleRequests(text, target.position, requests, style);
    changed = true;
  }
  const newVersion = changed ? bumpVersion(oldVersion) : oldVersion;
  if (changed) text = setGroupVersion(text, newVersion);
  return { text: bom + text, changed, oldVersion, newVersion, tools };
}

/**
 * The version after adding requests: the next patch (`1.4.2` → `1.4.3`), or for a pre-release
 * the next pre-release (`2.0.0-rc.1` → `2.0.0-rc.2`, `1.0.0-alpha` → `1.0.0-alpha.0`): adding
 * example requests must not turn a release candidate into the release.
 */
export function bumpVersion(version: string): string {
  return inc(version, prerelease(version) === null ? 'patch' : 'prerelease') ?? version;
}

/** What happened to one group file, as `learn` and `examples` report it. */
export interface WrittenGroup {
  group: string;
  /** The group file, relative to `cwd` when inside it. */
  file: string;
  old_version: string;
  /** The bumped version (see `bumpVersion`) when requests were added; else `old_version`. */
  new_version: string;
  /** Whether the file changes (some tool got a new example request). */
  changed: boolean;
  /** Whether the file was written (changed, not a dry run, and the write succeeded). */
  written: boolean;
  /** Why a changed file could not be written. */
  error?: string;
}

/**
 * Checks `edited` and, unless `dryRun`, writes it over the file. Returns what happened: whether
 * it was written, or why it could not be (the file is then unchanged).
 */
export async function writeEditedGroup(
  groupFile: EditableGroupFile,
  edited: EditedGroup,
  limits: LoadLimits,
  dryRun: boolean,
): Promise<WrittenGroup> {
  const entry: WrittenGroup = {
    group: groupFile.group.group,
    file: groupFile.display,
    old_version: edited.oldVersion,
    new_version: edited.newVersion,
    changed: edited.changed,
    written: false,
  };
  if (!edited.changed) return entry;
  try {
    // a dry run checks the edit too, so it reports what a real run would do
    checkEditedText(groupFile, edited.text, limits);
    if (dryRun) return entry;
    await replaceFile(groupFile.file, edited.text);
    return { ...entry, written: true };
  } catch (error) {
    return { ...entry, error: error instanceof Error ? error.message : String(error) };
  }
}

/** A group file with requests added, and what happened to it. */
export interface WrittenRequests {
  written: WrittenGroup;
  /** What was added to each tool, against the file's text as it was written. */
  tools: AddedRequests[];
}

/** How long a writer waits for another process's lock on a group file. */
const GROUP_FILE_LOCK_WAIT_MS = 30_000;

/**
 * Adds `additions` to `groupFile` (`addExampleRequests`) and, unless `dryRun`, writes it
 * (`writeEditedGroup`) as one step against other writers: under the file's lock
 * (`withFileLock`, which also keeps other processes out), the file is read again and the
 * requests are added to what it holds now. Two `learn` or `examples` runs on one file therefore
 * both keep their requests, and each write bumps the version once. A file that another writer
 * changed so that the edit no longer applies (a tool removed, the file broken) is left as it is,
 * with the reason as the entry's `error`.
 */
export async function writeExampleRequests(
  groupFile: EditableGroupFile,
  additions: readonly { target: RequestTarget; candidates: readonly string[] }[],
  maxPerTool: number,
  limits: LoadLimits,
  dryRun: boolean,
): Promise<WrittenRequests> {
  const planned = addExampleRequests(groupFile, additions, maxPerTool);
  // nothing to write: the plan is the answer (a dry run writes nothing either)
  if (dryRun || !planned.changed) {
    return {
      written: await writeEditedGroup(groupFile, planned, limits, dryRun),
      tools: planned.tools,
    };
  }
  const failed = (message: string): WrittenRequests => ({
    written: {
      group: groupFile.group.group,
      file: groupFile.display,
      old_version: planned.oldVersion,
      new_version: planned.newVersion,
      changed: true,
      written: false,
      error: message,
    },
    tools: planned.tools,
  });
  try {
    return await withFileLock(
      groupFile.file,
      async () => {
        const current = rereadGroupFile(groupFile, limits);
        if (typeof current === 'string') return failed(current);
        const rebased: { target: RequestTarget; candidates: readonly string[] }[] = [];
        for (const { target, candidates } of additions) {
          const moved = rebaseTarget(target, current);
          if (typeof moved === 'string') return failed(moved);
          rebased.push({ target: moved, candidates });
        }
        const edited = addExampleRequests(current, rebased, maxPerTool);
        return {
          written: await writeEditedGroup(current, edited, limits, false),
          tools: edited.tools,
        };
      },
      { waitMs: GROUP_FILE_LOCK_WAIT_MS },
    );
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === 'STORE_LOCKED') {
      return failed(
        `another process has held its lock (${groupFile.display}.lock) for more than ${GROUP_FILE_LOCK_WAIT_MS / 1000} s; the file was left unchanged. Run again, or delete the lock directory if no toolcap process is running`,
      );
    }
    return failed(errorMessage(error));
  }
}

/**
 * `groupFile` as it is on disk now (another process may have written it since it was read), or
 * why it can no longer be edited.
 */
function rereadGroupFile(
  groupFile: EditableGroupFile,
  limits: LoadLimits,
): EditableGroupFile | string {
  const read = readGroupFileText(groupFile.file, limits, groupFile.display);
  if ('diagnostic' in read) {
    return `the file changed during the run and cannot be read now (${read.diagnostic.message}); it was left unchanged`;
  }
  if (read.text === groupFile.text) return groupFile;
  const problems: Diagnostic[] = [];
  const current = toEditableGroupFile(
    groupFile.file,
    groupFile.display,
    read.text,
    limits,
    problems,
  );
  if (current === undefined || current.group.group !== groupFile.group.group) {
    return `the file changed during the run and ${current === undefined ? `no longer loads (${problems[0]?.message ?? 'invalid group'})` : `now holds group "${current.group.group}"`}; it was left unchanged. Run again`;
  }
  return current;
}

/** `target` in `current`, the file re-read: where the tool is now and the requests it has now. */
function rebaseTarget(target: RequestTarget, current: EditableGroupFile): RequestTarget | string {
  if (target.position === undefined) {
    if (current.overlay === undefined) {
      return 'the file changed during the run and is no longer an overlay (x-upstream); it was left unchanged. Run again';
    }
    return { ...target, owner: current, existing: current.overlay.get(target.name) ?? [] };
  }
  const index = current.group.tools.findIndex((tool) => tool.name === target.name);
  const definition = current.group.tools[index];
  if (definition === undefined) {
    return `the file changed during the run and no longer defines the tool "${target.name}"; it was left unchanged. Run again`;
  }
  return {
    ...target,
    owner: current,
    existing: definition.example_requests ?? [],
    position: current.positions[index],
    definition,
  };
}

/** Path relative to `cwd` when the file is inside it; absolute otherwise. */
export function displayPath(file: string, cwd: string): string {
  const path = relative(cwd, file);
  return path !== '' && !path.startsWith('..') && !isAbsolute(path) ? path : file;
}

/**
 * The group files of `paths` (directories searched recursively for `*_tools.json`, or group
 * files named directly), without duplicates. Throws a ToolcapError (`LEARN_NO_GROUP_FILES`) for a
 * path that is neither, or when there is no group file at all: cheap, so a caller can check its
 * paths before slower work.
 */
export async function findGroupFilePaths(paths: readonly string[], cwd: string): Promise<string[]> {
  const files: string[] = [];
  const seen = new Set<string>();
  const add = (file: string): void => {
    if (!seen.has(file)) files.push(file);
    seen.add(file);
  };
  for (const path of paths) {
    const absolute = resolve(cwd, path);
    const info = await stat(absolute).catch(() => undefined);
    if (info?.isFile() === true && GROUP_FILE_NAME.test(absolute)) {
      add(absolute);
      continue;
    }
    if (info?.isDirectory() !== true) {
      throw new ToolcapError(
        'LEARN_NO_GROUP_FILES',
        `schemas path ${displayPath(absolute, cwd)} ${info === undefined ? 'does not exist' : 'is not a directory or a file named <group>_tools.json'}; pass the directory of your *_tools.json files (or one such file) with --schemas`,
      );
    }
    for (const file of await listGroupFiles(absolute)) add(file);
  }
  if (files.length === 0) {
    throw new ToolcapError(
      'LEARN_NO_GROUP_FILES',
      `no *_tools.json files in ${paths.join(', ')}; pass the directory of your group files with --schemas DIR`,
    );
  }
  return files;
}

/**
 * The valid group files under `dirs`, in catalog order, one per group: the highest version, as
 * the loader picks without pins. Errors of the other files go to `problems`; the valid files of
 * lower versions go to `olderVersions` when given.
 */
export async function readGroupFiles(
  dirs: readonly string[],
  cwd: string,
  limits: LoadLimits,
  problems: Diagnostic[],
  olderVersions?: EditableGroupFile[],
): Promise<EditableGroupFile[]> {
  const files = await findGroupFilePaths(dirs, cwd);
  const valid: EditableGroupFile[] = [];
  const highest = new Map<string, EditableGroupFile>();
  for (const file of files) {
    const label = displayPath(file, cwd);
    const read = readGroupFileText(file, limits, label);
    if ('diagnostic' in read) {
      problems.push(read.diagnostic);
      continue;
    }
    const entry = toEditableGroupFile(file, label, read.text, limits, problems);
    if (entry === undefined) continue;
    const group = entry.group;
    valid.push(entry);
    const previous = highest.get(group.group);
    if (previous === undefined || compare(group.version, previous.group.version) > 0) {
      highest.set(group.group, entry);
    }
  }
  if (olderVersions !== undefined) {
    olderVersions.push(...valid.filter((entry) => highest.get(entry.group.group) !== entry));
  }
  return valid.filter((entry) => highest.get(entry.group.group) === entry);
}

/**
 * `text`, the content of the group file `file`, as an editable group file; undefined when its
 * header is invalid. Its errors go to `problems`.
 */
function toEditableGroupFile(
  file: string,
  label: string,
  rawText: string,
  limits: LoadLimits,
  problems: Diagnostic[],
): EditableGroupFile | undefined {
  const text = rawText.startsWith(BYTE_ORDER_MARK) ? rawText.slice(1) : rawText;
  const checked = checkGroupText(text, label, { limits, fileName: basename(file) });
  const errors = checked.diagnostics.filter((problem) => problem.severity === 'error');
  problems.push(...errors);
  const validation = checked.validation;
  if (validation?.group === undefined) return undefined;
  const group = validation.group;
  const positions = validation.toolPointers.map((pointer) =>
    Number(pointer.slice('/tools/'.length)),
  );
  const overlay = group.tools.length === 0 ? overlayRequests(text) : undefined;
  return {
    file,
    display: label,
    text: rawText,
    group,
    positions,
    errors: new Set(errors.map(errorKey)),
    ...(overlay === undefined ? {} : { overlay }),
  };
}

/** Tools by name, plus by `x-original-name` (the name before `toolcap import` converted it). */
export function indexTools<T extends RequestTarget>(
  groupFiles: readonly EditableGroupFile[],
  make: (target: RequestTarget) => T,
): Map<string, T> {
  const known = new Map<string, T>();
  const originals = new Map<string, T | null>();
  for (const owner of groupFiles) {
    const raw = JSON.parse(owner.text.replace(/^\uFEFF/, '')) as { tools: unknown[] };
    owner.group.tools.forEach((definition, index) => {
      // the loader keeps the first of two tools with one name; so does learning
      if (known.has(definition.name)) return;
      const tool = make({
        owner,
        order: index,
        name: definition.name,
        existing: definition.example_requests ?? [],
        position: owner.positions[index],
        definition,
      });
      known.set(definition.name, tool);
      const entry = raw.tools[owner.positions[index]!] as Record<string, unknown>;
      const original = entry['x-original-name'];
      if (typeof original === 'string' && original !== definition.name) {
        // an original name two tools share identifies neither
        originals.set(original, originals.has(original) ? null : tool);
      }
    });
  }
  for (const [name, tool] of originals) {
    if (tool !== null && !known.has(name)) known.set(name, tool);
  }
  return known;
}

/**
 * The example requests of each `x-upstream.tools` entry when `text` is an overlay file (its
 * root has an `x-upstream` field); undefined otherwise. Entries without a valid list have none.
 */
function overlayRequests(text: string): Map<string, readonly string[]> | undefined {
  const root = JSON.parse(text) as Record<string, unknown>;
  const extension = root['x-upstream'];
  if (extension === undefined) return undefined;
  const requests = new Map<string, readonly string[]>();
  const tools = isObject(extension) ? extension.tools : undefined;
  if (!isObject(tools)) return requests;
  for (const [key, value] of Object.entries(tools)) {
    const list = isObject(value) ? value.example_requests : undefined;
    requests.set(
      key,
      Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [],
    );
  }
  return requests;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Throws unless the edited text stays within `limits.maxFileBytes` and loads with no error the
 * file did not have before.
 */
export function checkEditedText(
  groupFile: EditableGroupFile,
  text: string,
  limits: LoadLimits,
): void {
  const bytes = Buffer.byteLength(text);
  if (bytes > limits.maxFileBytes) {
    throw new ToolcapError(
      'LEARN_EDIT_INVALID',
      `the edited file would be ${bytes} bytes, more than ${limits.maxFileBytes} (limits.maxFileBytes); it was left unchanged. Lower --max-per-tool or split the group`,
    );
  }
  const checked = checkGroupText(text.replace(/^\uFEFF/, ''), groupFile.display, {
    limits,
    fileName: basename(groupFile.file),
  });
  const added = checked.diagnostics.filter(
    (problem) => problem.severity === 'error' && !groupFile.errors.has(errorKey(problem)),
  );
  if (added.length > 0 || checked.validation?.group === undefined) {
    throw new ToolcapError(
      'LEARN_EDIT_INVALID',
      `the edited file would not load (${added[0]?.message ?? 'invalid group'}); it was left unchanged`,
    );
  }
}

/**
 * Replaces `file` with `text` through a temporary file in the same directory and a rename, so
 * a reader sees the old file or the new one, never part of one.
 */
export async function replaceFile(file: string, text: string): Promise<void> {
  const temporary = join(dirname(file), `.${basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    const { mode } = await stat(file);
    await writeFile(temporary, text, { mode });
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => {});
    throw error;
  }
}

function errorKey(diagnostic: Diagnostic): string {
  return `${diagnostic.code} ${diagnostic.pointer}`;
}

/** Control characters (C0, DEL, C1): never part of what a user typed; each separates words. */
const CONTROL_CHARACTERS = /\p{Cc}/gu;
/**
 * Bidirectional formatting characters (marks, embeddings, overrides, isolates): invisible, and
 * able to make a request display in another order than it reads ("Trojan Source").
 */
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * `message` as an example request: control characters made spaces and bidirectional formatting
 * characters removed, trimmed, whitespace collapsed, redacted when `redact`, at most `maxLength`
 * characters (cut at a word boundary, ending in "…").
 */
export function cleanRequest(
  message: string,
  redact: boolean,
  maxLength: number,
): { text: string; truncated: boolean } {
  // what redaction may shorten is bounded first: a pasted document is not an example request
  const headLength = maxLength * 4;
  const cut = message.length > headLength;
  let text = (cut ? message.slice(0, headLength) : message)
    .replace(CONTROL_CHARACTERS, ' ')
    .replace(BIDI_CONTROLS, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (redact) text = redactMessage(text);
  if (!cut && text.length <= maxLength) return { text, truncated: false };
  const head = text.slice(0, maxLength - 1);
  const space = head.lastIndexOf(' ');
  // a word boundary unless that throws away most of the text
  const kept = space > maxLength / 2 ? head.slice(0, space) : head;
  return { text: `${kept.trimEnd()}…`, truncated: true };
}
