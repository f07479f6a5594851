import { describe, expect, it } from 'vitest';
import { DEFAULT_LOAD_LIMITS } from '../../src/format/limits.js';
import { validateGroupDocument } from '../../src/load/validate-group-file.js';
import { makeGroup, makeTool } from '../helpers/temp-files.js';

/** The problems of a group holding one tool `search_docs` with `overrides`. */
function problemsOf(overrides: Record<string, unknown>, group: Record<string, unknown> = {}) {
  const document = makeGroup('docs', {
    tools: [makeTool({ name: 'search_docs', ...overrides })],
    ...group,
  });
  return validateGroupDocument(document, { limits: DEFAULT_LOAD_LIMITS, checkExamples: true })
    .problems;
}

describe('validateGroupDocument messages name the tool and the fix', () => {
  it('DESCRIPTION_TOO_LONG names the tool or the group', () => {
    const long = 'x'.repeat(10_001);
    const fix =
      'description is 10001 characters, longer than 10000 (limits.maxDescriptionLength); shorten it to what the model needs to choose it (details of the arguments go in their own descriptions), or raise limits.maxDescriptionLength';
    expect(problemsOf({ description: long })).toEqual([
      {
        severity: 'error',
        code: 'DESCRIPTION_TOO_LONG',
        pointer: '/tools/0/description',
        message: `tool "search_docs": ${fix}`,
      },
    ]);
    expect(problemsOf({}, { description: long })).toEqual([
      {
        severity: 'error',
        code: 'DESCRIPTION_TOO_LONG',
        pointer: '/description',
        message: `group "docs": ${fix}`,
      },
    ]);
  });

  it('requires_context problems say what was found and how to write it', () => {
    const messages = (requires: unknown) =>
      problemsOf({ metadata: { executor: 'docs', requires_context: requires } }).map(
        (problem) => `${problem.pointer} ${problem.message}`,
      );
    expect(messages('user_id')).toEqual([
      '/tools/0/metadata/requires_context tool "search_docs": requires_context is a string ("user_id"); write a list of context keys: ["user_id"]',
    ]);
    expect(messages({ user: true })).toEqual([
      '/tools/0/metadata/requires_context tool "search_docs": requires_context is an object; write a list of the context keys the tool needs, such as ["user_id"], or [] for none',
    ]);
    expect(messages(['user_id', ''])).toEqual([
      '/tools/0/metadata/requires_context/1 tool "search_docs": requires_context/1 is empty; each entry is a context key name such as "user_id"',
    ]);
    expect(messages(['user_id', 'user_id'])).toEqual([
      '/tools/0/metadata/requires_context tool "search_docs": requires_context lists "user_id" twice; remove the repeat',
    ]);
  });

  it('INVALID_EXAMPLE names the tool', () => {
    expect(problemsOf({ examples: [{ query: 3 }] })).toEqual([
      {
        severity: 'error',
        code: 'INVALID_EXAMPLE',
        pointer: '/tools/0/examples/0/query',
        message:
          'tool "search_docs": example 0 does not match input_schema: /query must be string; fix the example or the schema',
      },
    ]);
  });

  it.each([
    [
      { tags: ['docs', 3] },
      '/tools/0/tags/1',
      'tool "search_docs": tags/1 is a number (3), not a string; write the tag as a string such as "calendar" or remove it',
    ],
    [
      { tags: 'docs' },
      '/tools/0/tags',
      'tool "search_docs": tags must be an array of strings, short labels such as ["calendar", "scheduling"]; write them so or remove "tags"',
    ],
    [
      { title: 3 },
      '/tools/0/title',
      'tool "search_docs": title is a number (3); write a display name as a string such as "Create event", or remove "title"',
    ],
    [
      { annotations: [] },
      '/tools/0/annotations',
      'tool "search_docs": annotations must be an object of MCP hints such as {"readOnlyHint": true}; write it so or remove "annotations"',
    ],
    [
      { annotations: { readOnlyHint: 'yes' } },
      '/tools/0/annotations/readOnlyHint',
      'tool "search_docs": annotations/readOnlyHint is a string ("yes"); write the hint as true or false',
    ],
    [
      { examples: {} },
      '/tools/0/examples',
      'tool "search_docs": examples must be an array of example inputs, each an object of arguments such as [{"query": "weather in Paris"}]; write them so or remove "examples"',
    ],
    [
      { examples: ['weather in Paris'] },
      '/tools/0/examples/0',
      'tool "search_docs": examples/0 is a string ("weather in Paris"); write the example input as an object of arguments such as {"query": "weather in Paris"}',
    ],
  ])('INVALID_FIELD for %j names the tool and the fix', (overrides, pointer, message) => {
    expect(problemsOf(overrides)).toEqual([
      { severity: 'error', code: 'INVALID_FIELD', pointer, message },
    ]);
  });

  it('suggests a tool name with diacritics folded, as tags fold them', () => {
    const [problem] = problemsOf({ name: 'café' });
    expect(problem).toMatchObject({ code: 'INVALID_TOOL_NAME', pointer: '/tools/0/name' });
    expect(problem?.message).toBe(
      'tool name "café" is invalid: use letters, digits and underscores, starting with a letter or underscore, at most 64 characters (e.g. "cafe")',
    );
    expect(problemsOf({ name: 'crème brûlée' })[0]?.message).toMatch(/\(e\.g\. "creme_brulee"\)$/);
  });
});

