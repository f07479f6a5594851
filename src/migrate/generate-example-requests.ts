import { ToolcapError } from '../errors/toolcap-error.js';
import { type LoadLimits, resolveLoadLimits } from '../format/limits.js';
import type { Diagnostic, ToolDefinition } from '../format/types.js';
import { toCanonicalToolName } from '../providers/import/to-canonical-tool-name.js';
import { errorMessage } from '../util/error-message.js';
import {
  errorExcerpt,
  postOpenAICompatible,
  resolveOpenAICompatibleEndpoint,
} from '../util/openai-compatible-request.js';
import { suggestSimilar } from '../util/suggest-similar.js';
import {
  cleanRequest,
  type EditableGroupFile,
  type RequestTarget,
  readGroupFiles,
  type WrittenGroup,
  writeExampleRequests,
} from './example-request-files.js';

/** Options of `generateExampleRequests`. */
export interface GenerateExamplesOptions {
  /**
   * The chat API base, up to `/v1`: `https://api.openai.com/v1`, Ollama
   * `http://localhost:11434/v1`, LM Studio `http://localhost:1234/v1`, vLLM or llama.cpp's server.
   * Requests go to `<baseURL>/chat/completions`.
   */
  baseURL: string;
  /** The chat model, such as `gpt-4o-mini` or `llama3.1`. */
  model: string;
  /** Sent as `Authorization: Bearer <apiKey>`; never part of a message or the report. */
  apiKey?: string;
  /** Extra request headers (for a gateway). */
  headers?: Readonly<Record<string, string>>;
  /** Directories searched (recursively) for `*_tools.json`. Default `["schemas"]`. */
  schemas?: readonly string[];
  /** Base for relative paths. Default `process.cwd()`. */
  cwd?: string;
  /** Example requests each tool should have; tools with fewer get the rest. Default 5. */
  perTool?: number;
  /** Only these tools (by name). Default: every tool of the group files. */
  tools?: readonly string[];
  /**
   * The tools of upstream MCP servers by group (their `tools/list` entries, as
   * `snapshotUpstream` returns them): each group's overlay file gets requests for them in
   * `x-upstream.tools`, by the server's tool names. Tools the overlay hides are left out.
   */
  upstream?: Readonly<Record<string, readonly unknown[]>>;
  /** Ask the model and report, but write nothing. Default false. */
  dryRun?: boolean;
  /** Requests in flight at once. Default 4. */
  concurrency?: number;
  /** Milliseconds each request may take. Default 120,000. */
  timeoutMs?: number;
  /** Sampling temperature sent with each request. Default 0.7. */
  temperature?: number;
  /** Loader limits the edited files must stay within; see `LoadLimits`. */
  limits?: Partial<LoadLimits>;
  /** Stops sending requests; the requests in flight are abandoned and nothing is written. */
  signal?: AbortSignal;
}

/** One tool the model wrote requests for, and what was kept. */
export interface GeneratedTool {
  tool: string;
  /** The requests appended to the tool, in order. */
  added: string[];
  /** How many example requests the tool has afterwards. */
  total: number;
}

/** One group with tools the model was asked about, and what happened to its file. */
export interface GeneratedGroup extends WrittenGroup {
  tools: GeneratedTool[];
}

