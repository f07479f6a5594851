import { TOOL_NAME_PATTERN } from '../../format/names.js';
import type { CostEstimate, LatencyEstimate, ToolCategory, Warning } from '../../format/types.js';
import type {
  DroppedTool,
  HistoryEntry,
  Selection,
  SelectionReason,
  SelectOptions,
} from '../../select/types.js';
import type { Registry } from '../../toolcap/registry.js';
import { suggestSimilar } from '../../util/suggest-similar.js';
import { CliUsageError } from '../cli-usage-error.js';
import { formatTable } from '../format-table.js';
import { type CliIo, createStyle, useColor, writeJson } from '../io.js';
import {
  keyValuePairs,
  optionalString,
  parseCliArgs,
  positiveInteger,
  stringList,
  wholeNumber,
} from '../parse-cli-args.js';
import { printDiagnostics } from '../print-diagnostics.js';
import { providerAlias } from '../provider-alias.js';
import {
  loadCliRegistry,
  REGISTRY_OPTIONS,
  REGISTRY_OPTIONS_USAGE,
  requireSchemaDirs,
} from '../registry-options.js';
import {
  cliSemanticOptions,
  SEMANTIC_OPTIONS,
  SEMANTIC_OPTIONS_USAGE,
} from '../semantic-options.js';

/** One-line summary for `toolcap help`. */
export const summary = 'choose the tools for one conversation turn, with reasons';

/** Usage text. */
export const usage = `toolcap select [--schemas PATH]... [--context KEY=VALUE]... [--history TEXT]...
       [--max-tools N] [--max-tokens N] [--provider P] [--why TOOL]... [--json] MESSAGE

Selects the tools for MESSAGE: pinned (always) groups, context groups whose condition holds,
keyword groups whose keywords occur in MESSAGE, groups kept by recent history, then filters and
budgets. Prints a table of tool, group, strategy and why (or JSON), and the tools left out.

Options:
${REGISTRY_OPTIONS_USAGE}
  --context KEY=VALUE      a context value for this turn, e.g. user_id=u1 (repeatable)
  --history TEXT           an earlier user message, oldest first, or the name of a tool called
                           in an earlier turn (repeatable)
  --history-window N       how many of the latest --history entries count (default 4; 0: none)
  --max-tools N            at most N tools (pinned tools are kept even above it)
  --max-tokens N           at most N estimated tokens of definitions for --provider
  --provider P             openai, openai-responses, anthropic, google (or gemini, the same),
                           bedrock, mcp or canonical; with --json also prints the provider's
                           "payload" (its tools value)
  --max-cost C             leave out tools costlier than C (low, medium, high)
  --max-latency L          leave out tools slower than L (fast, medium, slow)
  --category C             only tools of category C (repeatable)
  --fallback K             when no keyword group matches, offer the K most relevant tools
  --relevance K            instead of matching keywords, offer the K tools of keyword groups
                           most relevant to MESSAGE and --history (large imported catalogs)
  --min-score S            minimum relevance 0-1 of --fallback tools (default 0.05) or
                           --relevance tools (default 0)
  --typos                  correct words one typo away (words of 5+ letters), for keywords and ranking
  --why TOOL               say why TOOL was or was not offered this turn: its reason, its
                           drop, its group's unmatched keywords, or its rank against the
                           --relevance/--fallback cut-off (repeatable)
${SEMANTIC_OPTIONS_USAGE}
  --json                   print {"tools": [...], "dropped": [...], "warnings": [...]}; with
                           --provider, "warnings" also holds the translation's warnings for
                           the payload, marked "source": "translate"; with --why, also
                           "explained": [{"tool", "status", "reason", ...}]`;