describe('GROUP_NAME_MISMATCH offers only valid fixes', () => {
  const mismatch = (group: string, fileName: string) =>
    validateGroupDocument(makeGroup(group), { limits: DEFAULT_LOAD_LIMITS, fileName })
      .problems.filter((problem) => problem.code === 'GROUP_NAME_MISMATCH')
      .map((problem) => problem.message);

  it('offers both fixes when both names are valid group names', () => {
    expect(mismatch('billing', 'payments_tools.json')).toEqual([
      'group "billing" does not match the file name "payments_tools.json"; rename the file to "billing_tools.json" or set "group": "payments"',
    ]);
  });

  it('never suggests a group name that breaks the snake_case rule', () => {
    expect(mismatch('billing', 'Billing_tools.json')).toEqual([
      'group "billing" does not match the file name "Billing_tools.json"; rename the file to "billing_tools.json" (the file-name prefix "Billing" is not a snake_case group name)',
    ]);
    expect(mismatch('Billing', 'billing_tools.json')).toEqual([
      'group "Billing" does not match the file name "billing_tools.json"; set "group": "billing"',
    ]);
    expect(mismatch('Billing-Ops', 'Billing_tools.json')).toEqual([
      'group "Billing-Ops" does not match the file name "Billing_tools.json"; rename the file to "billing_ops_tools.json" and set "group": "billing_ops"',
    ]);
    expect(mismatch('---', 'Billing_tools.json')).toEqual([
      'group "---" does not match the file name "Billing_tools.json"; use one snake_case name (such as "billing") for both "group" and the file name <group>_tools.json',
    ]);
  });
});

