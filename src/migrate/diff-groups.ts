import type {
  SelectionStrategy,
  ToolAnnotations,
  ToolDefinition,
  ToolGroupDefinition,
} from '../format/types.js';
import { listKeywordPhrases } from '../text/list-keyword-phrases.js';
import { getDefaultTextAnalyzer, type TextAnalyzer } from '../text/text-analyzer.js';
import { jsonEqual } from './canonical-json.js';
import { diffResolvedSchemas } from './diff-resolved-schemas.js';
import type { SchemaChange, SchemaEffect } from './diff-schemas.js';
import {
  type ActualBump,
  type Bump,
  isBumpSufficient,
  maxBump,
  measureBump,
} from './semver-bump.js';

/** The bump one change needs. */
export type ChangeBump = Exclude<Bump, 'none'>;

/** One classified difference between two versions of a group. */
export interface GroupChange {
  /** Stable kind, e.g. `tool_removed`, `parameter_became_required` (see docs/guide/migration.md). */
  kind: string;
  /** The tool it is about (its OLD name for removals and renames), or null for group fields. */
  tool: string | null;
  /** JSON Pointer into the NEW file, or into the OLD file for what exists only there. */
  pointer: string;
  bump: ChangeBump;
  message: string;
}

/** The result of `diffGroups`: the JSON `toolcap diff --json` prints (which adds `diagnostics`). */
export interface GroupDiff {
  /** NEW's group name. */
  group: string;
  /** OLD's group name: differs from `group` when the group was renamed (`group_renamed`). */
  old_group: string;
  old_version: string;
  new_version: string;
  /** The largest bump any change needs; `none` when nothing changed. */
  required_bump: Bump;
  /** How the version moved from OLD to NEW. */
  actual_bump: ActualBump;
  /** Whether `actual_bump` is enough for `required_bump` (0.x rules in semver-bump.ts). */
  ok: boolean;
  /** Every change, most severe first, then in document order. */
  changes: GroupChange[];
}

/** Options of `diffGroups`. */
export interface DiffGroupsOptions {
  /**
   * The analyzer keyword matching uses (`loadRegistry({ analyzer })`), so that keywords it
   * cannot tell apart are no change. Default: the default analyzer (Porter stemming).
   */
  analyzer?: TextAnalyzer;
}

const INPUT_BUMPS: Readonly<Record<SchemaEffect, ChangeBump>> = {
  narrowed: 'major',
  widened: 'minor',
  changed: 'major',
  removed: 'major',
  added: 'minor',
  annotation: 'patch',
};
// outputs run the other way: a consumer breaks when it may receive values it never saw
const OUTPUT_BUMPS: Readonly<Record<SchemaEffect, ChangeBump>> = {
  narrowed: 'minor',
  widened: 'major',
  changed: 'major',
  removed: 'major',
  added: 'minor',
  annotation: 'patch',
};

/**
 * How many turns a strategy offers a group on: `always` (every turn) reaches further than
 * `keyword` and `context` (only some turns). `keyword` and `context` are not ordered: each
 * selects on turns the other does not.
 */
const STRATEGY_REACH: Readonly<Record<SelectionStrategy, number>> = {
  always: 2,
  keyword: 1,
  context: 1,
};

/** MCP's defaults for absent hints (MCP spec, ToolAnnotations). */
const HINT_DEFAULTS = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
} as const;
/** The value of each hint that makes a client more careful. */
const RISKIER_HINT: Readonly<Record<keyof typeof HINT_DEFAULTS, boolean>> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

const BUMP_ORDER: Readonly<Record<ChangeBump, number>> = { major: 0, minor: 1, patch: 2 };

/**
 * Classifies every difference between two versions of a group as a major, minor or patch
 * change (the rules are in docs/guide/migration.md), computes the bump they require, and checks it
 * against the bump between the two `version` fields. Both groups must be valid (as returned
 * by the loader's validation), so tool positions equal their indexes in the files.
 */
