import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { ToolcapError } from '../errors/toolcap-error.js';
import { type LoadLimits, resolveLoadLimits } from '../format/limits.js';
import type { Diagnostic } from '../format/types.js';
import { detectWideEncoding } from '../load/parse-json-document.js';
import { toCanonicalToolName } from '../providers/import/to-canonical-tool-name.js';
import { errorMessage } from '../util/error-message.js';
import { suggestSimilar } from '../util/suggest-similar.js';
import {
  cleanRequest,
  type EditableGroupFile,
  indexTools,
  type RequestTarget,
  readGroupFiles,
  type WrittenGroup,
  writeExampleRequests,
} from './example-request-files.js';
import {
  parseTranscriptLine,
  TRANSCRIPT_FORMATS,
  type TranscriptCall,
  type TranscriptFormat,
} from './parse-transcript-line.js';
import {
  findServerToolKey,
  mayBeRenamedTool,
  serverToolNameCandidates,
} from './server-tool-names.js';

/** Options of `learnFromTranscripts`. */
export interface LearnOptions {
  /** The transcript format: `openai`, `anthropic` or `pairs`. */
  from: TranscriptFormat;
  /** The transcript file (JSON Lines), relative to `cwd`. */
  file: string;
  /** Directories searched (recursively) for `*_tools.json`. Default `["schemas"]`. */
  schemas?: readonly string[];
  /** Base for relative paths. Default `process.cwd()`. */
  cwd?: string;
  /** Most example requests a tool keeps, counting those it has. Default 20. */
  maxPerTool?: number;
  /** Replace e-mail addresses, URLs, phone numbers and long digit runs. Default true. */
  redact?: boolean;
  /** Compute the report but write nothing. Default false. */
  dryRun?: boolean;
  /** Loader limits the edited files must stay within; see `LoadLimits`. */
  limits?: Partial<LoadLimits>;
}

/** A line of the transcript file that was skipped, and why. */
export interface LearnLineProblem {
  /** 1-based line number in the transcript file. */
  line: number;
  message: string;
}

/** One called tool of a group and what was added to it. */
export interface LearnedTool {
  tool: string;
  /** Calls of the tool found in the transcripts (with a user message). */
  calls: number;
  /** The example requests appended to the tool, in order. */
  added: string[];
  /** How many example requests the tool has afterwards. */
  total: number;
}

/** One group whose tools were called, and what happened to its file. */
export interface LearnedGroup extends WrittenGroup {
  tools: LearnedTool[];
}

/** The result of `learnFromTranscripts`: also what `toolcap learn --json` prints. */
export interface LearnReport {
  format: TranscriptFormat;
  /** The transcript file as given. */
  file: string;
  dry_run: boolean;
  redacted: boolean;
  max_per_tool: number;
  /** Non-blank lines read. */
  lines: number;
  /** Lines read without a problem (conversations, or pairs). */
  records: number;
  /** Tool calls found with the user message that led to them. */
  calls: number;
  /** Groups with at least one called tool, in catalog order. */
  groups: LearnedGroup[];
  /**
   * Called tools that no group defines (skipped), most calls first. `group` is the group the
   * `pairs` line named. `needs_overlay`: the line named the server's tool (`server_tool`), so it
   * is a tool of an upstream MCP server, and its group has no valid group file here (it needs an
   * overlay file). `needs_server_tool`: the group's overlay has no key for `tool`, a name the
   * gateway may have given a renamed tool (`<group>_...`), so the pairs need `server_tool`, the
   * server's own name.
   */
  unknown_tools: {
    tool: string;
    calls: number;
    group?: string;
    needs_overlay?: true;
    needs_server_tool?: true;
  }[];
  /**
   * Tools of `pairs` lines whose `group` does not define them, most calls first: the calls were
   * credited to `credited_to`, the group that does (`group` is the one the lines named).
   */
  group_mismatch: { tool: string; calls: number; group: string; credited_to: string }[];
  /** Messages not added, by reason. */
  skipped: {
    /** Tool calls made before any user message. */
    no_user_message: number;
    /** Messages that are empty once trimmed. */
    empty: number;
    /** Repeats of a kept request or an earlier message (ignoring case, spacing, punctuation). */
    duplicate: number;
    /** Messages whose words overlap a kept request's by 80% or more (Jaccard). */
    near_duplicate: number;
    /** Distinct messages left out because the tool reached `max_per_tool`. */
    over_cap: number;
    /**
     * Tool calls whose user message has no content words (a confirmation such as "yes go
     * ahead", "ok do it") and no earlier user message in the conversation with some; `pairs`
     * lines whose message has none; a confirmation whose request already led to a call of
     * another tool. Otherwise a confirmation after a request is paired with the request.
     */
    no_content_words: number;
  };
  /** Added requests that were shortened to the length limit (at a word boundary, ending in "…"). */
  truncated: number;
  /** The first 100 skipped lines with the reason. */
  problems: LearnLineProblem[];
  /** How many lines were skipped in all. */
  problem_count: number;
  /** Errors of group files whose tools could not be considered (run `toolcap validate`). */
  diagnostics: Diagnostic[];
}

