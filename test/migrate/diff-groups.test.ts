import { describe, expect, it } from 'vitest';
import { diffGroups, type GroupDiff } from '../../src/migrate/diff-groups.js';
import { parseGroupVersion } from '../../src/migrate/read-group-version.js';
import { createTextAnalyzer } from '../../src/text/text-analyzer.js';

type Json = Record<string, unknown>;

/** A group with two tools, rich enough that every rule can be exercised by editing a copy. */
function baseGroup(): Json {
  return {
    group: 'calendar',
    version: '1.0.0',
    description: 'Calendar tools.',
    selection: { strategy: 'keyword', keywords: ['calendar', 'meeting'] },
    tools: [
      {
        name: 'create_event',
        title: 'Create event',
        description: 'Create a calendar event.',
        category: 'creation',
        tags: ['calendar'],
        annotations: { readOnlyHint: false, destructiveHint: false },
        examples: [{ title: 'Standup', start: '2025-01-01T09:00:00Z' }],
        input_schema: {
          type: 'object',
          properties: {
            title: { type: 'string', description: 'Event title', maxLength: 200 },
            start: { type: 'string', format: 'date-time' },
            duration: { type: 'integer', minimum: 1, maximum: 1440, default: 30 },
            visibility: { type: 'string', enum: ['public', 'private'] },
            attendees: {
              type: 'array',
              items: {
                type: 'object',
                properties: { email: { type: 'string' }, optional: { type: 'boolean' } },
                required: ['email'],
              },
            },
            location: {
              type: 'object',
              properties: { room: { type: 'string' }, building: { type: 'string' } },
              required: ['room'],
            },
            notes: { anyOf: [{ type: 'string' }, { type: 'null' }] },
          },
          required: ['title', 'start'],
        },
        output_schema: {
          type: 'object',
          properties: {
            id: { type: 'string' },
            status: { type: 'string', enum: ['confirmed', 'tentative'] },
            size: { type: 'number' },
          },
          required: ['id'],
        },
        metadata: {
          executor: 'calendar',
          requires_context: ['user_id'],
          cost_estimate: 'low',
          latency_estimate: 'fast',
        },
      },
      {
        name: 'get_agenda',
        description: 'List the events of a day.',
        category: 'retrieval',
        annotations: { readOnlyHint: true },
        input_schema: {
          type: 'object',
          properties: { date: { type: 'string', description: 'YYYY-MM-DD' } },
        },
        metadata: { executor: 'calendar', requires_context: ['user_id'] },
      },
    ],
  };
}