export function diffGroups(
  oldGroup: ToolGroupDefinition,
  newGroup: ToolGroupDefinition,
  options: DiffGroupsOptions = {},
): GroupDiff {
  const changes: GroupChange[] = [];
  const add = (change: GroupChange) => changes.push(change);

  diffGroupFields(oldGroup, newGroup, options.analyzer ?? getDefaultTextAnalyzer(), add);
  diffTools(oldGroup, newGroup, add);

  const ordered = changes
    .map((change, index) => ({ change, index }))
    .sort((a, b) => BUMP_ORDER[a.change.bump] - BUMP_ORDER[b.change.bump] || a.index - b.index)
    .map(({ change }) => change);
  const required = ordered.reduce<Bump>((bump, change) => maxBump(bump, change.bump), 'none');
  const actual = measureBump(oldGroup.version, newGroup.version);
  return {
    group: newGroup.group,
    old_group: oldGroup.group,
    old_version: oldGroup.version,
    new_version: newGroup.version,
    required_bump: required,
    actual_bump: actual,
    ok: isBumpSufficient(required, actual, oldGroup.version),
    changes: ordered,
  };
}

function diffGroupFields(
  oldGroup: ToolGroupDefinition,
  newGroup: ToolGroupDefinition,
  analyzer: TextAnalyzer,
  add: (change: GroupChange) => void,
): void {
  if (oldGroup.group !== newGroup.group) {
    // two unrelated files passed by mistake look like a rename that replaced every tool
    const oldNames = new Set(oldGroup.tools.map((tool) => tool.name));
    const unrelated =
      oldGroup.tools.length > 0 && !newGroup.tools.some((tool) => oldNames.has(tool.name));
    add({
      kind: 'group_renamed',
      tool: null,
      pointer: '/group',
      bump: 'major',
      message: `group renamed from "${oldGroup.group}" to "${newGroup.group}"; pins and references to the old name stop matching${unrelated ? '. The two versions share no tool name: if they are different groups, compare two versions of one group instead' : ''}`,
    });
  }
  if (oldGroup.description !== newGroup.description) {
    add({
      kind: 'group_description_changed',
      tool: null,
      pointer: '/description',
      bump: 'patch',
      message: 'group description changed',
    });
  }
  const oldSelection = oldGroup.selection;
  const newSelection = newGroup.selection;
  if (oldSelection.strategy !== newSelection.strategy) {
    const before = STRATEGY_REACH[oldSelection.strategy];
    const after = STRATEGY_REACH[newSelection.strategy];
    const more = after > before;
    add({
      kind: 'strategy_changed',
      tool: null,
      pointer: '/selection/strategy',
      bump: more ? 'minor' : 'major',
      message: more
        ? `strategy changed from "${oldSelection.strategy}" to "${newSelection.strategy}": the group is offered on more turns`
        : `strategy changed from "${oldSelection.strategy}" to "${newSelection.strategy}": the group is no longer offered on every turn it was before`,
    });
  }
  const keywordStrategy =
    oldSelection.strategy === 'keyword' && newSelection.strategy === 'keyword';
  // keywords are compared as keyword matching sees them: "Invoices" and "invoice" select the
  // same messages, so only a keyword whose phrases are all gone (or new) is a change
  const phrasesOf = (keyword: string) =>
    listKeywordPhrases(analyzer, analyzer.analyze(keyword)).map((phrase) => JSON.stringify(phrase));
  const oldPhrases = new Set(oldSelection.keywords.flatMap(phrasesOf));
  const newPhrases = new Set(newSelection.keywords.flatMap(phrasesOf));
  oldSelection.keywords.forEach((keyword, index) => {
    if (phrasesOf(keyword).every((phrase) => newPhrases.has(phrase))) return;
    add({
      kind: 'keyword_removed',
      tool: null,
      pointer: `/selection/keywords/${index}`,
      bump: keywordStrategy ? 'major' : 'patch',
      message: keywordStrategy
        ? `keyword "${keyword}" removed: messages that only matched it no longer select the group`
        : `keyword "${keyword}" removed (keywords do not decide inclusion for a "${newSelection.strategy}" group)`,
    });
  });
  newSelection.keywords.forEach((keyword, index) => {
    if (phrasesOf(keyword).every((phrase) => oldPhrases.has(phrase))) return;
    const used = newSelection.strategy === 'keyword';
    add({
      kind: 'keyword_added',
      tool: null,
      pointer: `/selection/keywords/${index}`,
      bump: used ? 'minor' : 'patch',
      message: used
        ? `keyword "${keyword}" added: the group is selected by more messages`
        : `keyword "${keyword}" added (keywords do not decide inclusion for a "${newSelection.strategy}" group)`,
    });
  });
  const oldCheck = oldSelection.context_check;
  const newCheck = newSelection.context_check;
  if (oldCheck !== newCheck) {
    const kind =
      oldCheck === undefined
        ? 'context_check_added'
        : newCheck === undefined
          ? 'context_check_removed'
          : 'context_check_changed';
    add({
      kind,
      tool: null,
      pointer: newCheck === undefined ? '/selection' : '/selection/context_check',
      bump: kind === 'context_check_removed' ? 'minor' : 'major',
      message:
        kind === 'context_check_added'
          ? `context_check "${newCheck}" added: the group is only offered when it passes`
          : kind === 'context_check_removed'
            ? `context_check "${oldCheck}" removed: the group no longer waits for it`
            : `context_check changed from "${oldCheck}" to "${newCheck}": turns that passed the old check may fail the new one`,
    });
  }
}