const OPTIONS = {
  ...REGISTRY_OPTIONS,
  ...SEMANTIC_OPTIONS,
  context: { type: 'string', multiple: true },
  history: { type: 'string', multiple: true },
  'history-window': { type: 'string' },
  'max-tools': { type: 'string' },
  'max-tokens': { type: 'string' },
  provider: { type: 'string' },
  'max-cost': { type: 'string' },
  'max-latency': { type: 'string' },
  category: { type: 'string', multiple: true },
  fallback: { type: 'string' },
  relevance: { type: 'string' },
  'min-score': { type: 'string' },
  typos: { type: 'boolean' },
  why: { type: 'string', multiple: true },
  json: { type: 'boolean' },
} as const;

const PROVIDERS = [
  'openai',
  'openai-responses',
  'anthropic',
  'google',
  'bedrock',
  'mcp',
  'canonical',
] as const;
const COSTS = ['low', 'medium', 'high'] as const;
const LATENCIES = ['fast', 'medium', 'slow'] as const;
const CATEGORIES = ['creation', 'retrieval', 'mutation', 'analysis'] as const;

/** Runs `toolcap select`. */
export async function run(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCliArgs('select', args, OPTIONS, {
    min: 1,
    max: 1,
    names: 'MESSAGE',
  });
  const message = positionals[0]!;
  const options: SelectOptions = { context: keyValuePairs('select', 'context', values.context) };
  const maxTools = positiveInteger('select', 'max-tools', values['max-tools']);
  if (maxTools !== undefined) options.maxTools = maxTools;
  const maxTokens = positiveInteger('select', 'max-tokens', values['max-tokens']);
  if (maxTokens !== undefined) options.maxTokens = maxTokens;
  const historyWindow = wholeNumber(
    'select',
    'history-window',
    values['history-window'],
    '0: no history counts',
  );
  if (historyWindow !== undefined) options.historyWindow = historyWindow;
  const givenProvider = optionalString(values.provider);
  const provider = choice(
    'provider',
    givenProvider === undefined ? undefined : providerAlias(givenProvider),
    PROVIDERS,
  );
  if (provider !== undefined) options.provider = provider;
  const maxCost = choice('max-cost', optionalString(values['max-cost']), COSTS);
  if (maxCost !== undefined) options.maxCost = maxCost as CostEstimate;
  const maxLatency = choice('max-latency', optionalString(values['max-latency']), LATENCIES);
  if (maxLatency !== undefined) options.maxLatency = maxLatency as LatencyEstimate;
  const categories = stringList(values.category).map((category) =>
    choice('category', category, CATEGORIES),
  );
  if (categories.length > 0) options.categories = categories as ToolCategory[];
  const fallbackK = positiveInteger('select', 'fallback', values.fallback);
  const relevanceK = positiveInteger('select', 'relevance', values.relevance);
  const minScore = score('min-score', optionalString(values['min-score']));
  if (fallbackK !== undefined && relevanceK !== undefined) {
    throw new CliUsageError(
      '--relevance replaces keyword matching and the fallback; give --relevance or --fallback',
      'select',
    );
  }
  if (minScore !== undefined && fallbackK === undefined && relevanceK === undefined) {
    throw new CliUsageError('--min-score needs --fallback K or --relevance K', 'select');
  }
  const ranked = (k: number) => (minScore === undefined ? { k } : { k, minScore });
  if (fallbackK !== undefined) options.fallback = ranked(fallbackK);
  if (relevanceK !== undefined) options.relevance = ranked(relevanceK);
  if (values.typos === true) options.typoTolerance = true;
  const why = stringList(values.why);
  const blank = why.find((name) => name.trim() === '');
  if (blank !== undefined) {
    throw new CliUsageError(
      `--why ${JSON.stringify(blank)}: the tool name is empty; give the name of a tool, such as --why create_event (an empty name is usually an unset environment variable)`,
      'select',
    );
  }
  if (why.length > 0) options.explain = why;

  const semantic = await cliSemanticOptions('select', values, io);
  const registry = await loadCliRegistry('select', values, io, { semantic });
  requireSchemaDirs(registry.diagnostics);
  printDiagnostics(io, registry.diagnostics);
  const historyWarnings: Warning[] = [];
  const history = stringList(values.history).map((entry) =>
    historyEntry(registry, entry, historyWarnings),
  );
  if (history.length > 0) options.history = history;
  const selection =
    semantic === undefined
      ? registry.select(message, options)
      : await registry.selectAsync(message, options);

  // the provider's `tools` value, exactly as a request would carry it, and what translating
  // changed (the translators are imported only for this: they are not on the start-up path of
  // a plain select)
  let translation: { payload: unknown; warnings: readonly Warning[] } | undefined;
  if (provider !== undefined) {
    const { translate } = await import('../../providers/translate.js');
    translation = translate(selection.tools, provider);
  }
  if (values.json === true) {
    const output = selectionJson(selection);
    output.warnings = [...historyWarnings, ...selection.warnings];
    if (translation !== undefined) {
      output.payload = translation.payload;
      output.warnings = [
        ...historyWarnings,
        ...selection.warnings,
        ...translation.warnings.map((warning) => ({ ...warning, source: 'translate' })),
      ];
    }
    writeJson(io, output);
    return 0;
  }
  const style = createStyle(useColor(io));
  for (const warning of [...historyWarnings, ...selection.warnings]) {
    io.stderr(`${style.yellow(`warning ${warning.code}`)} ${warning.message}\n`);
  }
  for (const warning of translation?.warnings ?? []) {
    const where = warning.tool === undefined ? '' : ` ${warning.tool}`;
    io.stderr(
      `${style.yellow(`warning ${warning.code}`)}${where} (translating for ${provider}): ${warning.message}\n`,
    );
  }
  const rows = selection.tools.map((tool) => [
    tool.name,
    `${tool.group}@${tool.version}`,
    tool.reason.strategy,
    explainReason(tool.reason),
  ]);
  io.stdout(
    rows.length === 0
      ? 'no tools selected\n'
      : `${formatTable(['TOOL', 'GROUP', 'STRATEGY', 'WHY'], rows)}\n`,
  );
  if (rows.length === 0 && fallbackK === undefined && relevanceK === undefined) {
    printNoMatchHint(io, registry, selection.dropped);
  }
  if (selection.dropped.length > 0) {
    io.stdout(
      `\n${formatTable(
        ['DROPPED', 'GROUP', 'CODE', 'REASON'],
        selection.dropped.map((drop) => [
          drop.name,
          drop.group,
          drop.code,
          withContextFlag(registry, options.context ?? {}, drop),
        ]),
      )}\n`,
    );
  }
  if (selection.explained !== undefined) {
    io.stdout(
      `\n${formatTable(
        ['EXPLAIN', 'STATUS', 'WHY'],
        selection.explained.map((entry) => [entry.tool, entry.status, entry.reason]),
      )}\n`,
    );
  }
  return 0;
}

