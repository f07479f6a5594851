import { describe, expect, it } from 'vitest';
import {
  detectTextStyle,
  setGroupVersion,
  setOverlayExampleRequests,
  setToolExampleRequests,
} from '../../src/migrate/edit-group-text.js';

const style = { indent: '  ', eol: '\n' };

describe('setToolExampleRequests', () => {
  it('replaces an existing array in place, one request per line', () => {
    const text = [
      '{',
      '  "tools": [',
      '    {',
      '      "name": "a",',
      '      "example_requests": ["old"],',
      '      "metadata": {}',
      '    }',
      '  ]',
      '}',
    ].join('\n');
    expect(setToolExampleRequests(text, 0, ['old', 'new "one"'], style)).toBe(
      [
        '{',
        '  "tools": [',
        '    {',
        '      "name": "a",',
        '      "example_requests": [',
        '        "old",',
        '        "new \\"one\\""',
        '      ],',
        '      "metadata": {}',
        '    }',
        '  ]',
        '}',
      ].join('\n'),
    );
  });

  it('keeps a tool written on one line on one line', () => {
    const text =
      '{"tools": [{"name": "a", "metadata": {}}, {"name": "b", "example_requests": []}]}';
    const first = setToolExampleRequests(text, 0, ['x', 'y'], style);
    expect(first).toBe(
      '{"tools": [{"name": "a", "metadata": {}, "example_requests": ["x", "y"]}, {"name": "b", "example_requests": []}]}',
    );
    expect(setToolExampleRequests(first, 1, ['z'], style)).toBe(
      '{"tools": [{"name": "a", "metadata": {}, "example_requests": ["x", "y"]}, {"name": "b", "example_requests": ["z"]}]}',
    );
  });

  it('writes an empty list as []', () => {
    const text = '{\n  "tools": [\n    {\n      "name": "a"\n    }\n  ]\n}';
    expect(setToolExampleRequests(text, 0, [], style)).toBe(
      '{\n  "tools": [\n    {\n      "name": "a",\n      "example_requests": []\n    }\n  ]\n}',
    );
  });

  it('refuses what is not a tool object', () => {
    expect(() => setToolExampleRequests('{"tools": [1]}', 0, ['x'], style)).toThrow(
      'tools/0 is not a tool object with fields',
    );
    expect(() => setToolExampleRequests('', 0, ['x'], style)).toThrow('the file is not JSON');
  });
});

describe('setOverlayExampleRequests', () => {
  const overlay = [
    '{',
    '  "group": "github",',
    '  "tools": [],',
    '  "x-upstream": {',
    '    "hidden": ["delete_repo"],',
    '    "tools": {',
    '      "create_issue": { "title": "Open an issue" }',
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');

  it('adds an entry for a tool the overlay does not name yet, touching nothing else', () => {
    expect(setOverlayExampleRequests(overlay, 'search-issues', ['find login bugs'], style)).toBe(
      [
        '{',
        '  "group": "github",',
        '  "tools": [],',
        '  "x-upstream": {',
        '    "hidden": ["delete_repo"],',
        '    "tools": {',
        '      "create_issue": { "title": "Open an issue" },',
        '      "search-issues": {',
        '        "example_requests": [',
        '          "find login bugs"',
        '        ]',
        '      }',
        '    }',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('adds the field to an entry on one line, and replaces an existing list in place', () => {
    const once = setOverlayExampleRequests(overlay, 'create_issue', ['file a bug'], style);
    expect(once).toContain(
      '"create_issue": { "title": "Open an issue", "example_requests": ["file a bug"] }',
    );
    const twice = setOverlayExampleRequests(
      once,
      'create_issue',
      ['file a bug', 'report a crash'],
      style,
    );
    expect(twice).toContain(
      '"create_issue": { "title": "Open an issue", "example_requests": ["file a bug", "report a crash"] }',
    );
  });

  it('creates "tools" in an empty x-upstream, in the file\'s tabs', () => {
    const text = '{\n\t"group": "g",\n\t"x-upstream": {}\n}\n';
    expect(setOverlayExampleRequests(text, 'k', ['m'], { indent: '\t', eol: '\n' })).toBe(
      '{\n\t"group": "g",\n\t"x-upstream": {\n\t\t"tools": {\n\t\t\t"k": {\n\t\t\t\t"example_requests": [\n\t\t\t\t\t"m"\n\t\t\t\t]\n\t\t\t}\n\t\t}\n\t}\n}\n',
    );
  });

  it('refuses an x-upstream.tools that is not an object', () => {
    expect(() =>
      setOverlayExampleRequests('{"x-upstream": {"tools": []}}', 'k', ['m'], style),
    ).toThrow('x-upstream.tools is not an object');
  });
});

describe('setGroupVersion', () => {
  it('replaces only the version string', () => {
    expect(setGroupVersion('{ "group": "g",  "version" : "1.0.0" }', '1.0.1')).toBe(
      '{ "group": "g",  "version" : "1.0.1" }',
    );
    expect(() => setGroupVersion('{"group": "g"}', '1.0.1')).toThrow('the file has no "version"');
  });
});

describe('detectTextStyle', () => {
  it('finds tabs, spaces and CRLF, with two spaces and LF by default', () => {
    expect(detectTextStyle('{\r\n\t"a": 1\r\n}')).toEqual({ indent: '\t', eol: '\r\n' });
    expect(detectTextStyle('{\n    "a": 1\n}')).toEqual({ indent: '    ', eol: '\n' });
    expect(detectTextStyle('{"a": 1}')).toEqual({ indent: '  ', eol: '\n' });
  });
});