function diffTools(
  oldGroup: ToolGroupDefinition,
  newGroup: ToolGroupDefinition,
  add: (change: GroupChange) => void,
): void {
  const oldIndex = new Map(oldGroup.tools.map((tool, index) => [tool.name, index]));
  const newIndex = new Map(newGroup.tools.map((tool, index) => [tool.name, index]));
  const removed = oldGroup.tools.filter((tool) => !newIndex.has(tool.name));
  const added = newGroup.tools.filter((tool) => !oldIndex.has(tool.name));
  const renames = detectRenames(removed, added);
  const renamedFrom = new Map([...renames].map(([from, to]) => [to, from]));

  for (const tool of removed) {
    const at = oldIndex.get(tool.name)!;
    const target = renames.get(tool.name);
    if (target !== undefined) {
      add({
        kind: 'tool_renamed',
        tool: tool.name,
        pointer: `/tools/${newIndex.get(target)}/name`,
        bump: 'major',
        message: `tool "${tool.name}" was renamed to "${target}"; calls and references to the old name fail`,
      });
      continue;
    }
    add({
      kind: 'tool_removed',
      tool: tool.name,
      pointer: `/tools/${at}`,
      bump: 'major',
      message: `tool "${tool.name}" was removed`,
    });
  }
  newGroup.tools.forEach((tool, index) => {
    const previousName = renamedFrom.get(tool.name) ?? tool.name;
    const previousIndex = oldIndex.get(previousName);
    if (previousIndex === undefined) {
      add({
        kind: 'tool_added',
        tool: tool.name,
        pointer: `/tools/${index}`,
        bump: 'minor',
        message: `tool "${tool.name}" was added`,
      });
      return;
    }
    diffTool(oldGroup.tools[previousIndex]!, tool, previousIndex, index, add);
  });

  const oldOrder = oldGroup.tools
    .map((tool) => renames.get(tool.name) ?? tool.name)
    .filter((name) => newIndex.has(name));
  const newOrder = newGroup.tools
    .map((tool) => tool.name)
    .filter((name) => oldIndex.has(renamedFrom.get(name) ?? name));
  if (oldOrder.join('\n') !== newOrder.join('\n')) {
    add({
      kind: 'tools_reordered',
      tool: null,
      pointer: '/tools',
      bump: 'patch',
      message: 'tools were reordered (catalog order only)',
    });
  }
}

/**
 * Pairs a removed tool with an added one when they are the same tool under a new name: equal
 * input schemas, and an equal description or the same executor and category. Only unambiguous
 * pairs count; anything else stays a removal plus an addition.
 */
