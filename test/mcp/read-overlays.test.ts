import { describe, expect, it } from 'vitest';
import { readOverlays } from '../../src/mcp/gateway/read-overlays.js';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { createTempDir, makeGroup } from '../helpers/temp-files.js';

async function read(extension: unknown) {
  const dir = createTempDir({
    'schemas/alpha_tools.json': { ...makeGroup('alpha', { tools: [] }), 'x-upstream': extension },
    'schemas/other_tools.json': makeGroup('other'),
  });
  const registry = await loadRegistry({ dirs: ['schemas'], cwd: dir });
  return readOverlays(registry, new Set(['alpha']), dir);
}

describe('readOverlays', () => {
  it('reads the header and the x-upstream fields of a group named like an upstream', async () => {
    const reading = await read({
      hidden: ['a', 'a', 'b'],
      pinned: ['c'],
      tools: { 'search-docs': { title: 'Search', description: 'Find pages.' } },
    });
    expect(reading.problems).toEqual([]);
    const overlay = reading.overlays.get('alpha');
    expect(overlay).toMatchObject({
      group: 'alpha',
      file: 'schemas/alpha_tools.json',
      description: 'A test group.',
      selection: { strategy: 'always' },
      hidden: ['a', 'b'],
      pinned: ['c'],
    });
    expect([...(overlay?.tools ?? [])]).toEqual([
      ['search-docs', { title: 'Search', description: 'Find pages.' }],
    ]);
    expect(reading.overlays.has('other')).toBe(false);
  });

  it('reads example requests of an override, dropping repeats', async () => {
    const reading = await read({
      tools: { echo: { example_requests: ['say hi back', 'Say  hi back', 'repeat after me'] } },
    });
    expect(reading.problems).toEqual([]);
    expect(reading.overlays.get('alpha')?.tools.get('echo')).toEqual({
      example_requests: ['say hi back', 'repeat after me'],
    });
  });

  it.each([
    [
      'a list',
      [],
      'x-upstream must be an object such as {"hidden": [...], "pinned": [...], "tools": {...}}',
    ],
    [
      'hidden as a string',
      { hidden: 'crash' },
      'x-upstream.hidden must be a list of tool names, as the server names them',
    ],
    ['an empty pinned name', { pinned: [''] }, 'x-upstream.pinned must be a list of tool names'],
    [
      'tools as a list',
      { tools: [] },
      'x-upstream.tools must map tool names to {"title", "description", "example_requests"} overrides',
    ],
    [
      'an override that is no object',
      { tools: { echo: 'x' } },
      'x-upstream.tools.echo must be an object with "title", "description" and/or "example_requests"',
    ],
    [
      'an unknown override field',
      { tools: { echo: { name: 'x' } } },
      'x-upstream.tools.echo.name is not a tool override; use title, description, example_requests',
    ],
    [
      'an empty description',
      { tools: { echo: { description: ' ' } } },
      'x-upstream.tools.echo.description must be a non-empty string',
    ],
    [
      'example requests that are not a list of strings',
      { tools: { echo: { example_requests: 'say hi' } } },
      'x-upstream.tools.echo.example_requests must be a list of non-empty strings: user messages the tool serves, such as ["what is on my calendar tomorrow?"]',
    ],
    [
      'an example request that is not a string',
      { tools: { echo: { example_requests: ['say hi', 7] } } },
      'x-upstream.tools.echo.example_requests.1 must be a non-empty string: a user message the tool serves',
    ],
    [
      'an example request longer than the limit',
      { tools: { echo: { example_requests: ['x'.repeat(501)] } } },
      'tool "echo": example_requests/0 is 501 characters, longer than 500 (limits.maxExampleRequestLength); shorten it to the part that says what the user wants',
    ],
    [
      'more example requests than the limit',
      { tools: { echo: { example_requests: Array.from({ length: 51 }, (_, i) => `say ${i}`) } } },
      'tool "echo": example_requests has 51 entries, more than 50 (limits.maxExampleRequests); keep the most varied ones',
    ],
  ])('reports %s with the file, position and field', async (_label, extension, message) => {
    const reading = await read(extension);
    expect(reading.problems).toHaveLength(1);
    expect(reading.problems[0]).toMatch(/^schemas\/alpha_tools\.json:\d+:\d+: /);
    expect(reading.problems[0]).toContain(message);
  });

  it('takes the header alone from a registered group (no file)', () => {
    const registry = createRegistry().register(makeGroup('alpha', { tools: [] }));
    const reading = readOverlays(registry, new Set(['alpha']), process.cwd());
    expect(reading.problems).toEqual([]);
    expect(reading.overlays.get('alpha')).toMatchObject({
      file: 'group "alpha"',
      hidden: [],
      pinned: [],
    });
  });
});