/** The default of `maxPerTool`. */
export const DEFAULT_MAX_EXAMPLE_REQUESTS_PER_TOOL = 20;
const MAX_REPORTED_PROBLEMS = 100;
/** Distinct messages considered per tool; more only make the diversity choice slower. */
const MAX_CANDIDATES_PER_TOOL = 5_000;
const BYTE_ORDER_MARK = '\uFEFF';

/** A tool learning may add to, with what the transcripts said about it. */
interface KnownTool extends RequestTarget {
  calls: number;
  /** Distinct candidate messages in the order first seen. */
  messages: Set<string>;
  overflow: number;
}

/**
 * Reads past conversations and adds, to each called tool's `example_requests` in its group
 * file, the user messages that led to the call (the job of `toolcap learn`). Messages are
 * redacted (unless `redact: false`), whitespace-collapsed, cut to the length limit, and chosen
 * with `chooseExampleRequests` (no repeats or near-duplicates, at most `maxPerTool`, varied).
 * Each changed group gets a version bump (a patch, or the next pre-release of a pre-release);
 * only the changed arrays and the version are edited, in the file's own indentation, and each
 * file is written atomically (a temporary file, then a rename) after the edited text has passed
 * validation, under the file's lock and against the file as it is then, so concurrent runs
 * never lose each other's requests. Malformed lines and unknown tools are reported, never
 * fatal. Throws a ToolcapError for bad options, an unreadable (or UTF-16) transcript file, or
 * schema directories without group files.
 */