function detectRenames(
  removed: readonly ToolDefinition[],
  added: readonly ToolDefinition[],
): Map<string, string> {
  const renames = new Map<string, string>();
  const same = (a: ToolDefinition, b: ToolDefinition) =>
    jsonEqual(a.input_schema, b.input_schema) &&
    (a.description === b.description ||
      (a.metadata.executor === b.metadata.executor && a.category === b.category));
  for (const before of removed) {
    const candidates = added.filter((after) => same(before, after));
    if (candidates.length !== 1) continue;
    const after = candidates[0]!;
    if (removed.filter((other) => same(other, after)).length !== 1) continue;
    renames.set(before.name, after.name);
  }
  return renames;
}

function diffTool(
  before: ToolDefinition,
  after: ToolDefinition,
  oldIndex: number,
  newIndex: number,
  add: (change: GroupChange) => void,
): void {
  const tool = before.name;
  const base = `/tools/${newIndex}`;
  const oldBase = `/tools/${oldIndex}`;
  const field = (name: string, present: boolean) => (present ? `${base}/${name}` : base);

  if (before.title !== after.title) {
    add({
      kind: 'title_changed',
      tool,
      pointer: field('title', after.title !== undefined),
      bump: 'patch',
      message: `tool "${tool}": title changed`,
    });
  }
  if (before.description !== after.description) {
    add({
      kind: 'description_changed',
      tool,
      pointer: `${base}/description`,
      bump: 'patch',
      message: `tool "${tool}": description changed`,
    });
  }
  if (before.category !== after.category) {
    add({
      kind: 'category_changed',
      tool,
      pointer: `${base}/category`,
      bump: 'major',
      message: `tool "${tool}": category changed from "${before.category}" to "${after.category}"; filters by category (e.g. read-only retrieval) now treat it differently`,
    });
  }
  if (!jsonEqual(before.tags ?? [], after.tags ?? [])) {
    add({
      kind: 'tags_changed',
      tool,
      pointer: field('tags', after.tags !== undefined),
      bump: 'patch',
      message: `tool "${tool}": tags changed from ${JSON.stringify(before.tags ?? [])} to ${JSON.stringify(after.tags ?? [])}`,
    });
  }
  diffAnnotations(tool, before.annotations ?? {}, after.annotations ?? {}, base, add);
  if (!jsonEqual(before.examples ?? [], after.examples ?? [])) {
    add({
      kind: 'examples_changed',
      tool,
      pointer: field('examples', after.examples !== undefined),
      bump: 'patch',
      message: `tool "${tool}": examples changed`,
    });
  }
  const oldRequests = before.example_requests ?? [];
  const newRequests = after.example_requests ?? [];
  if (!jsonEqual(oldRequests, newRequests)) {
    // they only steer selection (which message brings the tool up), never what a call does
    const kept = new Set(newRequests);
    const previous = new Set(oldRequests);
    const added = newRequests.filter((request) => !previous.has(request)).length;
    const removed = oldRequests.filter((request) => !kept.has(request)).length;
    add({
      kind: 'example_requests_changed',
      tool,
      pointer: field('example_requests', after.example_requests !== undefined),
      bump: 'patch',
      message: `tool "${tool}": example_requests changed (${added} added, ${removed} removed${added === 0 && removed === 0 ? ', reordered' : ''})`,
    });
  }

  const inputChanges = diffResolvedSchemas(before.input_schema, after.input_schema, {
    oldPointer: `${oldBase}/input_schema`,
    newPointer: `${base}/input_schema`,
    rootLabel: 'input_schema',
    noun: 'parameter',
  });
  for (const change of inputChanges) {
    add(fromSchemaChange(tool, change, 'input'));
  }
  if (before.output_schema === undefined && after.output_schema !== undefined) {
    add({
      kind: 'output_schema_added',
      tool,
      pointer: `${base}/output_schema`,
      bump: 'minor',
      message: `tool "${tool}": output_schema added (results are now validated and described)`,
    });
  } else if (before.output_schema !== undefined && after.output_schema === undefined) {
    add({
      kind: 'output_schema_removed',
      tool,
      pointer: `${oldBase}/output_schema`,
      bump: 'major',
      message: `tool "${tool}": output_schema removed; consumers lose the guarantee of its shape`,
    });
  } else if (before.output_schema !== undefined && after.output_schema !== undefined) {
    const outputChanges = diffResolvedSchemas(before.output_schema, after.output_schema, {
      oldPointer: `${oldBase}/output_schema`,
      newPointer: `${base}/output_schema`,
      rootLabel: 'output_schema',
      noun: 'output field',
    });
    for (const change of outputChanges) add(fromSchemaChange(tool, change, 'output'));
  }

  const oldMetadata = before.metadata;
  const newMetadata = after.metadata;
  if (oldMetadata.executor !== newMetadata.executor) {
    add({
      kind: 'executor_changed',
      tool,
      pointer: `${base}/metadata/executor`,
      bump: 'minor',
      message: `tool "${tool}": executor changed from "${oldMetadata.executor}" to "${newMetadata.executor}"; deploy handlers/${newMetadata.executor} with this version`,
    });
  }
  oldMetadata.requires_context.forEach((key, index) => {
    if (newMetadata.requires_context.includes(key)) return;
    add({
      kind: 'requires_context_removed',
      tool,
      pointer: `${oldBase}/metadata/requires_context/${index}`,
      bump: 'minor',
      message: `tool "${tool}" no longer requires context "${key}": it is offered in more situations`,
    });
  });
  newMetadata.requires_context.forEach((key, index) => {
    if (oldMetadata.requires_context.includes(key)) return;
    add({
      kind: 'requires_context_added',
      tool,
      pointer: `${base}/metadata/requires_context/${index}`,
      bump: 'major',
      message: `tool "${tool}" now requires context "${key}": turns without it no longer get the tool`,
    });
  });
  for (const estimate of ['cost_estimate', 'latency_estimate'] as const) {
    if (oldMetadata[estimate] === newMetadata[estimate]) continue;
    add({
      kind: 'estimate_changed',
      tool,
      pointer: `${base}/metadata/${estimate}`,
      bump: 'patch',
      message: `tool "${tool}": ${estimate} changed from "${oldMetadata[estimate]}" to "${newMetadata[estimate]}"`,
    });
  }
}

