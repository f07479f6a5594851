import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { allowedToolChoice } from '../../src/providers/allowed-tools.js';
import type { ProviderId } from '../../src/providers/provider-types.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { CONTEXT, TURNS } from '../e2e/conversation.js';

/** Tokens as estimate-tokens.ts counts them: the JSON's length over four, rounded up. */
const tokens = (value: unknown) => Math.ceil(JSON.stringify(value).length / 4);
const number = (value: number) => value.toLocaleString('en-US');

/** The rows between `<!-- name:start -->` and `<!-- name:end -->` in the guide. */
function documentedTable(name: string): string {
  const text = readFileSync('docs/guide/agent-loop.md', 'utf8');
  const start = text.indexOf(`<!-- ${name}:start -->`);
  const end = text.indexOf(`<!-- ${name}:end -->`);
  expect(start).toBeGreaterThan(0);
  return text.slice(text.indexOf('\n', start) + 1, end).trim();
}

const registry = await loadRegistry({ dirs: ['schemas'], strict: true });
const everything = registry.list();
const first = registry.select(TURNS[0], { context: CONTEXT });
const second = registry.select(TURNS[1], {
  context: CONTEXT,
  history: [TURNS[0], { tool: 'list_tasks' }],
});
const pinned = new Set(
  registry
    .groups()
    .filter((group) => group.selection.strategy === 'always')
    .flatMap((group) => group.tools),
);
const unpinned = everything.map((tool) => tool.name).filter((name) => !pinned.has(name));
const outside = (names: readonly string[]) =>
  everything.map((tool) => tool.name).filter((name) => !names.includes(name));
// what the model sees of a deferred entry: a namespace's or function's name and description
const visible = (entry: unknown): unknown => {
  const item = entry as { type?: string; tools?: unknown[]; defer_loading?: boolean };
  if (item.type === 'namespace') {
    return { ...item, tools: item.tools!.filter((tool) => !(tool as typeof item).defer_loading) };
  }
  if (item.defer_loading !== true) return item;
  const { name, description } = item as { name: string; description?: string };
  return item.type === 'function' ? { type: 'function', name, description } : undefined;
};

describe('docs/guide/agent-loop.md: the measured token counts', () => {
  it('match what the bundled groups translate to today', () => {
    const providers: ProviderId[] = [
      'openai',
      'openai-responses',
      'anthropic',
      'google',
      'bedrock',
    ];
    const row = (label: string, cells: string[]) => `| ${label} | ${cells.join(' | ')} |`;
    const sizes = (tools: typeof everything) =>
      providers.map((provider) => number(tokens(registry.translate(tools, provider).payload)));
    const allowed = (provider: 'openai' | 'openai-responses') =>
      `${tokens(allowedToolChoice(provider, first))} / ${tokens(allowedToolChoice(provider, second))}`;
    const expected = [
      row('what is sent', providers),
      '| --- | --- | --- | --- | --- | --- |',
      row(`the full list (${everything.length} tools)`, sizes(everything)),
      row(`turn 1's selection (${first.tools.length} tools: journal, tasks)`, sizes(first.tools)),
      row(`turn 2's selection (${second.tools.length} tools: + calendar)`, sizes(second.tools)),
      row('`allowed_tools` for turn 1 / turn 2', [
        allowed('openai'),
        allowed('openai-responses'),
        '–',
        '–',
        '–',
      ]),
      row('the full list, `parametersJsonSchema`', [
        '–',
        '–',
        '–',
        number(
          tokens(registry.translate(everything, 'google', { parametersJsonSchema: true }).payload),
        ),
        '–',
      ]),
    ].join('\n');
    expect(documentedTable('token-table')).toBe(expected);
  });

  it('match what deferral sends and what the model sees of it', () => {
    const anthropic = (deferred: string[]) => {
      const payload = registry.translate(everything, 'anthropic', {
        deferLoading: deferred,
        toolSearch: 'client',
      }).payload;
      return [tokens(payload), tokens(payload.filter((entry) => !('defer_loading' in entry)))];
    };
    const responses = (namespaces: boolean) => {
      const payload = registry.translate(everything, 'openai-responses', {
        namespaces,
        deferLoading: unpinned,
        toolSearch: 'client',
      }).payload;
      return [tokens(payload), tokens(payload.map(visible).filter(Boolean))];
    };
    const tasks = everything.filter((tool) => tool.group === 'tasks');
    const references = tasks.map((tool) => ({ type: 'tool_reference', tool_name: tool.name }));
    const loadedAnthropic = tokens(registry.translate(tasks, 'anthropic').payload);
    // as tool_search_output carries them: each function marked defer_loading
    const loadedResponses = tokens(
      registry
        .translate(tasks, 'openai-responses')
        .payload.map((entry) => ({ ...entry, defer_loading: true })),
    );
    const row = (label: string, [sent, seen]: number[]) =>
      `| ${label} | ${number(sent!)} | ${number(seen!)} |`;
    const expected = [
      "| deferral | sent in `tools` | in the model's context |",
      '| --- | --- | --- |',
      row(
        `anthropic: journal loaded, ${unpinned.length} deferred, \`search_tools\``,
        anthropic(unpinned),
      ),
      row(
        `anthropic: turn 1's selection loaded, ${outside(first.names).length} deferred, \`search_tools\``,
        anthropic(outside(first.names)),
      ),
      row(
        `openai-responses: namespaces, journal loaded, ${unpinned.length} deferred, client search`,
        responses(true),
      ),
      row(
        `openai-responses: flat, journal loaded, ${unpinned.length} deferred, client search`,
        responses(false),
      ),
      `| a search that loads the tasks group (3 tools): anthropic / openai-responses | ${tokens(references)} / ${loadedResponses} | ${loadedAnthropic} / ${loadedResponses} |`,
    ].join('\n');
    expect(documentedTable('deferral-table')).toBe(expected);
  });
});