export async function learnFromTranscripts(options: LearnOptions): Promise<LearnReport> {
  checkOptionShapes(options);
  const cwd = options.cwd ?? process.cwd();
  const limits = resolveLoadLimits(options.limits);
  const maxPerTool = checkOptions(options, limits);
  const redact = options.redact !== false;
  const dryRun = options.dryRun === true;

  const diagnostics: Diagnostic[] = [];
  const groupFiles = await readGroupFiles(options.schemas ?? ['schemas'], cwd, limits, diagnostics);
  const known = indexTools(groupFiles, (target) => withCounters(target));
  const overlays = new Map(
    groupFiles.flatMap((file) => (file.overlay === undefined ? [] : [[file.group.group, file]])),
  );
  /** Overlay entries by group and key, made when first called. */
  const overlayTools = new Map<string, KnownTool>();
  /** Tools of an overlay's group named only by a name the gateway may have given on renaming. */
  const renamedTools = new Map<string, string>();
  const overlayTool = (call: TranscriptCall): KnownTool | undefined => {
    const owner = call.group === undefined ? undefined : overlays.get(call.group);
    if (owner?.overlay === undefined) return undefined;
    const group = owner.group.group;
    // the overlay's own key when it has one for the tool, else the server's name of the tool
    let key: string;
    if (call.serverTool !== undefined) {
      key =
        [call.serverTool, call.tool].find((name) => owner.overlay!.has(name!)) ?? call.serverTool;
    } else {
      // the gateway's name: its key in the overlay, or itself (the gateway reads a server's name
      // and its converted form as keys), unless it may be a renamed tool's
      const found = findServerToolKey(call.tool, group, owner.overlay.keys());
      if (found === undefined && mayBeRenamedTool(call.tool, group)) {
        renamedTools.set(call.tool, group);
        return undefined;
      }
      key = found ?? call.tool;
    }
    const id = `${owner.group.group}\u0000${key}`;
    let tool = overlayTools.get(id);
    if (tool === undefined) {
      tool = withCounters({
        owner,
        order: owner.positions.length + overlayTools.size,
        name: key,
        existing: owner.overlay.get(key) ?? [],
        position: undefined,
        definition: undefined,
      });
      overlayTools.set(id, tool);
    }
    return tool;
  };
  /** The group the first `pairs` line of an unknown tool named; whether any named `server_tool`. */
  const unknownGroups = new Map<string, { group: string; upstream: boolean }>();
  /** Calls credited to a tool of another group than the one their pairs line named. */
  const mismatched = new Map<
    string,
    { tool: string; calls: number; group: string; credited_to: string }
  >();
  /**
   * An upstream tool the gateway renamed (`beta_echo`), in a group file of its server's tools
   * (`toolcap import --from-server`), by the server's name of it.
   */
  const snapshotTool = (call: TranscriptCall): KnownTool | undefined => {
    if (call.group === undefined) return undefined;
    const names =
      call.serverTool === undefined
        ? // the gateway's name: a renamed tool is the snapshot's tool of the rest of the name
          serverToolNameCandidates(call.tool, call.group).slice(1)
        : [call.serverTool, toCanonicalToolName(call.serverTool)];
    for (const name of names) {
      const tool = known.get(name);
      if (tool?.owner.group.group === call.group) return tool;
    }
    return undefined;
  };

  // requests cut to the length limit: counted when they are added, not when dropped as repeats
  const shortened = new Set<string>();
  const report: LearnReport = {
    format: options.from,
    file: options.file,
    dry_run: dryRun,
    redacted: redact,
    max_per_tool: maxPerTool,
    lines: 0,
    records: 0,
    calls: 0,
    groups: [],
    unknown_tools: [],
    group_mismatch: [],
    skipped: {
      no_user_message: 0,
      empty: 0,
      duplicate: 0,
      near_duplicate: 0,
      over_cap: 0,
      no_content_words: 0,
    },
    truncated: 0,
    problems: [],
    problem_count: 0,
    diagnostics,
  };
  const unknown = new Map<string, number>();

  await readLines(resolve(cwd, options.file), options.file, (line, number) => {
    if (line.trim() === '') return;
    report.lines++;
    const parsed = parseTranscriptLine(line, options.from);
    if (!parsed.ok) {
      report.problem_count++;
      if (report.problems.length < MAX_REPORTED_PROBLEMS) {
        report.problems.push({ line: number, message: parsed.problem });
      }
      return;
    }
    report.records++;
    report.skipped.no_user_message += parsed.unprompted;
    report.skipped.no_content_words += parsed.unconfirmed;
    for (const call of parsed.calls) {
      report.calls++;
      const local = known.get(call.tool);
      const tool = local ?? snapshotTool(call) ?? overlayTool(call);
      if (tool === undefined) {
        unknown.set(call.tool, (unknown.get(call.tool) ?? 0) + 1);
        if (call.group !== undefined) {
          // only a call of an upstream tool (it names the server's tool) needs an overlay
          const named = unknownGroups.get(call.tool);
          const upstream = call.serverTool !== undefined || named?.upstream === true;
          unknownGroups.set(call.tool, { group: named?.group ?? call.group, upstream });
        }
        continue;
      }
      const owner = tool.owner.group.group;
      if (local !== undefined && call.group !== undefined && call.group !== owner) {
        const id = `${call.tool}\u0000${call.group}`;
        const entry = mismatched.get(id);
        if (entry === undefined) {
          mismatched.set(id, { tool: call.tool, calls: 1, group: call.group, credited_to: owner });
        } else entry.calls++;
      }
      tool.calls++;
      const message = cleanRequest(call.message, redact, limits.maxExampleRequestLength);
      if (message.text === '') {
        report.skipped.empty++;
        continue;
      }
      if (message.truncated) shortened.add(message.text);
      if (tool.messages.has(message.text)) report.skipped.duplicate++;
      else if (tool.messages.size >= MAX_CANDIDATES_PER_TOOL) tool.overflow++;
      else tool.messages.add(message.text);
    }
  });

  report.unknown_tools = [...unknown]
    .map(([tool, calls]) => {
      const renamedGroup = renamedTools.get(tool);
      if (renamedGroup !== undefined) {
        return { tool, calls, group: renamedGroup, needs_server_tool: true as const };
      }
      const named = unknownGroups.get(tool);
      if (named === undefined) return { tool, calls };
      return named.upstream
        ? { tool, calls, group: named.group, needs_overlay: true as const }
        : { tool, calls, group: named.group };
    })
    .sort((a, b) => b.calls - a.calls || compareText(a.tool, b.tool));
  report.group_mismatch = [...mismatched.values()].sort(
    (a, b) => b.calls - a.calls || compareText(a.tool, b.tool) || compareText(a.group, b.group),
  );

  // groups in catalog order, each tool in file order
  const byGroup = new Map<EditableGroupFile, KnownTool[]>();
  for (const tool of [...new Set(known.values()), ...overlayTools.values()]) {
    if (tool.calls === 0) continue;
    const list = byGroup.get(tool.owner);
    if (list === undefined) byGroup.set(tool.owner, [tool]);
    else list.push(tool);
  }
  for (const groupFile of groupFiles) {
    const tools = byGroup.get(groupFile);
    if (tools === undefined) continue;
    tools.sort((a, b) => a.order - b.order);
    // under the file's lock, against the file as it is then: another run may have written it
    const edited = await writeExampleRequests(
      groupFile,
      tools.map((tool) => ({ target: tool, candidates: [...tool.messages] })),
      maxPerTool,
      limits,
      dryRun,
    );
    const entry: LearnedGroup = { ...edited.written, tools: [] };
    for (const { target, chosen, total } of edited.tools) {
      const tool = target as KnownTool;
      report.skipped.duplicate += chosen.duplicates;
      report.skipped.near_duplicate += chosen.nearDuplicates;
      report.skipped.over_cap += chosen.overCap + tool.overflow;
      report.truncated += chosen.added.filter((request) => shortened.has(request)).length;
      entry.tools.push({ tool: tool.name, calls: tool.calls, added: chosen.added, total });
    }
    report.groups.push(entry);
  }
  return report;
}