function diffAnnotations(
  tool: string,
  before: ToolAnnotations,
  after: ToolAnnotations,
  base: string,
  add: (change: GroupChange) => void,
): void {
  if (before.title !== after.title) {
    add({
      kind: 'title_changed',
      tool,
      pointer: after.title !== undefined ? `${base}/annotations/title` : base,
      bump: 'patch',
      message: `tool "${tool}": annotations.title changed`,
    });
  }
  for (const hint of Object.keys(HINT_DEFAULTS) as (keyof typeof HINT_DEFAULTS)[]) {
    if (before[hint] === after[hint]) continue;
    const oldValue = before[hint] ?? HINT_DEFAULTS[hint];
    const newValue = after[hint] ?? HINT_DEFAULTS[hint];
    const riskier = oldValue !== newValue && newValue === RISKIER_HINT[hint];
    add({
      kind: 'annotation_hint_changed',
      tool,
      pointer: after[hint] !== undefined ? `${base}/annotations/${hint}` : base,
      bump: riskier ? 'major' : 'patch',
      message: `tool "${tool}": annotations.${hint} changed from ${String(before[hint] ?? `unset (${oldValue})`)} to ${String(after[hint] ?? `unset (${newValue})`)}${riskier ? '; clients that auto-approve the old behaviour must now ask' : ''}`,
    });
  }
}

function fromSchemaChange(
  tool: string,
  change: SchemaChange,
  direction: 'input' | 'output',
): GroupChange {
  const kind =
    direction === 'input'
      ? change.kind.replace(/property/, 'parameter')
      : `output_${change.kind.replace(/property/, 'field')}`;
  const bumps = direction === 'input' ? INPUT_BUMPS : OUTPUT_BUMPS;
  return {
    kind,
    tool,
    pointer: change.pointer,
    bump: bumps[change.effect],
    message: `tool "${tool}": ${change.message}`,
  };
}
