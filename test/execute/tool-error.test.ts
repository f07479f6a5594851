import { describe, expect, it } from 'vitest';
import { ToolError } from '../../src/execute/tool-error.js';
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

  it('converts the code of a ToolError from another copy of the package when a call fails', async () => {
    expect(await createTestingRegistry().execute('throws_old_tool_error', {})).toEqual({
      ok: false,
      error: { code: 'THING_NOT_FOUND', message: 'no such thing', details: {} },
    });
  });
});
