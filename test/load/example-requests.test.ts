import { describe, expect, it } from 'vitest';
import { normalizeExampleRequest } from '../../src/load/check-example-requests.js';
import { PROVIDER_IDS } from '../../src/providers/provider-types.js';
import { translate } from '../../src/providers/translate.js';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';

const REQUESTS = ['book a table for two at 7', 'is there a free slot for dinner on Friday?'];

describe('example_requests', () => {
  it('registered tools carry them, in file order, with repeats left out', async () => {
    const dir = createTempDir({
      'dining_tools.json': makeGroup('dining', {
        tools: [
          makeTool({
            name: 'book_table',
            example_requests: [...REQUESTS, '  Book a table for TWO at 7'],
          }),
          makeTool({ name: 'cancel_booking' }),
        ],
      }),
    });
    const registry = await loadRegistry({ dirs: [dir], cwd: dir });
    expect(registry.diagnostics.map((diagnostic) => diagnostic.code)).toEqual([
      'DUPLICATE_EXAMPLE_REQUEST',
    ]);
    expect(registry.get('book_table')?.example_requests).toEqual(REQUESTS);
    expect(Object.isFrozen(registry.get('book_table')?.example_requests)).toBe(true);
    expect(registry.get('cancel_booking')).not.toHaveProperty('example_requests');
  });

  it('register() validates and keeps them as the loader does', () => {
    const registry = createRegistry().register(
      makeGroup('dining', {
        tools: [makeTool({ name: 'book_table', example_requests: REQUESTS })],
      }),
    );
    expect(registry.get('book_table')?.example_requests).toEqual(REQUESTS);
    expect(() =>
      createRegistry().register(
        makeGroup('dining', { tools: [makeTool({ name: 'book_table', example_requests: [''] })] }),
      ),
    ).toThrow(/example_requests\/0 must be a non-empty string/);
  });

  it('the count and length limits are configurable', async () => {
    const dir = createTempDir({
      'dining_tools.json': makeGroup('dining', {
        tools: [makeTool({ name: 'book_table', example_requests: REQUESTS })],
      }),
    });
    const strict = await loadRegistry({
      dirs: [dir],
      cwd: dir,
      limits: { maxExampleRequests: 1, maxExampleRequestLength: 30 },
    });
    expect(strict.diagnostics.map((diagnostic) => [diagnostic.code, diagnostic.pointer])).toEqual([
      ['TOO_MANY_EXAMPLE_REQUESTS', '/tools/0/example_requests'],
      ['INVALID_EXAMPLE_REQUEST', '/tools/0/example_requests/1'],
    ]);
    expect(strict.diagnostics[1]?.message).toMatch(
      /example_requests\/1 is 42 characters, longer than 30 \(limits\.maxExampleRequestLength\)/,
    );
    expect(strict.has('book_table')).toBe(false);
  });

  it('reports every problem of a tool at once, not only the first bad entry', async () => {
    const dir = createTempDir({
      'stocks_tools.json': makeGroup('stocks', {
        tools: [
          makeTool({
            name: 'quote',
            example_requests: ['Price of AAPL', 'price  of aapl', '', 'x'.repeat(501)],
          }),
        ],
      }),
    });
    const registry = await loadRegistry({ dirs: [dir], cwd: dir });
    expect(
      registry.diagnostics.map((diagnostic) => [
        diagnostic.severity,
        diagnostic.code,
        diagnostic.pointer,
        diagnostic.message,
      ]),
    ).toEqual([
      [
        'error',
        'INVALID_EXAMPLE_REQUEST',
        '/tools/0/example_requests/2',
        'tool "quote": example_requests/2 must be a non-empty string, a user message the tool serves; write the request or remove the entry',
      ],
      [
        'warning',
        'DUPLICATE_EXAMPLE_REQUEST',
        '/tools/0/example_requests/1',
        'tool "quote": example_requests/1 "price  of aapl" repeats example_requests/0 and is ignored; remove it',
      ],
      [
        'error',
        'INVALID_EXAMPLE_REQUEST',
        '/tools/0/example_requests/3',
        'tool "quote": example_requests/3 is 501 characters, longer than 500 (limits.maxExampleRequestLength); shorten it to the part that says what the user wants',
      ],
    ]);
    expect(registry.has('quote')).toBe(false);
  });

  it('no provider translation sends them to the model', () => {
    const registry = createRegistry().register(
      makeGroup('dining', {
        tools: [makeTool({ name: 'book_table', example_requests: REQUESTS })],
      }),
    );
    const tools = registry.list();
    for (const provider of PROVIDER_IDS) {
      const text = JSON.stringify(translate(tools, provider));
      expect(text, provider).toContain('book_table');
      expect(text, provider).not.toContain('example_requests');
      expect(text, provider).not.toContain(REQUESTS[0]);
    }
  });

  it('normalizes case, width and whitespace when comparing', () => {
    expect(normalizeExampleRequest('  Ｂook\ta   ROOM ')).toBe('book a room');
    expect(normalizeExampleRequest('book a room!')).not.toBe('book a room');
  });
});