/** The options `learnFromTranscripts` knows, and the shape each must have. */
const LEARN_OPTION_SHAPES: Readonly<Record<keyof LearnOptions, (value: unknown) => boolean>> = {
  from: (value) => typeof value === 'string',
  file: (value) => typeof value === 'string' && value !== '',
  schemas: (value) =>
    Array.isArray(value) && value.every((entry) => typeof entry === 'string' && entry !== ''),
  cwd: (value) => typeof value === 'string',
  maxPerTool: (value) => typeof value === 'number',
  redact: (value) => typeof value === 'boolean',
  dryRun: (value) => typeof value === 'boolean',
  limits: (value) => value !== null && typeof value === 'object' && !Array.isArray(value),
};

/** What each option must be, for the message. */
const LEARN_OPTION_EXPECTED: Readonly<Record<keyof LearnOptions, string>> = {
  from: 'a string',
  file: 'a non-empty string (the transcript file)',
  schemas: 'an array of directory paths',
  cwd: 'a string',
  maxPerTool: 'a number',
  redact: 'true or false',
  dryRun: 'true or false',
  limits: 'an object of load limits',
};

/** Throws `LEARN_INVALID_OPTIONS` for a missing, unknown or wrongly typed option. */
function checkOptionShapes(options: LearnOptions): void {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new ToolcapError(
      'LEARN_INVALID_OPTIONS',
      'learnFromTranscripts expects an options object such as { from: "openai", file: "conversations.jsonl" }',
    );
  }
  const known = Object.keys(LEARN_OPTION_SHAPES);
  for (const [name, value] of Object.entries(options)) {
    if (!Object.hasOwn(LEARN_OPTION_SHAPES, name)) {
      // a misspelt dryRun must not write the files
      const similar = suggestSimilar(name, known);
      throw new ToolcapError(
        'LEARN_INVALID_OPTIONS',
        `learnFromTranscripts: unknown option "${name}"${similar.length > 0 ? `; did you mean "${similar[0]}"?` : '.'} Options: ${known.join(', ')}`,
      );
    }
    const option = name as keyof LearnOptions;
    if (value !== undefined && !LEARN_OPTION_SHAPES[option](value)) {
      throw new ToolcapError(
        'LEARN_INVALID_OPTIONS',
        `learnFromTranscripts: option "${name}" must be ${LEARN_OPTION_EXPECTED[option]}, got ${JSON.stringify(value) ?? typeof value}`,
      );
    }
  }
  if (options.file === undefined) {
    throw new ToolcapError(
      'LEARN_INVALID_OPTIONS',
      'learnFromTranscripts: option "file" is required: the transcript file (JSON Lines) to learn from',
    );
  }
}