/** The result of `generateExampleRequests`: also what `toolcap examples --json` prints. */
export interface GenerateExamplesReport {
  model: string;
  /** The chat endpoint, without credentials or query string. */
  endpoint: string;
  dry_run: boolean;
  per_tool: number;
  /** Tools the model was asked about (they had fewer than `per_tool` requests). */
  requested: number;
  /**
   * Without `upstream`: the groups whose file is an overlay (their tools are on upstream MCP
   * servers, left out; pass `upstream` to include them).
   */
  overlay_groups: string[];
  /** Tools that already had `per_tool` requests or more, not asked about. */
  complete: number;
  /** Groups with a tool the model answered for, in catalog order. */
  groups: GeneratedGroup[];
  /** Tools whose request failed or whose answer was unusable, with the reason. */
  failed: { group: string; tool: string; error: string }[];
  /** Names given in `tools` that no group file defines. */
  unknown_tools: string[];
  /** For the names of `unknown_tools` close to a tool's name (a typo): those names. */
  similar_tools: { tool: string; similar: string[] }[];
  /**
   * The names of `unknown_tools` that a lower version of a group defines: requests are written
   * only to the version the loader picks (the highest), so add the tool there first.
   */
  older_version_tools: { tool: string; group: string; version: string; file: string }[];
  /** Names given in `tools` that are upstream MCP tools of an overlay file: left out. */
  upstream_tools: string[];
  /** Groups of `upstream` that no overlay file here has: left out until one is created. */
  no_overlay: string[];
  /** Requests of the answers not added, by reason. */
  skipped: {
    /** Empty, or not a string. */
    invalid: number;
    /** Repeats of a kept request or of another answer (ignoring case, spacing, punctuation). */
    duplicate: number;
    /** Requests whose words overlap a kept request's by 80% or more (Jaccard). */
    near_duplicate: number;
    /** Requests beyond what the tool needed. */
    over_cap: number;
  };
  /** Added requests that were cut to the length limit. */
  truncated: number;
  /** Why no more requests were sent, when the run stopped early (the endpoint refused, ...). */
  stopped?: string;
  /** Errors of group files whose tools were not considered (run `toolcap validate`). */
  diagnostics: Diagnostic[];
}

/** The default of `perTool`. */
export const DEFAULT_GENERATED_PER_TOOL = 5;
const DEFAULT_CONCURRENCY = 4;
const DEFAULT_TIMEOUT_MS = 120_000;
const DEFAULT_TEMPERATURE = 0.7;
/** Sibling tools named in a prompt, so requests fit this tool rather than another. */
const MAX_SIBLINGS = 25;
/** Failures in a row, with no answer yet, after which no more requests are sent. */
const FAILURES_BEFORE_STOP = 3;
/** HTTP statuses that mean every request will fail the same way. */
const FATAL_STATUS = /^HTTP (401|403|404)\b/;
/** The largest answer read: a few requests take a few kilobytes. */
const MAX_RESPONSE_BYTES = 1_000_000;

/** What the prompt says about a tool. */
interface ToolFacts {
  name: string;
  description: string;
  /** The properties of its input schema. */
  properties: Readonly<Record<string, unknown>>;
}

interface Job {
  target: RequestTarget;
  tool: ToolFacts;
  group: { name: string; description: string };
  /** The other tools of the group, for the model to tell apart. */
  siblings: readonly ToolFacts[];
  /** How many requests to ask for. */
  count: number;
}

/**
 * Asks a chat model (any OpenAI-compatible `/v1/chat/completions` server) to write example
 * requests for the tools of the group files that have fewer than `perTool`, from each tool's
 * name, description and parameters, its group, and its sibling tools, and adds them to the
 * tools' `example_requests` as `toolcap learn` does: repeats and near-duplicates dropped, one
 * patch bump per changed group, each file checked and written atomically. A failed request or an
 * unusable answer is reported for its tool and the run goes on; the run stops sending requests
 * when the endpoint refuses (HTTP 401, 403 or 404) or the first three requests all fail. The
 * tools of upstream MCP servers are included when `upstream` gives their `tools/list` entries:
 * their requests go into their groups' overlay files. Throws a ToolcapError for bad options or
 * schema directories without group files.
 */
