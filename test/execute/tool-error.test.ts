import { describe, expect, it } from 'vitest';
import { ToolError } from '../../src/execute/tool-error.js';
import { createRegistry } from '../../src/toolcap/create-registry.js';
import { createTestingRegistry } from './testing-registry.js';

describe('ToolError codes', () => {
  it('converts kebab, camel and spaced codes to UPPER_SNAKE_CASE', () => {
    expect(new ToolError('task-not-found', 'x').code).toBe('TASK_NOT_FOUND');
    expect(new ToolError('taskNotFound', 'x').code).toBe('TASK_NOT_FOUND');
    expect(new ToolError('quota exceeded!', 'x').code).toBe('QUOTA_EXCEEDED');
    expect(new ToolError('RATE_LIMITED', 'x').code).toBe('RATE_LIMITED');
    // acronyms stay whole, accents are folded rather than dropped
    expect(new ToolError('HTTPError', 'x').code).toBe('HTTP_ERROR');
    expect(new ToolError('XMLHttpRequestFailed', 'x').code).toBe('XML_HTTP_REQUEST_FAILED');
    expect(new ToolError('über-fehler', 'x').code).toBe('UBER_FEHLER');
  });

  it('uses HANDLER_ERROR for what cannot be a code', () => {
    for (const code of ['', '---', '404', 'x'.repeat(70)]) {
      expect(new ToolError(code, 'x').code).toBe('HANDLER_ERROR');
    }
  });

  it('keeps a code that cannot be converted in details.error_code when a call fails', async () => {
    const registry = createRegistry({
      fallbackTools: [
        {
          name: 'fetch_page',
          description: 'Fetches a page.',
          execute: () => {
            throw new ToolError('404-missing', 'no such page', { url: '/x' });
          },
        },
        {
          name: 'fetch_other',
          description: 'Fetches another page.',
          execute: () => {
            throw new ToolError('404', 'gone', { error_code: 'kept' });
          },
        },
      ],
    });
    expect(await registry.execute('fetch_page', {})).toEqual({
      ok: false,
      error: {
        code: 'HANDLER_ERROR',
        message: 'no such page',
        details: { url: '/x', error_code: '404-missing' },
      },
    });
    // the handler's own error_code is never overwritten
    expect(await registry.execute('fetch_other', {})).toEqual({
      ok: false,
      error: { code: 'HANDLER_ERROR', message: 'gone', details: { error_code: 'kept' } },
    });
  });

  it('converts the code of a ToolError from another copy of the package when a call fails', async () => {
    expect(await createTestingRegistry().execute('throws_old_tool_error', {})).toEqual({
      ok: false,
      error: { code: 'THING_NOT_FOUND', message: 'no such thing', details: {} },
    });
  });
});