function parse(document: Json) {
  const version = parseGroupVersion(JSON.stringify(document), 'test');
  expect(version.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return version.group!;
}

/** Diffs the base group against an edited copy (the edit also sets the version). */
function diffWith(edit: (group: Json) => void, newVersion = '1.0.0'): GroupDiff {
  const before = baseGroup();
  const after = structuredClone(before);
  after.version = newVersion;
  edit(after);
  return diffGroups(parse(before), parse(after));
}

function tool(group: Json, index: number): Json {
  return (group.tools as Json[])[index]!;
}
function input(group: Json, index = 0): Json {
  return tool(group, index).input_schema as Json;
}
function properties(schema: Json): Record<string, Json> {
  return schema.properties as Record<string, Json>;
}

/** Expects exactly one change, of `kind` and `bump`, and returns it. */
function only(diff: GroupDiff, kind: string, bump: string) {
  expect(diff.changes.map((change) => [change.kind, change.bump])).toEqual([[kind, bump]]);
  expect(diff.required_bump).toBe(bump);
  return diff.changes[0]!;
}

describe('diffGroups: no change', () => {
  it('reports nothing and requires no bump for identical groups', () => {
    const diff = diffWith(() => {});
    expect(diff).toMatchObject({
      required_bump: 'none',
      actual_bump: 'none',
      ok: true,
      changes: [],
    });
  });

  it('ignores key order and explicit defaults', () => {
    const diff = diffWith((group) => {
      const agenda = tool(group, 1);
      agenda.metadata = {
        requires_context: ['user_id'],
        executor: 'calendar',
        cost_estimate: 'medium',
      };
    });
    expect(diff.changes).toEqual([]);
  });
});

describe('diffGroups: major changes', () => {
  it('tool removed', () => {
    const change = only(
      diffWith((group) => {
        (group.tools as Json[]).splice(1, 1);
      }),
      'tool_removed',
      'major',
    );
    expect(change).toEqual({
      kind: 'tool_removed',
      tool: 'get_agenda',
      pointer: '/tools/1',
      bump: 'major',
      message: 'tool "get_agenda" was removed',
    });
  });

  it('tool renamed (same schema and description under a new name)', () => {
    const change = only(
      diffWith((group) => {
        tool(group, 1).name = 'list_agenda';
      }),
      'tool_renamed',
      'major',
    );
    expect(change.tool).toBe('get_agenda');
    expect(change.pointer).toBe('/tools/1/name');
    expect(change.message).toContain('renamed to "list_agenda"');
  });

  it('a rename that also changes the schema is a removal plus an addition', () => {
    const diff = diffWith((group) => {
      tool(group, 1).name = 'list_agenda';
      properties(input(group, 1)).date!.type = 'integer';
    });
    expect(diff.changes.map((change) => change.kind)).toEqual(['tool_removed', 'tool_added']);
  });

  it('parameter removed', () => {
    const change = only(
      diffWith((group) => {
        delete properties(input(group)).visibility;
      }),
      'parameter_removed',
      'major',
    );
    expect(change.pointer).toBe('/tools/0/input_schema/properties/visibility');
    expect(change.message).toBe('tool "create_event": parameter "visibility" was removed');
  });

  it('required parameter added', () => {
    const change = only(
      diffWith((group) => {
        properties(input(group)).calendar_id = { type: 'string' };
        (input(group).required as string[]).push('calendar_id');
      }),
      'required_parameter_added',
      'major',
    );
    expect(change.pointer).toBe('/tools/0/input_schema/properties/calendar_id');
  });

  it('a parameter became required', () => {
    const change = only(
      diffWith((group) => {
        (input(group).required as string[]).push('duration');
      }),
      'parameter_became_required',
      'major',
    );
    expect(change.pointer).toBe('/tools/0/input_schema/required/2');
    expect(change.message).toContain('parameter "duration" became required');
  });

  it('type narrowed (number → integer, [string, null] → string)', () => {
    const before = baseGroup();
    properties(input(before)).duration!.type = 'number';
    properties(input(before)).title!.type = ['string', 'null'];
    const diff = diffGroups(parse(before), parse(baseGroup()));
    expect(diff.changes.map((change) => [change.kind, change.bump, change.message])).toEqual([
      [
        'type_narrowed',
        'major',
        'tool "create_event": parameter "title" type narrowed from ["string","null"] to "string"',
      ],
      [
        'type_narrowed',
        'major',
        'tool "create_event": parameter "duration" type narrowed from "number" to "integer"',
      ],
    ]);
  });

  it('equivalent type spellings are not a change ("string" vs ["string"])', () => {
    expect(
      diffWith((group) => {
        properties(input(group, 1)).date!.type = ['string'];
      }).changes,
    ).toEqual([]);
  });

  it('type changed (string → integer)', () => {
    const change = only(
      diffWith((group) => {
        properties(input(group, 1)).date!.type = 'integer';
      }),
      'type_changed',
      'major',
    );
    expect(change.pointer).toBe('/tools/1/input_schema/properties/date/type');
  });

  it('enum value removed', () => {
    const change = only(
      diffWith((group) => {
        properties(input(group)).visibility!.enum = ['public'];
      }),
      'enum_value_removed',
      'major',
    );
    expect(change.message).toContain('no longer accepts the enum value "private"');
    expect(change.pointer).toBe('/tools/0/input_schema/properties/visibility/enum/1');
  });

  it('requires_context grew', () => {
    const change = only(
      diffWith((group) => {
        (tool(group, 1).metadata as Json).requires_context = ['user_id', 'calendar_manager'];
      }),
      'requires_context_added',
      'major',
    );
    expect(change.pointer).toBe('/tools/1/metadata/requires_context/1');
  });

  it('strategy changed so the group is selected less (always → keyword)', () => {
    const before = baseGroup();
    before.selection = { strategy: 'always', keywords: ['calendar', 'meeting'] };
    const diff = diffGroups(parse(before), parse(baseGroup()));
    expect(diff.changes.map((change) => [change.kind, change.bump])).toEqual([
      ['strategy_changed', 'major'],
    ]);
  });

  it('strategy changed between keyword and context (not ordered: major)', () => {
    only(
      diffWith((group) => {
        group.selection = { strategy: 'context', keywords: ['calendar', 'meeting'] };
      }),
      'strategy_changed',
      'major',
    );
  });

  it('keyword removed from a keyword group', () => {
    only(
      diffWith((group) => {
        group.selection = { strategy: 'keyword', keywords: ['calendar'] };
      }),
      'keyword_removed',
      'major',
    );
  });

  it('context_check added or changed', () => {
    only(
      diffWith((group) => {
        group.selection = { ...(group.selection as Json), context_check: 'has_calendar' };
      }),
      'context_check_added',
      'major',
    );
    const before = baseGroup();
    before.selection = { ...(before.selection as Json), context_check: 'a' };
    const after = baseGroup();
    after.selection = { ...(after.selection as Json), context_check: 'b' };
    expect(diffGroups(parse(before), parse(after)).changes[0]).toMatchObject({
      kind: 'context_check_changed',
      bump: 'major',
    });
  });

  it('constraint tightened: maxLength lowered', () => {
    const change = only(
      diffWith((group) => {
        properties(input(group)).title!.maxLength = 100;
      }),
      'constraint_tightened',
      'major',
    );
    expect(change.message).toBe(
      'tool "create_event": parameter "title": maxLength lowered from 200 to 100',
    );
  });

  it('constraint tightened: minimum raised', () => {
    const change = only(
      diffWith((group) => {
        properties(input(group)).duration!.minimum = 5;
      }),
      'constraint_tightened',
      'major',
    );
    expect(change.message).toContain('minimum raised from 1 to 5');
  });

  it('constraint tightened: additionalProperties closed', () => {
    const change = only(
      diffWith((group) => {
        input(group).additionalProperties = false;
      }),
      'constraint_tightened',
      'major',
    );
    expect(change.pointer).toBe('/tools/0/input_schema/additionalProperties');
    expect(change.message).toContain('additionalProperties closed (was open)');
  });

  it('constraint tightened: pattern, format, uniqueItems, minItems, multipleOf added', () => {
    const diff = diffWith((group) => {
      const props = properties(input(group));
      props.title!.pattern = '^[A-Z]';
      (props.attendees as Json).uniqueItems = true;
      (props.attendees as Json).minItems = 1;
      props.duration!.multipleOf = 5;
      properties(input(group, 1)).date!.format = 'date';
    });
    expect(diff.changes.map((change) => [change.kind, change.bump])).toEqual(
      Array(5).fill(['constraint_tightened', 'major']),
    );
  });

  it('constraint tightened: enum or const introduced, multipleOf made stricter', () => {
    const before = baseGroup();
    properties(input(before)).duration!.multipleOf = 5;
    const after = baseGroup();
    properties(input(after)).duration!.multipleOf = 10;
    properties(input(after)).title!.enum = ['a', 'b'];
    properties(input(after, 1)).date!.const = '2025-01-01';
    expect(diffGroups(parse(before), parse(after)).changes.map((change) => change.message)).toEqual(
      [
        'tool "create_event": parameter "title" is now limited to the enum ["a","b"]',
        'tool "create_event": parameter "duration": multipleOf changed from 5 to 10',
        'tool "get_agenda": parameter "date" must now equal the const "2025-01-01"',
      ],
    );
  });

  it('constraint changed incomparably (pattern replaced, const changed, multipleOf 2 → 3)', () => {
    const before = baseGroup();
    properties(input(before)).title!.pattern = '^a';
    properties(input(before)).duration!.multipleOf = 2;
    properties(input(before, 1)).date!.const = 'x';
    const after = baseGroup();
    properties(input(after)).title!.pattern = '^b';
    properties(input(after)).duration!.multipleOf = 3;
    properties(input(after, 1)).date!.const = 'y';
    const diff = diffGroups(parse(before), parse(after));
    expect(diff.changes.map((change) => [change.kind, change.bump])).toEqual(
      Array(3).fill(['constraint_changed', 'major']),
    );
  });

  it('category changed', () => {
    only(
      diffWith((group) => {
        tool(group, 1).category = 'analysis';
      }),
      'category_changed',
      'major',
    );
  });

  it('an annotation hint became riskier (readOnlyHint true → false)', () => {
    const change = only(
      diffWith((group) => {
        tool(group, 1).annotations = { readOnlyHint: false };
      }),
      'annotation_hint_changed',
      'major',
    );
    expect(change.message).toContain('readOnlyHint changed from true to false');
  });

  it('group renamed', () => {
    const diff = diffWith((group) => {
      group.group = 'agenda';
    });
    const change = only(diff, 'group_renamed', 'major');
    expect(change.message).toBe(
      'group renamed from "calendar" to "agenda"; pins and references to the old name stop matching',
    );
    expect(diff).toMatchObject({ group: 'agenda', old_group: 'calendar' });
  });

  it('group renamed with no tool name in common: says they may be two different groups', () => {
    const diff = diffWith((group) => {
      group.group = 'billing';
      tool(group, 0).name = 'create_invoice';
      tool(group, 1).name = 'refund_charge';
      tool(group, 1).description = 'Refund a charge.';
    });
    expect(diff.changes[0]).toMatchObject({
      kind: 'group_renamed',
      message:
        'group renamed from "calendar" to "billing"; pins and references to the old name stop matching. The two versions share no tool name: if they are different groups, compare two versions of one group instead',
    });
  });

  it('nested parameters count: a nested property removed, nested required grew, items retyped', () => {
    const diff = diffWith((group) => {
      const props = properties(input(group));
      delete properties(props.location!).building;
      const item = (props.attendees as Json).items as Json;
      (item.required as string[]).push('optional');
      properties(item).email!.type = 'integer';
    });
    expect(diff.changes.map((change) => [change.kind, change.pointer])).toEqual([
      ['type_changed', '/tools/0/input_schema/properties/attendees/items/properties/email/type'],
      ['parameter_became_required', '/tools/0/input_schema/properties/attendees/items/required/1'],
      ['parameter_removed', '/tools/0/input_schema/properties/location/properties/building'],
    ]);
    expect(diff.changes.map((change) => change.message)).toEqual([
      'tool "create_event": parameter "attendees[].email" type changed from "string" to "integer"',
      'tool "create_event": parameter "attendees[].optional" became required',
      'tool "create_event": parameter "location.building" was removed',
    ]);
    expect(diff.required_bump).toBe('major');
  });

  it('anyOf variant removed', () => {
    const change = only(
      diffWith((group) => {
        properties(input(group)).notes = { anyOf: [{ type: 'string' }] };
      }),
      'variant_removed',
      'major',
    );
    expect(change.pointer).toBe('/tools/0/input_schema/properties/notes/anyOf/1');
  });

  it('a keyword toolcap cannot classify (not, if, $ref target) counts as major', () => {
    const change = only(
      diffWith((group) => {
        properties(input(group)).title!.not = { const: '' };
      }),
      'schema_changed',
      'major',
    );
    expect(change.message).toContain('"not" changed');
  });

  it('output_schema removed, output field removed, output type widened, output enum grew', () => {
    const removed = diffWith((group) => {
      delete tool(group, 0).output_schema;
    });
    expect(removed.changes.map((change) => [change.kind, change.bump])).toEqual([
      ['output_schema_removed', 'major'],
    ]);
    const changed = diffWith((group) => {
      const output = tool(group, 0).output_schema as Json;
      delete properties(output).size;
      properties(output).id!.type = ['string', 'integer'];
      (properties(output).status!.enum as string[]).push('cancelled');
    });
    expect(changed.changes.map((change) => [change.kind, change.bump])).toEqual([
      ['output_field_removed', 'major'],
      ['output_type_widened', 'major'],
      ['output_enum_value_added', 'major'],
    ]);
  });
});

describe('diffGroups: minor changes', () => {
  it('tool added', () => {
    const change = only(
      diffWith((group) => {
        (group.tools as Json[]).push({
          ...tool(group, 1),
          name: 'delete_event',
          description: 'x',
          category: 'mutation',
        });
      }),
      'tool_added',
      'minor',
    );
    expect(change.pointer).toBe('/tools/2');
  });

  it('optional parameter added', () => {
    const change = only(
      diffWith((group) => {
        properties(input(group, 1)).timezone = { type: 'string' };
      }),
      'parameter_added',
      'minor',
    );
    expect(change.message).toBe('tool "get_agenda": optional parameter "timezone" was added');
  });

  it('enum value added', () => {
    only(
      diffWith((group) => {
        properties(input(group)).visibility!.enum = ['public', 'private', 'internal'];
      }),
      'enum_value_added',
      'minor',
    );
  });

  it('keywords added to a keyword group', () => {
    const change = only(
      diffWith((group) => {
        group.selection = { strategy: 'keyword', keywords: ['calendar', 'meeting', 'agenda'] };
      }),
      'keyword_added',
      'minor',
    );
    expect(change.pointer).toBe('/selection/keywords/2');
  });

  it('keywords compare case-insensitively', () => {
    expect(
      diffWith((group) => {
        group.selection = { strategy: 'keyword', keywords: ['Calendar', ' MEETING'] };
      }).changes,
    ).toEqual([]);
  });

  it('keywords compare as keyword matching analyzes them (stems, accents, phrases)', () => {
    const keywords = (before: string[], after: string[]) => {
      const old = baseGroup();
      old.selection = { strategy: 'keyword', keywords: before };
      const edited = structuredClone(old);
      edited.selection = { strategy: 'keyword', keywords: after };
      return diffGroups(parse(old), parse(edited));
    };
    // the same messages match: no change, so the same version passes
    const respelled = keywords(
      ['invoice', 'refund', 'billing', 'charge', 'café', 'pull request'],
      ['invoices', 'Refund', 'billing', 'charges', 'CAFE', 'Pull Requests'],
    );
    expect(respelled.changes).toEqual([]);
    expect(respelled).toMatchObject({ required_bump: 'none', ok: true });
    // "invoice" and "invoices" are one keyword for matching: dropping one of them is no change
    expect(keywords(['invoice', 'invoices', 'refund'], ['invoice', 'refund']).changes).toEqual([]);
    // a keyword whose analyzed form disappears is still a removal, named as written
    const removed = keywords(['invoice', 'refund'], ['invoices', 'reimbursement']);
    expect(removed.changes.map((change) => [change.kind, change.pointer, change.message])).toEqual([
      [
        'keyword_removed',
        '/selection/keywords/1',
        'keyword "refund" removed: messages that only matched it no longer select the group',
      ],
      [
        'keyword_added',
        '/selection/keywords/1',
        'keyword "reimbursement" added: the group is selected by more messages',
      ],
    ]);
    // "pull request" also matches "pullrequest": the one-word keyword alone loses the phrase
    expect(
      keywords(['pull request'], ['pullrequest']).changes.map((change) => change.kind),
    ).toEqual(['keyword_removed']);
    expect(
      keywords(['pullrequest'], ['pull request']).changes.map((change) => change.kind),
    ).toEqual(['keyword_added']);
  });

  it('compares keywords with the analyzer keyword matching is given', () => {
    const old = baseGroup();
    old.selection = { strategy: 'keyword', keywords: ['invoice'] };
    const edited = structuredClone(old);
    edited.selection = { strategy: 'keyword', keywords: ['invoices'] };
    const exact = createTextAnalyzer({ stemmer: 'none' });
    expect(
      diffGroups(parse(old), parse(edited), { analyzer: exact }).changes.map(
        (change) => change.kind,
      ),
    ).toEqual(['keyword_removed', 'keyword_added']);
  });

  it('constraint relaxed: maxLength raised, minimum removed, enum dropped', () => {
    const diff = diffWith((group) => {
      properties(input(group)).title!.maxLength = 500;
      delete properties(input(group)).duration!.minimum;
      delete properties(input(group)).visibility!.enum;
    });
    expect(diff.changes.map((change) => [change.kind, change.bump])).toEqual(
      Array(3).fill(['constraint_relaxed', 'minor']),
    );
    expect(diff.required_bump).toBe('minor');
  });

  it('constraint relaxed: additionalProperties opened', () => {
    const before = baseGroup();
    input(before).additionalProperties = false;
    const change = diffGroups(parse(before), parse(baseGroup())).changes[0]!;
    expect(change).toMatchObject({ kind: 'constraint_relaxed', bump: 'minor' });
    expect(change.message).toContain('additionalProperties opened');
  });

  it('parameter became optional', () => {
    only(
      diffWith((group) => {
        input(group).required = ['title'];
      }),
      'parameter_became_optional',
      'minor',
    );
  });

  it('type widened (integer → number)', () => {
    only(
      diffWith((group) => {
        properties(input(group)).duration!.type = 'number';
      }),
      'type_widened',
      'minor',
    );
  });

  it('strategy changed so the group is selected more (keyword → always)', () => {
    only(
      diffWith((group) => {
        group.selection = { strategy: 'always', keywords: ['calendar', 'meeting'] };
      }),
      'strategy_changed',
      'minor',
    );
  });

  it('requires_context shrank', () => {
    only(
      diffWith((group) => {
        (tool(group, 1).metadata as Json).requires_context = [];
      }),
      'requires_context_removed',
      'minor',
    );
  });

  it('context_check removed', () => {
    const before = baseGroup();
    before.selection = { ...(before.selection as Json), context_check: 'a' };
    expect(diffGroups(parse(before), parse(baseGroup())).changes[0]).toMatchObject({
      kind: 'context_check_removed',
      bump: 'minor',
    });
  });

  it('output_schema added; output field added; output narrowed', () => {
    const before = baseGroup();
    delete tool(before, 0).output_schema;
    expect(diffGroups(parse(before), parse(baseGroup())).changes[0]).toMatchObject({
      kind: 'output_schema_added',
      bump: 'minor',
    });
    const diff = diffWith((group) => {
      const output = tool(group, 0).output_schema as Json;
      properties(output).url = { type: 'string' };
      (output.required as string[]).push('status');
      properties(output).status!.enum = ['confirmed'];
    });
    expect(diff.changes.map((change) => [change.kind, change.bump])).toEqual([
      ['output_enum_value_removed', 'minor'],
      ['output_field_added', 'minor'],
      ['output_field_became_required', 'minor'],
    ]);
  });

  it('executor changed', () => {
    only(
      diffWith((group) => {
        (tool(group, 1).metadata as Json).executor = 'agenda';
      }),
      'executor_changed',
      'minor',
    );
  });

  it('anyOf variant added', () => {
    only(
      diffWith((group) => {
        properties(input(group)).notes = {
          anyOf: [
            { type: 'null' },
            { type: 'string' },
            { type: 'array', items: { type: 'string' } },
          ],
        };
      }),
      'variant_added',
      'minor',
    );
  });
});

describe('diffGroups: patch changes', () => {
  it('descriptions, titles, examples, estimates, tags, defaults', () => {
    const diff = diffWith((group) => {
      group.description = 'All calendar tools.';
      const first = tool(group, 0);
      first.description = 'Create an event in the calendar.';
      first.title = 'New event';
      first.examples = [];
      first.tags = ['calendar', 'events'];
      (first.metadata as Json).latency_estimate = 'medium';
      properties(input(group)).title!.description = 'The title';
      properties(input(group)).duration!.default = 60;
      properties(input(group)).title!['x-ui'] = 'textarea';
    });
    expect(diff.changes.map((change) => change.kind)).toEqual([
      'group_description_changed',
      'title_changed',
      'description_changed',
      'tags_changed',
      'examples_changed',
      'schema_description_changed',
      'schema_annotation_changed',
      'schema_default_changed',
      'estimate_changed',
    ]);
    expect(new Set(diff.changes.map((change) => change.bump))).toEqual(new Set(['patch']));
    expect(diff.required_bump).toBe('patch');
  });

  it('keyword changes of a non-keyword group', () => {
    const before = baseGroup();
    before.selection = { strategy: 'always', keywords: ['calendar'] };
    const after = baseGroup();
    after.selection = { strategy: 'always', keywords: ['agenda'] };
    expect(
      diffGroups(parse(before), parse(after)).changes.map((change) => [change.kind, change.bump]),
    ).toEqual([
      ['keyword_removed', 'patch'],
      ['keyword_added', 'patch'],
    ]);
  });

  it('tools reordered', () => {
    only(
      diffWith((group) => {
        (group.tools as Json[]).reverse();
      }),
      'tools_reordered',
      'patch',
    );
  });

  it('an annotation hint became safer, or its title changed', () => {
    const diff = diffWith((group) => {
      tool(group, 0).annotations = {
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        title: 'New',
      };
    });
    expect(diff.changes.map((change) => [change.kind, change.bump])).toEqual([
      ['title_changed', 'patch'],
      ['annotation_hint_changed', 'patch'],
    ]);
  });

  it('a $defs entry nothing uses is no change (schemas are compared resolved)', () => {
    const diff = diffWith((group) => {
      input(group, 1).$defs = { day: { type: 'string' } };
    });
    expect(diff.changes).toEqual([]);
  });
});

describe('diffGroups: $ref and $defs', () => {
  it('moving a schema into $defs behind a $ref is no change', () => {
    const diff = diffWith((group) => {
      const schema = input(group);
      schema.$defs = { Visibility: { type: 'string', enum: ['public', 'private'] } };
      properties(schema).visibility = { $ref: '#/$defs/Visibility' };
      // a $ref with a sibling keyword, and a draft-07 style definitions entry
      const output = tool(group, 0).output_schema as Json;
      output.definitions = { Status: { type: 'string', enum: ['confirmed', 'tentative'] } };
      properties(output).status = { $ref: '#/definitions/Status' };
    });
    expect(diff.changes).toEqual([]);
    expect(diff).toMatchObject({ required_bump: 'none', ok: true });
  });

  it('reports a change inside $defs at each parameter that uses it, pointing at the $ref', () => {
    const before = baseGroup();
    const shared = (values: string[]) => {
      const schema = input(before);
      schema.$defs = { Visibility: { type: 'string', enum: values } };
      properties(schema).visibility = { $ref: '#/$defs/Visibility' };
      properties(schema).default_visibility = {
        $ref: '#/$defs/Visibility',
        description: 'For new events.',
      };
    };
    shared(['public', 'private']);
    const after = structuredClone(before);
    const afterSchema = input(after);
    (afterSchema.$defs as Record<string, Json>).Visibility!.enum = ['public'];
    const diff = diffGroups(parse(before), parse(after));
    expect(diff.changes.map((change) => [change.kind, change.pointer, change.message])).toEqual([
      [
        'enum_value_removed',
        '/tools/0/input_schema/properties/visibility',
        'tool "create_event": parameter "visibility" no longer accepts the enum value "private"',
      ],
      [
        'enum_value_removed',
        '/tools/0/input_schema/properties/default_visibility',
        'tool "create_event": parameter "default_visibility" no longer accepts the enum value "private"',
      ],
    ]);
  });

  it('a $ref to a different but equal definition is no change; to a different schema is', () => {
    const before = baseGroup();
    const schema = input(before);
    schema.$defs = {
      Public: { type: 'string', enum: ['public'] },
      Open: { type: 'string', enum: ['public'] },
      Any: { type: 'string' },
    };
    properties(schema).visibility = { $ref: '#/$defs/Public' };
    const retarget = (target: string) => {
      const after = structuredClone(before);
      properties(input(after)).visibility = { $ref: `#/$defs/${target}` };
      return diffGroups(parse(before), parse(after));
    };
    expect(retarget('Open').changes).toEqual([]);
    expect(
      retarget('Any').changes.map((change) => [change.kind, change.bump, change.pointer]),
    ).toEqual([['constraint_relaxed', 'minor', '/tools/0/input_schema/properties/visibility']]);
  });

  it('compares a recursive schema as written: a $defs entry once, under $defs', () => {
    const before = baseGroup();
    const schema = input(before);
    schema.$defs = {
      node: {
        type: 'object',
        properties: {
          label: { type: 'string' },
          children: { type: 'array', items: { $ref: '#/$defs/node' } },
        },
      },
    };
    properties(schema).tree = { $ref: '#/$defs/node' };
    const after = structuredClone(before);
    const node = (input(after).$defs as Record<string, Json>).node!;
    properties(node).label!.maxLength = 20;
    const diff = diffGroups(parse(before), parse(after));
    expect(diff.changes.map((change) => [change.kind, change.pointer, change.message])).toEqual([
      [
        'constraint_tightened',
        '/tools/0/input_schema/$defs/node/properties/label/maxLength',
        'tool "create_event": parameter "$defs.node.label": maxLength 20 added',
      ],
    ]);
  });
});

describe('diffGroups: ordering and version checks', () => {
  it('lists the most severe changes first', () => {
    const diff = diffWith((group) => {
      tool(group, 1).description = 'Agenda.';
      (group.tools as Json[]).push({
        ...tool(group, 1),
        name: 'extra_tool',
        description: 'x',
        category: 'analysis',
      });
      delete properties(input(group)).visibility;
    }, '2.0.0');
    expect(diff.changes.map((change) => change.bump)).toEqual(['major', 'minor', 'patch']);
    expect(diff).toMatchObject({ required_bump: 'major', actual_bump: 'major', ok: true });
  });

  it('fails when the bump is smaller than required', () => {
    const diff = diffWith((group) => {
      delete properties(input(group)).visibility;
    }, '1.1.0');
    expect(diff).toMatchObject({ required_bump: 'major', actual_bump: 'minor', ok: false });
  });

  it('fails when the version went down, even without changes', () => {
    const before = baseGroup();
    before.version = '1.2.0';
    const diff = diffGroups(parse(before), parse(baseGroup()));
    expect(diff).toMatchObject({ required_bump: 'none', actual_bump: 'downgrade', ok: false });
  });
});

describe('diffGroups: example requests', () => {
  it('adding example requests is a patch change that counts what was added', () => {
    const change = only(
      diffWith((group) => {
        tool(group, 0).example_requests = ['book a meeting with Sam on Friday', 'set up a call'];
      }),
      'example_requests_changed',
      'patch',
    );
    expect(change.pointer).toBe('/tools/0/example_requests');
    expect(change.tool).toBe('create_event');
    expect(change.message).toBe(
      'tool "create_event": example_requests changed (2 added, 0 removed)',
    );
  });

  it('removing or reordering them is a patch change too', () => {
    const before = baseGroup();
    tool(before, 1).example_requests = ["what's on today", 'show my week', 'agenda please'];
    const removed = structuredClone(before);
    delete tool(removed, 1).example_requests;
    const removal = diffGroups(parse(before), parse(removed));
    expect(removal.changes.map((change) => [change.kind, change.bump, change.pointer])).toEqual([
      ['example_requests_changed', 'patch', '/tools/1'],
    ]);
    expect(removal.changes[0]!.message).toMatch(/\(0 added, 3 removed\)/);

    const reordered = structuredClone(before);
    tool(reordered, 1).example_requests = ['agenda please', "what's on today", 'show my week'];
    const reorder = diffGroups(parse(before), parse(reordered));
    expect(reorder.changes.map((change) => change.message)).toEqual([
      'tool "get_agenda": example_requests changed (0 added, 0 removed, reordered)',
    ]);
    expect(reorder.required_bump).toBe('patch');
  });

  it('identical example requests are no change', () => {
    const before = baseGroup();
    tool(before, 0).example_requests = ['book a meeting'];
    expect(diffGroups(parse(before), parse(structuredClone(before))).changes).toEqual([]);
  });
});
