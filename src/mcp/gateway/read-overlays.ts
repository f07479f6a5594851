import { readFileSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import type { LoadLimits } from '../../format/limits.js';
import type { Diagnostic, GroupSelection, RegisteredGroup } from '../../format/types.js';
import { checkExampleRequests } from '../../load/check-example-requests.js';
import { type JsonDocument, parseJsonDocument } from '../../load/parse-json-document.js';
import type { Registry } from '../../toolcap/registry.js';
import { errorMessage } from '../../util/error-message.js';

/** The extension field of an overlay group file. */
export const OVERLAY_FIELD = 'x-upstream';

/** Per-tool changes an overlay makes. */
export interface ToolOverride {
  title?: string;
  description?: string;
  /** User messages the tool serves, indexed for `find_tools` and selection (repeats dropped). */
  example_requests?: readonly string[];
}

/**
 * A group file whose group name is an upstream server's group: its header (description,
 * selection) replaces the generated one, and its `x-upstream` field hides, pins and rewrites
 * tools. Tool names are the server's own (`search-docs`), or their converted form.
 */
export interface UpstreamOverlay {
  group: string;
  /** The overlay file, as shown in messages. */
  file: string;
  description: string;
  selection: GroupSelection;
  /** Tools left out entirely: not listed, not searchable, not callable. */
  hidden: readonly string[];
  /** Tools listed in `--expose selected` even though their group is not pinned. */
  pinned: readonly string[];
  tools: ReadonlyMap<string, ToolOverride>;
}

/** The overlays of a registry snapshot, or why some are unusable. */
export interface OverlayReading {
  overlays: ReadonlyMap<string, UpstreamOverlay>;
  /** Problems, each naming the file, the field and the fix. */
  problems: readonly string[];
  /** The same problems as diagnostics (code `INVALID_OVERLAY`). */
  diagnostics: readonly Diagnostic[];
}

const FIELDS = ['hidden', 'pinned', 'tools'];
const TOOL_FIELDS = ['title', 'description', 'example_requests'];

/**
 * Finds the overlays among a registry's groups: every group named like one of `upstreamGroups`.
 * Such a group must have no tools of its own; its `x-upstream` field (read from its file) is
 * checked field by field. `cwd` makes file names in messages relative.
 */
export function readOverlays(
  registry: Registry,
  upstreamGroups: ReadonlySet<string>,
  cwd: string,
): OverlayReading {
  const overlays = new Map<string, UpstreamOverlay>();
  const diagnostics: Diagnostic[] = [];
  for (const group of registry.groups()) {
    if (!upstreamGroups.has(group.group)) continue;
    const file = group.file === undefined ? `group "${group.group}"` : shown(group.file, cwd);
    if (group.tools.length > 0) {
      // without x-upstream the file is no overlay: most likely a snapshot of the server
      const snapshot =
        group.file !== undefined && !hasOverlayField(group.file)
          ? `, or, if it is a snapshot of the server (toolcap import --from-server), keep it outside the schema directories (toolcap import --out snapshots)`
          : '';
      diagnostics.push(
        overlayProblem(
          file,
          '/tools',
          `group "${group.group}" overlays the upstream server of that group, so its "tools" must be [] (the server supplies them); move its ${group.tools.length} tool(s) to a group of another name${snapshot}`,
        ),
      );
      continue;
    }
    const reader = new OverlayReader(file, diagnostics, registry.settings.limits);
    const extension = group.file === undefined ? undefined : reader.readExtension(group.file);
    overlays.set(group.group, reader.build(group, extension));
  }
  return { overlays, problems: diagnostics.map(problemText), diagnostics };
}

/**
 * Checks the overlay files among a registry's groups without knowing the upstream servers:
 * every group whose file has an `x-upstream` field is checked as `toolcap mcp --upstream`
 * checks an overlay (its "tools" must be [], its fields known). `toolcap validate` reports
 * these, so a broken overlay fails in CI rather than at the gateway's start.
 */
export function checkOverlayFiles(registry: Registry, cwd: string): readonly Diagnostic[] {
  const marked = new Set<string>();
  for (const group of registry.groups()) {
    if (group.file !== undefined && hasOverlayField(group.file)) marked.add(group.group);
  }
  return readOverlays(registry, marked, cwd).diagnostics;
}

/**
 * Group files that share a group with an overlay file (`x-upstream`), such as a snapshot
 * written by `toolcap import --from-server` into a schema directory. The loader serves the
 * higher version of the two: when that is the other file, `toolcap mcp --upstream` refuses to
 * start (or, for a file without tools, ignores the overlay's `x-upstream`), an error; when it is
 * the overlay, the other file is unused until its version passes the overlay's (a snapshot's
 * follows the server's), a warning. Each diagnostic is on the other file and names the overlay.
 * `files` are every group file the registry was loaded from; unreadable ones are skipped (the
 * loader reports them).
 */
export function checkOverlayConflicts(
  registry: Registry,
  files: readonly string[],
  cwd: string,
): Diagnostic[] {
  const byGroup = new Map<string, PeekedGroupFile[]>();
  for (const file of files) {
    const peeked = peekGroupFile(file);
    if (peeked === undefined) continue;
    const list = byGroup.get(peeked.group);
    if (list === undefined) byGroup.set(peeked.group, [peeked]);
    else list.push(peeked);
  }
  const diagnostics: Diagnostic[] = [];
  for (const [group, list] of byGroup) {
    const overlay = list.find((entry) => entry.overlay);
    if (overlay === undefined) continue;
    const served = registry.group(group)?.file;
    const overlayServed = list.some((entry) => entry.overlay && entry.file === served);
    for (const other of list) {
      // a third file loaded, or none (the loader says why): the loaded file's report is enough
      if (other.overlay || (!overlayServed && other.file !== served)) continue;
      const place = shown(other.file, cwd);
      const what = `group "${group}" is defined here (version ${other.version}, ${other.tools} tool(s)) and by its overlay ${shown(overlay.file, cwd)} (version ${overlay.version})`;
      const fix =
        'keep snapshots of a server (toolcap import --from-server) outside the schema directories, e.g. toolcap import --out snapshots, or delete one of the two files';
      diagnostics.push({
        ...overlayProblem(
          place,
          '/group',
          overlayServed
            ? `${what}: the overlay is the higher version and is loaded, but once this file's version is higher (a snapshot's follows the server's) it is loaded instead, and toolcap mcp --upstream refuses to start; ${fix}`
            : `${what}: this file is the higher version and is loaded instead of the overlay, so toolcap mcp --upstream ${other.tools > 0 ? 'refuses to start' : 'ignores the overlay'}; ${fix}`,
          other.position,
        ),
        severity: overlayServed ? 'warning' : 'error',
      });
    }
  }
  return diagnostics;
}

/** The overlay files (`x-upstream`) of `group` among `files`. */
export function overlayFilesOf(files: readonly string[], group: string): string[] {
  return files.filter((file) => {
    const peeked = peekGroupFile(file);
    return peeked?.overlay === true && peeked.group === group;
  });
}

/** What a group file says of itself, read without the loader. */
interface PeekedGroupFile {
  file: string;
  group: string;
  version: string;
  /** Whether it has an `x-upstream` field. */
  overlay: boolean;
  tools: number;
  /** Where its `group` is. */
  position: { line: number; column: number } | undefined;
}

/** Undefined when the file cannot be read, is not JSON or has no group name. */
function peekGroupFile(file: string): PeekedGroupFile | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const parsed = parseJsonDocument(text);
  if (!parsed.ok) return undefined;
  const root = parsed.document.value;
  if (!isObject(root) || typeof root.group !== 'string') return undefined;
  return {
    file,
    group: root.group,
    version: typeof root.version === 'string' ? root.version : '?',
    overlay: Object.hasOwn(root, OVERLAY_FIELD),
    tools: Array.isArray(root.tools) ? root.tools.length : 0,
    position: parsed.document.locate('/group'),
  };
}