describe('selection settings without effect are warnings', () => {
  const warningsOf = (selection: Record<string, unknown>, tools = [makeTool()]) =>
    validateGroupDocument(makeGroup('support', { selection, tools }), {
      limits: DEFAULT_LOAD_LIMITS,
    }).problems.map(({ severity, code, pointer, message }) => ({
      severity,
      code,
      pointer,
      message,
    }));

  it('context_check on an always or a keyword group', () => {
    expect(warningsOf({ strategy: 'always', context_check: 'has_ticket' })).toEqual([
      {
        severity: 'warning',
        code: 'SELECTION_FIELD_IGNORED',
        pointer: '/selection/context_check',
        message:
          'context_check "has_ticket" is ignored for an "always" group, which is offered on every turn: use strategy "context" for the check to decide, or remove context_check',
      },
    ]);
    expect(
      warningsOf({ strategy: 'keyword', keywords: ['ticket'], context_check: 'has_ticket' }),
    ).toEqual([
      {
        severity: 'warning',
        code: 'SELECTION_FIELD_IGNORED',
        pointer: '/selection/context_check',
        message:
          'context_check "has_ticket" is ignored for a "keyword" group, which its keywords select: use strategy "context" for the check to decide, or remove context_check',
      },
    ]);
  });

  it('keywords on an always or a context group are not reported: search ranks by them', () => {
    expect(warningsOf({ strategy: 'always', keywords: ['refund'] })).toEqual([]);
    expect(
      warningsOf({ strategy: 'context', context_check: 'has_ticket', keywords: ['refund'] }),
    ).toEqual([]);
  });

  it('an unregistered context_check of a group that never asks it is only reported as ignored', () => {
    const problems = (strategy: string) =>
      validateGroupDocument(
        makeGroup('support', {
          selection: { strategy, keywords: ['ticket'], context_check: 'is_admin' },
        }),
        { limits: DEFAULT_LOAD_LIMITS, contextChecks: new Set() },
      ).problems.map((problem) => problem.code);
    expect(problems('keyword')).toEqual(['SELECTION_FIELD_IGNORED']);
    expect(problems('context')).toEqual(['UNKNOWN_CONTEXT_CHECK']);
  });

  it('a context group that nothing conditions is offered on every turn', () => {
    const unconditional = {
      severity: 'warning',
      code: 'CONTEXT_GROUP_UNCONDITIONAL',
      pointer: '/selection',
      message:
        'a "context" group with no context_check and no tool with requires_context is offered on every turn: add a context_check (a predicate registered with contextChecks), add metadata.requires_context keys to its tools, or use strategy "always"',
    };
    expect(warningsOf({ strategy: 'context' })).toEqual([unconditional]);
    // one tool with keys, or a context_check, conditions the group
    const keyed = makeTool({
      name: 'close_ticket',
      metadata: { executor: 'support', requires_context: ['ticket_id'] },
    });
    expect(warningsOf({ strategy: 'context' }, [makeTool(), keyed])).toEqual([]);
    expect(warningsOf({ strategy: 'context', context_check: 'has_ticket' })).toEqual([]);
  });

  it('a keyword with no word in it can never match', () => {
    expect(warningsOf({ strategy: 'keyword', keywords: ['refund', '!!!', 'c++', '--'] })).toEqual(
      [1, 3].map((index) => ({
        severity: 'warning',
        code: 'KEYWORD_NEVER_MATCHES',
        pointer: `/selection/keywords/${index}`,
        message: `keyword ${index === 1 ? '"!!!"' : '"--"'} can never match: keyword matching finds no word in it (a word needs a letter or digit); write a word or phrase such as "invoice", or remove it`,
      })),
    );
  });

  it('a keyword made only of common English words matches nearly every message', () => {
    const keywords = ['the', 'refund', 'can you', 'remind me', 'Please!'];
    expect(warningsOf({ strategy: 'keyword', keywords })).toEqual(
      [0, 2, 4].map((index) => ({
        severity: 'warning',
        code: 'KEYWORD_TOO_COMMON',
        pointer: `/selection/keywords/${index}`,
        message: `keyword ${JSON.stringify(keywords[index])} is made only of common English words found in almost every message, so the group would be offered on nearly every turn; use words specific to the group's tools (such as "invoice" or "refund"), or the always strategy if that is the intent`,
      })),
    );
    // search ranks by the keywords of always groups, where common words do no harm
    expect(warningsOf({ strategy: 'always', keywords })).toEqual([]);
  });

  it('a keyword whose stem is a common word matches nearly every message', () => {
    // keyword matching compares stems: "ups" is "up" (set up, sign up), "helping" is "help"
    const keywords = ['ups', 'ups tracking', 'ups shipment', 'helping', 'interest', 'ups up'];
    expect(warningsOf({ strategy: 'keyword', keywords })).toEqual([
      {
        severity: 'warning',
        code: 'KEYWORD_TOO_COMMON',
        pointer: '/selection/keywords/0',
        message:
          'keyword "ups" is matched as "up" (keyword matching compares word stems), the same as the common English word "up" found in almost every message, so the group would be offered on nearly every turn; use a multi-word keyword that pairs it with a word of the group\'s domain, written as "ups WORD" with WORD a word of the group\'s domain (a multi-word keyword matches only as a whole phrase, so "ups tracking" does not fire on "set up"), or words specific to the group\'s tools',
      },
      {
        severity: 'warning',
        code: 'KEYWORD_TOO_COMMON',
        pointer: '/selection/keywords/3',
        message:
          'keyword "helping" is matched as "help" (keyword matching compares word stems), the same as the common English word "help" found in almost every message, so the group would be offered on nearly every turn; use a multi-word keyword that pairs it with a word of the group\'s domain, written as "helping WORD" with WORD a word of the group\'s domain (a multi-word keyword matches only as a whole phrase, so "ups tracking" does not fire on "set up"), or words specific to the group\'s tools',
      },
      {
        severity: 'warning',
        code: 'KEYWORD_TOO_COMMON',
        pointer: '/selection/keywords/4',
        message:
          'keyword "interest" is matched as "interest" (keyword matching compares word stems), the same as the common English word "interested" found in almost every message, so the group would be offered on nearly every turn; use a multi-word keyword that pairs it with a word of the group\'s domain, written as "interest WORD" with WORD a word of the group\'s domain (a multi-word keyword matches only as a whole phrase, so "ups tracking" does not fire on "set up"), or words specific to the group\'s tools',
      },
      {
        severity: 'warning',
        code: 'KEYWORD_TOO_COMMON',
        pointer: '/selection/keywords/5',
        message:
          'keyword "ups up" is matched as "up up" (keyword matching compares word stems), the same as the common English word "up" found in almost every message, so the group would be offered on nearly every turn; use a multi-word keyword that pairs it with a word of the group\'s domain, written as "ups up WORD" with WORD a word of the group\'s domain (a multi-word keyword matches only as a whole phrase, so "ups tracking" does not fire on "set up"), or words specific to the group\'s tools',
      },
    ]);
  });
});