export async function generateExampleRequests(
  options: GenerateExamplesOptions,
): Promise<GenerateExamplesReport> {
  checkOptionShapes(options);
  const cwd = options.cwd ?? process.cwd();
  const limits = resolveLoadLimits(options.limits);
  // a URL pasted with the path already on it is the endpoint itself
  const resolved = resolveOpenAICompatibleEndpoint(
    options.baseURL.replace(/\/chat\/completions\/*$/, ''),
    'chat/completions',
  );
  if ('problem' in resolved) throw invalid(resolved.problem);
  const perTool = boundedInteger(
    'perTool',
    options.perTool,
    DEFAULT_GENERATED_PER_TOOL,
    1,
    limits.maxExampleRequests,
  );
  const concurrency = boundedInteger(
    'concurrency',
    options.concurrency,
    DEFAULT_CONCURRENCY,
    1,
    64,
  );
  const timeoutMs = boundedInteger(
    'timeoutMs',
    options.timeoutMs,
    DEFAULT_TIMEOUT_MS,
    1,
    3_600_000,
  );
  const temperature = options.temperature ?? DEFAULT_TEMPERATURE;
  if (!Number.isFinite(temperature) || temperature < 0 || temperature > 2) {
    throw invalid(
      `"temperature" must be a number from 0 to 2, got ${JSON.stringify(options.temperature)}`,
    );
  }
  const dryRun = options.dryRun === true;

  const diagnostics: Diagnostic[] = [];
  const olderVersions: EditableGroupFile[] = [];
  const groupFiles = await readGroupFiles(
    options.schemas ?? ['schemas'],
    cwd,
    limits,
    diagnostics,
    olderVersions,
  );
  // requests cut to the length limit: counted when they are added, not when dropped as repeats
  const shortened = new Set<string>();
  const report: GenerateExamplesReport = {
    model: options.model,
    endpoint: resolved.shown,
    dry_run: dryRun,
    per_tool: perTool,
    requested: 0,
    overlay_groups: [],
    complete: 0,
    groups: [],
    failed: [],
    unknown_tools: [],
    similar_tools: [],
    upstream_tools: [],
    older_version_tools: [],
    no_overlay: [],
    skipped: { invalid: 0, duplicate: 0, near_duplicate: 0, over_cap: 0 },
    truncated: 0,
    diagnostics,
  };

  const jobs = collectJobs(groupFiles, options.tools, perTool, report);
  if (options.upstream !== undefined) {
    jobs.push(...collectUpstreamJobs(groupFiles, options.upstream, options.tools, perTool, report));
  }
  if (report.unknown_tools.length > 0) {
    const names = knownToolNames(groupFiles, options.upstream);
    for (const tool of report.unknown_tools) {
      // one name per tool: the closest of its name and its original name
      const tools = new Set<string>();
      const similar = suggestSimilar(tool, names.keys()).filter((name) => {
        const owner = names.get(name)!;
        if (tools.has(owner)) return false;
        tools.add(owner);
        return true;
      });
      if (similar.length > 0) report.similar_tools.push({ tool, similar });
    }
  }
  for (const tool of report.unknown_tools) {
    const older = olderVersions.find((file) => file.group.tools.some((t) => t.name === tool));
    if (older === undefined) continue;
    const { group, version } = older.group;
    report.older_version_tools.push({ tool, group, version, file: older.display });
  }
  if (options.upstream === undefined) {
    report.overlay_groups = groupFiles.flatMap((file) =>
      file.overlay === undefined ? [] : [file.group.group],
    );
  }
  const answers = new Map<Job, string[]>();
  let failuresInARow = 0;
  let answered = false;
  const ask = async (job: Job) => {
    const group = job.target.owner.group.group;
    report.requested++;
    try {
      const requests = await requestExamples(job, {
        url: resolved.url,
        shown: resolved.shown,
        model: options.model,
        temperature,
        timeoutMs,
        ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
        ...(options.headers === undefined ? {} : { headers: options.headers }),
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      answered = true;
      failuresInARow = 0;
      const kept: string[] = [];
      for (const request of requests) {
        // control and bidirectional formatting characters go (cleanRequest)
        const cleaned = cleanRequest(
          typeof request === 'string' ? request : '',
          false,
          limits.maxExampleRequestLength,
        );
        if (cleaned.text === '') {
          report.skipped.invalid++;
          continue;
        }
        if (cleaned.truncated) shortened.add(cleaned.text);
        kept.push(cleaned.text);
      }
      if (kept.length === 0) {
        report.failed.push({
          group,
          tool: job.target.name,
          error: `the answer holds no request: ${requests.length === 0 ? 'an empty list' : 'no item is a non-empty string'}`,
        });
        return;
      }
      answers.set(job, kept);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const message = errorMessage(error);
      report.failed.push({ group, tool: job.target.name, error: message });
      failuresInARow++;
      if (FATAL_STATUS.test(message.replace(/^.*? failed: /, ''))) {
        report.stopped ??= `the endpoint refused a request (${message}); check the URL, the model and the API key`;
      } else if (!answered && failuresInARow >= FAILURES_BEFORE_STOP) {
        report.stopped ??= `the first ${FAILURES_BEFORE_STOP} requests failed (the last: ${message})`;
      }
    }
  };
  await runPool(jobs, concurrency, ask, () => report.stopped !== undefined);
  options.signal?.throwIfAborted();

  // groups in catalog order, tools in file order
  for (const groupFile of groupFiles) {
    const additions = jobs
      .filter((job) => job.target.owner === groupFile && answers.has(job))
      .map((job) => ({ target: job.target, candidates: answers.get(job)! }));
    if (additions.length === 0) continue;
    // under the file's lock, against the file as it is then: another run may have written it
    const edited = await writeExampleRequests(groupFile, additions, perTool, limits, dryRun);
    const entry: GeneratedGroup = { ...edited.written, tools: [] };
    for (const { target, chosen, total } of edited.tools) {
      report.skipped.duplicate += chosen.duplicates;
      report.skipped.near_duplicate += chosen.nearDuplicates;
      report.skipped.over_cap += chosen.overCap;
      report.truncated += chosen.added.filter((request) => shortened.has(request)).length;
      entry.tools.push({ tool: target.name, added: chosen.added, total });
    }
    report.groups.push(entry);
  }
  return report;
}

/** The tools to ask about: defined in a group file (not an overlay), with too few requests. */
function collectJobs(
  groupFiles: readonly EditableGroupFile[],
  only: readonly string[] | undefined,
  perTool: number,
  report: GenerateExamplesReport,
): Job[] {
  const wanted = only === undefined ? undefined : new Set(only);
  const seen = new Set<string>();
  /** Names of `only` that are a tool's name before `toolcap import` converted it. */
  const originals = new Set<string>();
  const jobs: Job[] = [];
  for (const owner of groupFiles) {
    const facts = owner.group.tools.map(toolFacts);
    const originalNames = originalToolNames(owner);
    owner.group.tools.forEach((definition, index) => {
      // the loader keeps the first of two tools with one name
      if (seen.has(definition.name)) return;
      seen.add(definition.name);
      if (wanted !== undefined && !wanted.has(definition.name)) {
        // learn finds an imported tool by its original name too
        const original = originalNames[index];
        if (original === undefined || !wanted.has(original)) return;
        originals.add(original);
      }
      const existing = definition.example_requests ?? [];
      if (existing.length >= perTool) {
        report.complete++;
        return;
      }
      jobs.push({
        target: {
          owner,
          order: index,
          name: definition.name,
          existing,
          position: owner.positions[index],
          definition,
        },
        tool: facts[index]!,
        group: { name: owner.group.group, description: owner.group.description },
        siblings: facts.filter((_, other) => other !== index),
        count: perTool - existing.length,
      });
    });
  }
  if (wanted !== undefined) {
    const upstream = new Set(groupFiles.flatMap((file) => [...(file.overlay?.keys() ?? [])]));
    for (const name of wanted) {
      if (seen.has(name) || originals.has(name)) continue;
      if (upstream.has(name)) report.upstream_tools.push(name);
      else report.unknown_tools.push(name);
    }
  }
  return jobs;
}

/**
 * The upstream tools to ask about: per group of `upstream` with an overlay file, each tool the
 * overlay does not hide with too few requests in `x-upstream.tools` (under the key the overlay
 * uses for it, else the server's name). The overlay's title or description of a tool wins.
 */
function collectUpstreamJobs(
  groupFiles: readonly EditableGroupFile[],
  upstream: Readonly<Record<string, readonly unknown[]>>,
  only: readonly string[] | undefined,
  perTool: number,
  report: GenerateExamplesReport,
): Job[] {
  const wanted = only === undefined ? undefined : new Set(only);
  /** Names of `only` that matched an upstream tool, asked about or already complete. */
  const matched = new Set<string>();
  const jobs: Job[] = [];
  for (const [group, entries] of Object.entries(upstream)) {
    const owner = groupFiles.find(
      (file) => file.overlay !== undefined && file.group.group === group,
    );
    if (owner?.overlay === undefined) {
      report.no_overlay.push(group);
      continue;
    }
    const extension = (JSON.parse(owner.text.replace(/^\uFEFF/, '')) as Record<string, unknown>)[
      'x-upstream'
    ] as { hidden?: unknown; tools?: Record<string, { description?: unknown }> } | undefined;
    const hidden = new Set(Array.isArray(extension?.hidden) ? extension.hidden : []);
    const overrides = extension?.tools ?? {};
    const listed = new Set(
      entries.flatMap((entry) => {
        const name = (entry as { name?: unknown } | null)?.name;
        return typeof name === 'string' ? [name] : [];
      }),
    );
    // the server's own name first; the converted one only when no other listed tool has it
    const keyOf = (name: string) => {
      const converted = toCanonicalToolName(name);
      if (owner.overlay!.has(name)) return name;
      return converted !== name && !listed.has(converted) && owner.overlay!.has(converted)
        ? converted
        : name;
    };
    const tools = entries.flatMap((entry): ToolFacts[] => {
      const { name, description, inputSchema } = (entry ?? {}) as Record<string, unknown>;
      if (typeof name !== 'string' || hidden.has(name) || hidden.has(toCanonicalToolName(name))) {
        return [];
      }
      // a tool whose input is not an object is one the gateway does not serve
      if ((inputSchema as { type?: unknown } | null)?.type !== 'object') return [];
      const override = overrides[keyOf(name)]?.description;
      const properties = (inputSchema as { properties?: unknown } | undefined)?.properties;
      return [
        {
          name,
          description:
            typeof override === 'string'
              ? override
              : typeof description === 'string'
                ? description
                : '',
          properties:
            properties !== null && typeof properties === 'object'
              ? (properties as Record<string, unknown>)
              : {},
        },
      ];
    });
    const keys = new Set<string>();
    tools.forEach((tool, index) => {
      if (wanted !== undefined) {
        // the server's name, the converted one, or the gateway's name for a renamed tool
        const converted = toCanonicalToolName(tool.name);
        const names = [tool.name, converted, `${group}_${converted}`];
        const hit = names.find((name) => wanted.has(name));
        if (hit === undefined) return;
        matched.add(hit);
      }
      const key = keyOf(tool.name);
      // one key is edited once a run
      if (keys.has(key)) return;
      keys.add(key);
      const existing = owner.overlay!.get(key) ?? [];
      if (existing.length >= perTool) {
        report.complete++;
        return;
      }
      jobs.push({
        target: {
          owner,
          order: index,
          name: key,
          existing,
          position: undefined,
          definition: undefined,
        },
        tool,
        group: { name: group, description: owner.group.description },
        siblings: tools.filter((_, other) => other !== index),
        count: perTool - existing.length,
      });
    });
  }
  if (wanted !== undefined) {
    // with the upstream tools listed, a name is either one of them or unknown
    report.unknown_tools = [...report.unknown_tools, ...report.upstream_tools].filter(
      (name) => !matched.has(name),
    );
    report.upstream_tools = [];
  }
  return jobs;
}

/** Each tool's `x-original-name` (its name before `toolcap import` converted it), by index. */
function originalToolNames(owner: EditableGroupFile): (string | undefined)[] {
  const raw = JSON.parse(owner.text.replace(/^\uFEFF/, '')) as { tools: unknown[] };
  return owner.positions.map((position, index) => {
    const entry = raw.tools[position] as Record<string, unknown> | undefined;
    const original = entry?.['x-original-name'];
    return typeof original === 'string' && original !== owner.group.tools[index]?.name
      ? original
      : undefined;
  });
}

/**
 * Every name `tools` may give (the group files' tools, their original names, overlay keys,
 * upstream tools), each with the tool it names.
 */
function knownToolNames(
  groupFiles: readonly EditableGroupFile[],
  upstream: Readonly<Record<string, readonly unknown[]>> | undefined,
): Map<string, string> {
  const names = new Map<string, string>();
  const add = (name: string, tool: string) => {
    if (!names.has(name)) names.set(name, tool);
  };
  for (const owner of groupFiles) {
    const originals = originalToolNames(owner);
    owner.group.tools.forEach((tool, index) => {
      add(tool.name, tool.name);
      const original = originals[index];
      if (original !== undefined) add(original, tool.name);
    });
    for (const key of owner.overlay?.keys() ?? []) add(key, key);
  }
  for (const entries of Object.values(upstream ?? {})) {
    for (const entry of entries) {
      const name = (entry as { name?: unknown } | null)?.name;
      if (typeof name === 'string') add(name, name);
    }
  }
  return names;
}

function toolFacts(definition: ToolDefinition): ToolFacts {
  return {
    name: definition.name,
    description: definition.description,
    properties: (definition.input_schema.properties ?? {}) as Readonly<Record<string, unknown>>,
  };
}

/** Runs `work` over `items`, `limit` at a time, taking no new item once `stop()` holds. */
async function runPool<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<void>,
  stop: () => boolean,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !stop()) {
      const item = items[next++]!;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

interface ChatSettings {
  url: URL;
  shown: string;
  model: string;
  temperature: number;
  timeoutMs: number;
  apiKey?: string;
  headers?: Readonly<Record<string, string>>;
  signal?: AbortSignal;
}

/** One chat request for `job`; the answer's list, unchecked. */
async function requestExamples(job: Job, chat: ChatSettings): Promise<unknown[]> {
  const failed = (problem: string, cause?: unknown) =>
    new ToolcapError(
      'EXAMPLES_REQUEST_FAILED',
      `POST ${chat.shown} (model ${chat.model}) failed: ${problem}`,
      cause === undefined ? undefined : { cause },
    );
  const text = await postOpenAICompatible({
    url: chat.url,
    body: {
      model: chat.model,
      temperature: chat.temperature,
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: examplePrompt(job) },
      ],
    },
    ...(chat.apiKey === undefined ? {} : { apiKey: chat.apiKey }),
    ...(chat.headers === undefined ? {} : { headers: chat.headers }),
    timeoutMs: chat.timeoutMs,
    maxResponseBytes: MAX_RESPONSE_BYTES,
    ...(chat.signal === undefined ? {} : { signal: chat.signal }),
    failed,
  });
  return readAnswer(text, failed);
}

const SYSTEM_PROMPT =
  'You write example requests for a catalog of tools an AI assistant can call. Answer with a JSON array of strings and nothing else.';

/** The user message asking for `job.count` requests for one tool. */
function examplePrompt(job: Job): string {
  const parameters = Object.entries(job.tool.properties).map(([name, schema]) => {
    const description = (schema as { description?: unknown } | null)?.description;
    return typeof description === 'string' ? `${name} (${oneLine(description, 100)})` : name;
  });
  const siblings = job.siblings
    .slice(0, MAX_SIBLINGS)
    .map((tool) => `- ${tool.name}: ${oneLine(tool.description, 120)}`);
  const lines = [
    `Write ${job.count} different messages that a user might type to an AI assistant, each of which this tool serves.`,
    'Write them the way people do: concrete (names, places, files, dates), varied in length and tone, each under 200 characters, in the language of the description.',
    'At least half must not reuse the words of the tool name or description: say what the user wants, not how the tool does it. Never name the tool.',
    '',
    `Tool: ${job.tool.name}`,
    `Description: ${oneLine(job.tool.description, 1_000)}`,
    ...(parameters.length > 0 ? [`Parameters: ${parameters.join('; ')}`] : []),
    `Group "${job.group.name}": ${oneLine(job.group.description, 300)}`,
  ];
  if (siblings.length > 0) {
    lines.push(
      '',
      'Other tools of the group (a request should fit this tool better than these):',
      ...siblings,
    );
  }
  if (job.target.existing.length > 0) {
    lines.push(
      '',
      'Requests it already has (write different ones):',
      ...job.target.existing.map((request) => `- ${request}`),
    );
  }
  lines.push('', `Answer with a JSON array of ${job.count} strings.`);
  return lines.join('\n');
}

/** The list in a chat completion's first message: a JSON array, possibly in a code fence. */
function readAnswer(text: string, failed: (problem: string) => Error): unknown[] {
  const shape =
    'expected a chat completion { "choices": [{ "message": { "content": "[\\"...\\", ...]" } }] }';
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw failed(`the response is not JSON (${errorExcerpt(text)}); ${shape}`);
  }
  const content = (body as { choices?: { message?: { content?: unknown } }[] } | null)?.choices?.[0]
    ?.message?.content;
  if (typeof content !== 'string') throw failed(`the response has no message content; ${shape}`);
  // reasoning models may think aloud first
  const found = firstStringArray(content.replace(/<think>[\s\S]*?<\/think>/g, ''));
  if ('problem' in found) {
    // the answer as received (escaped, not reflowed), so what broke it stays visible
    const shown = content.length > 300 ? `${content.slice(0, 299)}…` : content;
    throw failed(
      `the answer is not a JSON array of strings (${found.problem}): ${JSON.stringify(shown)}`,
    );
  }
  return found.list;
}