/** Whether the JSON file at `path` has an `x-upstream` field (false when it cannot be read). */
function hasOverlayField(path: string): boolean {
  return peekGroupFile(path)?.overlay === true;
}

function overlayProblem(
  file: string,
  pointer: string,
  message: string,
  position?: { line: number; column: number },
): Diagnostic {
  return {
    severity: 'error',
    code: 'INVALID_OVERLAY',
    file,
    pointer,
    ...(position !== undefined ? { line: position.line, column: position.column } : {}),
    message,
  };
}

/** A problem as `toolcap mcp` prints it: `FILE[:LINE:COL]: message`. */
function problemText(diagnostic: Diagnostic): string {
  const where = diagnostic.line === undefined ? '' : `:${diagnostic.line}:${diagnostic.column}`;
  return `${diagnostic.file}${where}: ${diagnostic.message}`;
}

class OverlayReader {
  readonly #file: string;
  readonly #problems: Diagnostic[];
  readonly #limits: LoadLimits;
  #document: JsonDocument | undefined;

  constructor(file: string, problems: Diagnostic[], limits: LoadLimits) {
    this.#file = file;
    this.#problems = problems;
    this.#limits = limits;
  }

  readExtension(path: string): unknown {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      this.#problems.push(
        overlayProblem(this.#file, '', `cannot read the overlay: ${errorMessage(error)}`),
      );
      return undefined;
    }
    const parsed = parseJsonDocument(text);
    // the loader accepted this file a moment ago; a failed parse means it changed meanwhile
    if (!parsed.ok) {
      this.#problems.push(
        overlayProblem(
          this.#file,
          '',
          'changed while it was read; it is read again on the next reload',
        ),
      );
      return undefined;
    }
    this.#document = parsed.document;
    const root = parsed.document.value;
    return root !== null && typeof root === 'object' && !Array.isArray(root)
      ? (root as Record<string, unknown>)[OVERLAY_FIELD]
      : undefined;
  }

  build(group: RegisteredGroup, extension: unknown): UpstreamOverlay {
    const overlay = {
      group: group.group,
      file: this.#file,
      description: group.description,
      selection: group.selection,
      hidden: [] as string[],
      pinned: [] as string[],
      tools: new Map<string, ToolOverride>(),
    };
    if (extension === undefined) return overlay;
    const base = `/${OVERLAY_FIELD}`;
    if (!isObject(extension)) {
      this.#fail(
        base,
        'must be an object such as {"hidden": [...], "pinned": [...], "tools": {...}}',
      );
      return overlay;
    }
    for (const key of Object.keys(extension)) {
      if (!FIELDS.includes(key)) {
        this.#fail(`${base}/${key}`, `is not an overlay field; use ${FIELDS.join(', ')}`);
      }
    }
    overlay.hidden = this.#names(extension.hidden, `${base}/hidden`);
    overlay.pinned = this.#names(extension.pinned, `${base}/pinned`);
    const tools = extension.tools;
    if (tools === undefined) return overlay;
    if (!isObject(tools)) {
      this.#fail(
        `${base}/tools`,
        'must map tool names to {"title", "description", "example_requests"} overrides',
      );
      return overlay;
    }
    for (const [name, value] of Object.entries(tools)) {
      const pointer = `${base}/tools/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      const override = this.#override(value, pointer, name);
      if (override !== undefined) overlay.tools.set(name, override);
    }
    return overlay;
  }

  #names(value: unknown, pointer: string): string[] {
    if (value === undefined) return [];
    if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item === '')) {
      this.#fail(pointer, 'must be a list of tool names, as the server names them');
      return [];
    }
    return [...new Set(value as string[])];
  }

  #override(value: unknown, pointer: string, name: string): ToolOverride | undefined {
    if (!isObject(value)) {
      this.#fail(
        pointer,
        'must be an object with "title", "description" and/or "example_requests"',
      );
      return undefined;
    }
    const override: ToolOverride = {};
    for (const [key, item] of Object.entries(value)) {
      if (!TOOL_FIELDS.includes(key)) {
        this.#fail(`${pointer}/${key}`, `is not a tool override; use ${TOOL_FIELDS.join(', ')}`);
        continue;
      }
      if (key === 'example_requests') {
        const requests = this.#exampleRequests(item, pointer, name);
        if (requests !== undefined) override.example_requests = requests;
        continue;
      }
      if (typeof item !== 'string' || item.trim() === '') {
        this.#fail(`${pointer}/${key}`, 'must be a non-empty string');
        continue;
      }
      override[key as 'title' | 'description'] = item;
    }
    return override;
  }

  /** The example requests of a tool override, checked as a tool's own (repeats dropped). */
  #exampleRequests(value: unknown, pointer: string, name: string): string[] | undefined {
    const field = `${pointer}/example_requests`;
    if (!Array.isArray(value)) {
      this.#fail(
        field,
        'must be a list of non-empty strings: user messages the tool serves, such as ["what is on my calendar tomorrow?"]',
      );
      return undefined;
    }
    const bad = value.flatMap((item, index) =>
      typeof item === 'string' && item.trim() !== '' ? [] : [index],
    );
    for (const index of bad) {
      this.#fail(`${field}/${index}`, 'must be a non-empty string: a user message the tool serves');
    }
    if (bad.length > 0) return undefined;
    const checked = checkExampleRequests(
      value as string[],
      pointer,
      `tool "${name}"`,
      this.#limits,
    );
    let valid = true;
    for (const problem of checked.problems) {
      if (problem.severity !== 'error') continue;
      valid = false;
      // the message names the tool and the entry; the pointer says where in the file
      const position = this.#document?.locate(problem.pointer);
      this.#problems.push(overlayProblem(this.#file, problem.pointer, problem.message, position));
    }
    return valid ? [...checked.kept] : undefined;
  }

  #fail(pointer: string, problem: string): void {
    const position = this.#document?.locate(pointer);
    const field = pointer
      .slice(1)
      .split('/')
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
      .join('.');
    this.#problems.push(overlayProblem(this.#file, pointer, `${field} ${problem}`, position));
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function shown(file: string, cwd: string): string {
  const path = relative(cwd, file);
  return path === '' || path.startsWith('..') || isAbsolute(path) ? file : path;
}