/**
 * Why nothing was selected when keyword groups exist but none matched: a first import's
 * suggested keywords rarely cover how people ask, and the flags that rank by relevance instead.
 */
function printNoMatchHint(io: CliIo, registry: Registry, dropped: readonly DroppedTool[]): void {
  const keywordGroups = registry
    .groups()
    .filter((group) => group.selection.strategy === 'keyword' && group.tools.length > 0);
  // a matched group whose tools were all dropped (missing context, budgets) did match
  const matched = new Set(dropped.map((drop) => drop.group));
  if (keywordGroups.length === 0 || keywordGroups.some((group) => matched.has(group.group))) return;
  const shown = keywordGroups.slice(0, 5).map(({ group, selection: { keywords } }) => {
    const words = keywords.slice(0, 4).join(', ');
    return `${group} (${keywords.length > 4 ? `${words}, ...` : words})`;
  });
  const more =
    keywordGroups.length > shown.length ? `; and ${keywordGroups.length - shown.length} more` : '';
  io.stderr(
    `No keyword group matched: the message has none of the keywords of ${shown.join('; ')}${more}. Add --fallback K to offer the K most relevant tools when no group matches, or --relevance K to rank the tools of every keyword group; or add keywords to the groups' "selection".\n`,
  );
}

/** A `MISSING_CONTEXT` reason with the flag that sets the missing keys, for the command line. */
function withContextFlag(
  registry: Registry,
  context: Readonly<Record<string, unknown>>,
  drop: DroppedTool,
): string {
  if (drop.code !== 'MISSING_CONTEXT') return drop.reason;
  const missing = (registry.get(drop.name)?.metadata.requires_context ?? []).filter(
    (key) => !Object.hasOwn(context, key),
  );
  return missing.length === 0
    ? drop.reason
    : `${drop.reason} (${missing.map((key) => `--context ${key}=...`).join(' ')})`;
}