/** Bracketed spans tried in an answer before giving up. */
const MAX_ARRAY_CANDIDATES = 20;
/** Control characters: invalid raw inside JSON strings, where models still put line breaks. */
const RAW_CONTROL_CHARACTERS = /\p{Cc}/gu;

/**
 * The first JSON array in `text` that is empty or holds a string, wherever it sits (in prose, a
 * code fence, after other bracketed text): each `[` is matched to its closing `]` outside string
 * literals. Raw control characters count as spaces (outside strings they are whitespace anyway).
 * Without such an array: why the first candidate failed.
 */
function firstStringArray(text: string): { list: unknown[] } | { problem: string } {
  let from = 0;
  let problem: string | undefined;
  for (let tried = 0; tried < MAX_ARRAY_CANDIDATES; tried++) {
    const start = text.indexOf('[', from);
    if (start < 0) break;
    const end = closingBracket(text, start);
    if (end < 0) {
      problem ??= `the "[" at character ${start + 1} is never closed`;
      break;
    }
    try {
      const value: unknown = JSON.parse(
        text.slice(start, end + 1).replace(RAW_CONTROL_CHARACTERS, ' '),
      );
      if (
        Array.isArray(value) &&
        (value.length === 0 || value.some((item) => typeof item === 'string'))
      ) {
        return { list: value };
      }
      problem ??= `the array at character ${start + 1} holds no string`;
    } catch (error) {
      // not JSON: try the next bracket
      problem ??= `JSON.parse: ${errorMessage(error)}, counting from the "[" at character ${start + 1}`;
    }
    from = start + 1;
  }
  return { problem: problem ?? 'it holds no "["' };
}

