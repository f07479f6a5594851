import { copyFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { createTempDir } from '../helpers/temp-files.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/groups');

interface Expected {
  code: string;
  pointer: string;
  message: RegExp;
  severity?: 'error' | 'warning';
  line?: number;
  column?: number;
}

interface Case {
  /** Tools that survive loading. */
  tools: number;
  /** Whether the group itself is loaded. */
  group: boolean;
  diagnostics: Expected[];
}

/** Every file in invalid/ must be listed here, with every diagnostic it produces. */
const INVALID: Record<string, Case> = {
  'empty_tools.json': {
    tools: 0,
    group: false,
    diagnostics: [
      { code: 'EMPTY_FILE', pointer: '', line: 1, column: 1, message: /the file is empty/ },
    ],
  },
  'syntax_tools.json': {
    tools: 0,
    group: false,
    diagnostics: [
      {
        code: 'JSON_SYNTAX',
        pointer: '',
        line: 5,
        column: 3,
        message: /invalid JSON: expected "," between values/,
      },
    ],
  },
  'trailing_comma_tools.json': {
    tools: 0,
    group: false,
    diagnostics: [
      {
        code: 'JSON_SYNTAX',
        pointer: '',
        line: 4,
        column: 1,
        message: /trailing comma before the closing bracket/,
      },
    ],
  },
  'array_root_tools.json': {
    tools: 0,
    group: false,
    diagnostics: [
      {
        code: 'ROOT_NOT_OBJECT',
        pointer: '',
        message: /must contain one JSON object .* not an array/,
      },
    ],
  },
  'missing_fields_tools.json': {
    tools: 0,
    group: false,
    diagnostics: [
      {
        code: 'MISSING_FIELD',
        pointer: '/version',
        message: /missing required field "version": add "version": "1.0.0"/,
      },
      {
        code: 'MISSING_FIELD',
        pointer: '/selection',
        message: /missing required field "selection": add "selection": \{"strategy": "always"\}/,
      },
    ],
  },
  'bad_version_tools.json': {
    tools: 0,
    group: false,
    diagnostics: [
      {
        code: 'INVALID_VERSION',
        pointer: '/version',
        line: 3,
        column: 3,
        message: /version "v1\.2" is not a strict semantic version; use MAJOR\.MINOR\.PATCH/,
      },
    ],
  },
  'unknown_strategy_tools.json': {
    tools: 0,
    group: false,
    diagnostics: [
      {
        code: 'UNKNOWN_STRATEGY',
        pointer: '/selection/strategy',
        message: /unknown selection strategy "sometimes"; use "always", "keyword" or "context"/,
      },
    ],
  },
  'no_keywords_tools.json': {
    tools: 0,
    group: false,
    diagnostics: [
      {
        code: 'KEYWORDS_REQUIRED',
        pointer: '/selection',
        message: /a "keyword" group needs "keywords"/,
      },
    ],
  },
  'empty_keywords_tools.json': {
    tools: 0,
    group: false,
    diagnostics: [
      {
        code: 'KEYWORDS_REQUIRED',
        pointer: '/selection/keywords',
        message: /needs at least one keyword/,
      },
    ],
  },
  'name_mismatch_tools.json': {
    tools: 0,
    group: false,
    diagnostics: [
      {
        code: 'GROUP_NAME_MISMATCH',
        pointer: '/group',
        line: 2,
        column: 3,
        message:
          /group "calendar" does not match the file name "name_mismatch_tools\.json"; rename the file to "calendar_tools\.json" or set "group": "name_mismatch"/,
      },
    ],
  },
  'Bad-Group_tools.json': {
    tools: 0,
    group: false,
    diagnostics: [
      {
        code: 'INVALID_GROUP_NAME',
        pointer: '/group',
        message: /"Bad-Group" is not a snake_case name/,
      },
    ],
  },
  'bad_tool_name_tools.json': {
    tools: 1,
    group: true,
    diagnostics: [
      {
        code: 'INVALID_TOOL_NAME',
        pointer: '/tools/0/name',
        line: 10,
        column: 7,
        message:
          /tool name "file-read\.v2" is invalid: use letters, digits and underscores.*\(e\.g\. "file_read_v2"\)/,
      },
    ],
  },
  'bad_enums_tools.json': {
    tools: 0,
    group: true,
    diagnostics: [
      {
        code: 'INVALID_CATEGORY',
        pointer: '/tools/0/category',
        message: /category "fetch" is not one of creation, retrieval, mutation, analysis/,
      },
      {
        code: 'INVALID_COST',
        pointer: '/tools/0/metadata/cost_estimate',
        message: /cost_estimate "cheap" is not one of low, medium, high/,
      },
      {
        code: 'INVALID_LATENCY',
        pointer: '/tools/0/metadata/latency_estimate',
        message: /latency_estimate "instant" is not one of fast, medium, slow/,
      },
    ],
  },
  'executor_path_tools.json': {
    tools: 0,
    group: true,
    diagnostics: [
      {
        code: 'INVALID_EXECUTOR',
        pointer: '/tools/0/metadata/executor',
        message:
          /executor "\.\.\/\.\.\/etc\/passwd" is not a plain identifier.*Paths are never accepted/,
      },
    ],
  },
  'required_undefined_tools.json': {
    tools: 0,
    group: true,
    diagnostics: [
      {
        code: 'REQUIRED_NOT_DEFINED',
        pointer: '/tools/0/input_schema/required/1',
        message:
          /required lists "b", which is not defined in properties \(defined: a\); add it to properties or remove it from required/,
      },
    ],
  },
  'dict_type_tools.json': {
    tools: 0,
    group: true,
    diagnostics: [
      {
        code: 'INVALID_PROPERTY_TYPE',
        pointer: '/tools/0/input_schema/properties/options/type',
        message: /has type "dict", which is not a JSON Schema type; use "object"/,
      },
      {
        code: 'INVALID_PROPERTY_TYPE',
        pointer: '/tools/0/input_schema/properties/ratio/type',
        message: /has type "float", which is not a JSON Schema type; use "number"/,
      },
    ],
  },
  'root_schema_tools.json': {
    tools: 0,
    group: true,
    diagnostics: [
      {
        code: 'ROOT_SCHEMA_NOT_OBJECT',
        pointer: '/tools/0/input_schema',
        message:
          /input_schema must be an object schema .*\{"type": "object", "properties": \{\}\} for no arguments/,
      },
    ],
  },
  'no_properties_tools.json': {
    tools: 0,
    group: true,
    diagnostics: [
      {
        code: 'ROOT_SCHEMA_NOT_OBJECT',
        pointer: '/tools/0/input_schema',
        message: /must be an object schema/,
      },
    ],
  },
  'external_ref_tools.json': {
    tools: 0,
    group: true,
    diagnostics: [
      {
        code: 'EXTERNAL_REF',
        pointer: '/tools/0/input_schema/properties/address/$ref',
        message:
          /\$ref "https:\/\/example\.com\/schemas\/address\.json" points outside this schema; only local refs .* nothing is ever fetched/,
      },
    ],
  },
  'ref_not_found_tools.json': {
    tools: 0,
    group: true,
    diagnostics: [
      {
        code: 'REF_NOT_FOUND',
        pointer: '/tools/0/input_schema/properties/address/$ref',
        message: /\$ref "#\/\$defs\/address" does not resolve/,
      },
    ],
  },
  'untyped_property_tools.json': {
    tools: 0,
    group: true,
    diagnostics: [
      {
        code: 'PROPERTY_TYPE_MISSING',
        pointer: '/tools/0/input_schema/properties/note',
        message: /property "note" has no "type"; add "type": "string"/,
      },
      {
        code: 'PROPERTY_TYPE_MISSING',
        pointer: '/tools/0/input_schema/properties/level',
        message: /property "level" has no "type"; add "type": "integer"/,
      },
    ],
  },
  'array_without_items_tools.json': {
    tools: 0,
    group: true,
    diagnostics: [
      {
        code: 'ARRAY_ITEMS_MISSING',
        pointer: '/tools/0/input_schema/properties/paths',
        message: /array schema has no "items"; add "items"/,
      },
    ],
  },
  'invalid_keyword_value_tools.json': {
    tools: 0,
    group: true,
    diagnostics: [
      {
        code: 'INVALID_SCHEMA',
        pointer: '/tools/0/input_schema/properties/name/minLength',
        message: /is not valid JSON Schema: "minLength" must be >= 0/,
      },
    ],
  },
  'bad_pattern_tools.json': {
    tools: 0,
    group: true,
    diagnostics: [
      {
        code: 'INVALID_PATTERN',
        pointer: '/tools/0/input_schema/properties/code/pattern',
        message: /pattern "\(\[a-z" is not a valid regular expression/,
      },
    ],
  },
  'redos_pattern_tools.json': {
    tools: 0,
    group: true,
    diagnostics: [
      {
        code: 'INVALID_PATTERN',
        pointer: '/tools/0/input_schema/properties/code/pattern',
        message:
          /pattern "\^\(a\+\)\+\$" can backtrack catastrophically on a long non-matching input \(ReDoS\) at "\(a\+\)\+"/,
      },
    ],
  },
  'proto_property_tools.json': {
    tools: 0,
    group: true,
    diagnostics: [
      {
        code: 'INVALID_SCHEMA',
        pointer: '/tools/0/input_schema/properties/__proto__',
        message: /properties names "__proto__", which JSON Schema validators \(ajv\) skip/,
      },
    ],
  },
  'unsupported_dialect_tools.json': {
    tools: 0,
    group: true,
    diagnostics: [
      {
        code: 'INVALID_SCHEMA',
        pointer: '/tools/0/input_schema/$schema',
        message: /unsupported \$schema "http:\/\/json-schema\.org\/draft-04\/schema#"; omit it/,
      },
    ],
  },
  'missing_tool_fields_tools.json': {
    tools: 0,
    group: true,
    diagnostics: [
      {
        code: 'MISSING_FIELD',
        pointer: '/tools/0/description',
        message: /tool "half_tool" is missing "description"/,
      },
      {
        code: 'MISSING_FIELD',
        pointer: '/tools/0/category',
        message: /is missing "category": add "category": one of "creation"/,
      },
      {
        code: 'MISSING_FIELD',
        pointer: '/tools/0/metadata',
        message: /is missing "metadata": add "metadata": \{"executor"/,
      },
    ],
  },
  'empty_description_tools.json': {
    tools: 0,
    group: true,
    diagnostics: [
      {
        code: 'INVALID_FIELD',
        pointer: '/tools/0/description',
        message: /description must be a non-empty string/,
      },
    ],
  },
  'duplicate_in_group_tools.json': {
    tools: 1,
    group: true,
    diagnostics: [
      {
        code: 'DUPLICATE_TOOL',
        pointer: '/tools/1/name',
        message: /tool "do_thing" is defined twice in this group \(also at \/tools\/0\)/,
      },
    ],
  },
  'tool_not_object_tools.json': {
    tools: 1,
    group: true,
    diagnostics: [
      {
        code: 'INVALID_FIELD',
        pointer: '/tools/0',
        message: /must be a tool object, not a string \("do_thing"\)/,
      },
    ],
  },
  'unknown_field_tools.json': {
    tools: 1,
    group: true,
    diagnostics: [
      {
        severity: 'warning',
        code: 'UNKNOWN_FIELD',
        pointer: '/selction',
        message: /unknown field "selction" is ignored; did you mean "selection"\?/,
      },
      {
        severity: 'warning',
        code: 'UNKNOWN_FIELD',
        pointer: '/tools/0/descripton',
        message: /did you mean "description"\?/,
      },
    ],
  },
  'tags_normalized_tools.json': {
    tools: 1,
    group: true,
    diagnostics: [
      {
        severity: 'warning',
        code: 'TAGS_NORMALIZED',
        pointer: '/tools/0/tags',
        message: /tags were normalized to \["web-search","unicode"\]/,
      },
    ],
  },
  'bad_example_tools.json': {
    tools: 0,
    group: true,
    diagnostics: [
      {
        code: 'INVALID_EXAMPLE',
        pointer: '/tools/0/examples/0/query',
        message: /example 0 does not match input_schema: \/query must be string/,
      },
    ],
  },
  'duplicate_keyword_tools.json': {
    tools: 1,
    group: true,
    diagnostics: [
      {
        severity: 'warning',
        code: 'DUPLICATE_KEYWORD',
        pointer: '/selection/keywords/1',
        message: /keyword "meeting " repeats \/selection\/keywords\/0/,
      },
    ],
  },
  'bad_requires_context_tools.json': {
    tools: 0,
    group: true,
    diagnostics: [
      {
        code: 'INVALID_FIELD',
        pointer: '/tools/0/metadata/requires_context',
        message: /requires_context lists "user_id" twice; remove the repeat/,
      },
    ],
  },
  'example_requests_not_array_tools.json': {
    tools: 0,
    group: true,
    diagnostics: [
      {
        code: 'INVALID_FIELD',
        pointer: '/tools/0/example_requests',
        message:
          /tool "do_thing": example_requests must be an array of strings, the user messages the tool serves \(e\.g\. \["book a room/,
      },
    ],
  },
  'bad_example_request_tools.json': {
    tools: 0,
    group: true,
    diagnostics: [
      {
        code: 'INVALID_EXAMPLE_REQUEST',
        pointer: '/tools/0/example_requests/1',
        message:
          /tool "do_thing": example_requests\/1 must be a non-empty string, a user message the tool serves; write the request or remove the entry/,
      },
      {
        code: 'INVALID_EXAMPLE_REQUEST',
        pointer: '/tools/0/example_requests/2',
        message: /tool "do_thing": example_requests\/2 must be a non-empty string/,
      },
    ],
  },
  'long_example_request_tools.json': {
    tools: 0,
    group: true,
    diagnostics: [
      {
        code: 'INVALID_EXAMPLE_REQUEST',
        pointer: '/tools/0/example_requests/0',
        message:
          /tool "do_thing": example_requests\/0 is 517 characters, longer than 500 \(limits\.maxExampleRequestLength\); shorten it/,
      },
    ],
  },
  'too_many_example_requests_tools.json': {
    tools: 0,
    group: true,
    diagnostics: [
      {
        code: 'TOO_MANY_EXAMPLE_REQUESTS',
        pointer: '/tools/0/example_requests',
        message:
          /tool "do_thing": example_requests has 51 entries, more than 50 \(limits\.maxExampleRequests\); keep the most varied ones/,
      },
    ],
  },
  'duplicate_example_request_tools.json': {
    tools: 1,
    group: true,
    diagnostics: [
      {
        severity: 'warning',
        code: 'DUPLICATE_EXAMPLE_REQUEST',
        pointer: '/tools/0/example_requests/2',
        message:
          /tool "do_thing": example_requests\/2 "find me a {2}flight to Oslo " repeats example_requests\/0 and is ignored; remove it/,
      },
    ],
  },
};

async function loadSingle(directory: string, file: string) {
  const dir = createTempDir();
  copyFileSync(join(FIXTURES, directory, file), join(dir, file));
  return loadRegistry({ dirs: [dir], cwd: dir, checkExamples: true });
}

describe('group file fixtures', () => {
  it('maps every fixture file to an expectation (no silent skips)', () => {
    const invalid = readdirSync(join(FIXTURES, 'invalid')).sort();
    expect(invalid).toEqual(Object.keys(INVALID).sort());
    expect(readdirSync(join(FIXTURES, 'valid')).length).toBeGreaterThan(5);
  });

  for (const file of readdirSync(join(FIXTURES, 'valid')).sort()) {
    it(`loads valid/${file} with no diagnostics`, async () => {
      const registry = await loadSingle('valid', file);
      expect(registry.diagnostics).toEqual([]);
      expect(registry.groups()).toHaveLength(1);
      expect(registry.size).toBeGreaterThan(0);
    });
  }

  for (const [file, expected] of Object.entries(INVALID)) {
    it(`diagnoses invalid/${file}`, async () => {
      const registry = await loadSingle('invalid', file);
      expect(
        registry.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.pointer]),
      ).toEqual(expected.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.pointer]));
      registry.diagnostics.forEach((diagnostic, index) => {
        const want = expected.diagnostics[index]!;
        expect(diagnostic.file).toBe(file);
        expect(diagnostic.severity).toBe(want.severity ?? 'error');
        expect(diagnostic.message).toMatch(want.message);
        expect(diagnostic.line).toBeTypeOf('number');
        if (want.line !== undefined) expect(diagnostic.line).toBe(want.line);
        if (want.column !== undefined) expect(diagnostic.column).toBe(want.column);
      });
      expect(registry.size).toBe(expected.tools);
      expect(registry.groups().length).toBe(expected.group ? 1 : 0);
    });
  }
});