function checkOptions(options: LearnOptions, limits: LoadLimits): number {
  if (!(TRANSCRIPT_FORMATS as readonly string[]).includes(options.from)) {
    throw new ToolcapError(
      'LEARN_INVALID_OPTIONS',
      `unknown transcript format ${JSON.stringify(options.from)}; use one of ${TRANSCRIPT_FORMATS.join(', ')}`,
    );
  }
  const max =
    options.maxPerTool ??
    Math.min(DEFAULT_MAX_EXAMPLE_REQUESTS_PER_TOOL, limits.maxExampleRequests);
  if (!Number.isInteger(max) || max < 1 || max > limits.maxExampleRequests) {
    throw new ToolcapError(
      'LEARN_INVALID_OPTIONS',
      `maxPerTool must be an integer from 1 to ${limits.maxExampleRequests} (limits.maxExampleRequests), got ${String(max)}`,
    );
  }
  return max;
}

function withCounters(target: RequestTarget): KnownTool {
  return { ...target, calls: 0, messages: new Set(), overflow: 0 };
}

/** Calls `onLine` with each line of `file` (1-based numbers), streaming. */
async function readLines(
  file: string,
  label: string,
  onLine: (line: string, number: number) => void,
): Promise<void> {
  let number = 0;
  let encoding: string | undefined;
  const input = createReadStream(file, { encoding: 'utf8' });
  try {
    const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
    for await (const line of lines) {
      number++;
      if (number === 1) {
        // a UTF-16 file read as UTF-8 fails on every line; one message says why
        encoding = detectWideEncoding(line);
        if (encoding !== undefined) break;
      }
      // a leading byte order mark, also of a file appended to another (cat a.jsonl b.jsonl)
      onLine(line.startsWith(BYTE_ORDER_MARK) ? line.slice(1) : line, number);
    }
  } catch (error) {
    throw new ToolcapError(
      'LEARN_INPUT_UNREADABLE',
      `cannot read ${label}${number > 0 ? ` after line ${number}` : ''}: ${errorMessage(error)}; check the path`,
    );
  }
  if (encoding !== undefined) {
    input.destroy();
    throw new ToolcapError(
      'LEARN_INPUT_UNREADABLE',
      `${label} is ${encoding}, not UTF-8: save it as UTF-8 (a transcript is JSON Lines in UTF-8), then run learn again`,
    );
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