/**
 * A --history value: the name of a registered tool counts as a call, anything else as a message.
 * A value that looks like a tool name (one identifier with an underscore) but is none is most
 * likely a misspelt call: it still counts as a message, with a warning like the library's.
 */
function historyEntry(registry: Registry, text: string, warnings: Warning[]): HistoryEntry {
  if (registry.has(text)) return { tool: text };
  if (TOOL_NAME_PATTERN.test(text) && text.includes('_')) {
    const similar = suggestSimilar(
      text,
      registry.list().map((tool) => tool.name),
    );
    warnings.push({
      code: 'UNKNOWN_HISTORY_TOOL',
      message: `--history "${text}" looks like a tool name, but the registry has no such tool${similar.length > 0 ? ` (did you mean "${similar[0]}"?)` : ''}; it counts as an earlier user message, not as a call`,
      tool: text,
    });
  }
  return text;
}

/** The WHY column: matched terms, typo notes, and the relevance score. */
export function explainReason(reason: SelectionReason): string {
  const typos = new Map((reason.typos ?? []).map((typo) => [typo.keyword, typo.word]));
  const matched = reason.matched.map((term) => {
    const typo = typos.get(term);
    return typo === undefined ? term : `${term} (typo: ${JSON.stringify(typo)})`;
  });
  let text: string;
  switch (reason.strategy) {
    case 'always':
      text = 'pinned: the group is always offered';
      break;
    case 'context':
      text = `context: ${matched.join(', ') || 'no keys required'}`;
      break;
    case 'keyword':
      text = `keywords: ${matched.join(', ')}`;
      break;
    case 'history':
      text = `earlier turns: ${matched.join(', ')}`;
      break;
    default:
      text = `relevance: ${matched.join(', ') || '-'}`;
  }
  return reason.score === undefined ? text : `${text} (score ${reason.score})`;
}

/** The documented --json shape (README "CLI"). */
function selectionJson(selection: Selection): Record<string, unknown> {
  return {
    tools: selection.tools.map((tool) => ({
      name: tool.name,
      group: tool.group,
      version: tool.version,
      category: tool.category,
      executor: tool.metadata.executor,
      cost_estimate: tool.metadata.cost_estimate,
      latency_estimate: tool.metadata.latency_estimate,
      requires_context: [...tool.metadata.requires_context],
      reason: tool.reason,
    })),
    dropped: selection.dropped.map((drop) => ({
      name: drop.name,
      group: drop.group,
      code: drop.code,
      reason: drop.reason,
    })),
    warnings: selection.warnings,
    // only with --why, so the documented shape is unchanged without it
    ...(selection.explained === undefined ? {} : { explained: selection.explained }),
  };
}

function choice<T extends string>(
  option: string,
  value: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new CliUsageError(
      `--${option} must be one of ${allowed.join(', ')}, got ${JSON.stringify(value)}`,
      'select',
    );
  }
  return value as T;
}

function score(option: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === '' || !(number >= 0 && number <= 1)) {
    throw new CliUsageError(
      `--${option} must be a number from 0 to 1, got ${JSON.stringify(value)}`,
      'select',
    );
  }
  return number;
}