/** The index of the `]` closing the `[` at `start`, skipping string literals; -1 if none. */
function closingBracket(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '[') depth++;
    else if (char === ']' && --depth === 0) return index;
  }
  return -1;
}

function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function invalid(problem: string): ToolcapError {
  return new ToolcapError('EXAMPLES_INVALID_OPTIONS', `generateExampleRequests: ${problem}`);
}

function boundedInteger(
  name: string,
  value: number | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    throw invalid(
      `"${name}" must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}

/** The options `generateExampleRequests` knows, what each must be, and its check. */
const OPTION_SHAPES: Readonly<
  Record<keyof GenerateExamplesOptions, [string, (value: unknown) => boolean]>
> = {
  baseURL: [
    'a string (the API base up to /v1)',
    (value) => typeof value === 'string' && value !== '',
  ],
  model: [
    'a non-empty string (the chat model)',
    (value) => typeof value === 'string' && value !== '',
  ],
  apiKey: ['a string', (value) => typeof value === 'string'],
  headers: [
    'an object of header strings',
    (value) =>
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      Object.values(value).every((item) => typeof item === 'string'),
  ],
  schemas: [
    'an array of directory paths',
    (value) =>
      Array.isArray(value) && value.every((entry) => typeof entry === 'string' && entry !== ''),
  ],
  cwd: ['a string', (value) => typeof value === 'string'],
  perTool: ['a number', (value) => typeof value === 'number'],
  tools: [
    'an array of tool names',
    (value) =>
      Array.isArray(value) && value.every((entry) => typeof entry === 'string' && entry !== ''),
  ],
  upstream: [
    'an object mapping group names to tools/list entries',
    (value) =>
      value !== null &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      Object.values(value).every((entries) => Array.isArray(entries)),
  ],
  dryRun: ['true or false', (value) => typeof value === 'boolean'],
  concurrency: ['a number', (value) => typeof value === 'number'],
  timeoutMs: ['a number', (value) => typeof value === 'number'],
  temperature: ['a number', (value) => typeof value === 'number'],
  limits: [
    'an object of load limits',
    (value) => value !== null && typeof value === 'object' && !Array.isArray(value),
  ],
  signal: ['an AbortSignal', (value) => value instanceof AbortSignal],
};

/** Throws `EXAMPLES_INVALID_OPTIONS` for a missing, unknown or wrongly typed option. */
function checkOptionShapes(options: GenerateExamplesOptions): void {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw invalid(
      'expects an options object such as { baseURL: "http://localhost:11434/v1", model: "llama3.1" }',
    );
  }
  const known = Object.keys(OPTION_SHAPES);
  for (const [name, value] of Object.entries(options)) {
    if (!Object.hasOwn(OPTION_SHAPES, name)) {
      // a misspelt dryRun must not write the files
      const similar = suggestSimilar(name, known);
      throw invalid(
        `unknown option "${name}"${similar.length > 0 ? `; did you mean "${similar[0]}"?` : '.'} Options: ${known.join(', ')}`,
      );
    }
    const [expected, check] = OPTION_SHAPES[name as keyof GenerateExamplesOptions];
    if (value !== undefined && !check(value)) {
      throw invalid(
        `option "${name}" must be ${expected}, got ${name === 'apiKey' ? typeof value : (JSON.stringify(value) ?? typeof value)}`,
      );
    }
  }
  for (const name of ['baseURL', 'model'] as const) {
    if (options[name] === undefined) {
      throw invalid(
        `option "${name}" is required: ${name === 'baseURL' ? 'the chat API base up to /v1, such as "http://localhost:11434/v1"' : 'the chat model, such as "llama3.1"'}`,
      );
    }
  }
}
