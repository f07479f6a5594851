import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DIAGNOSTIC_CODES } from '../../src/format/diagnostic-codes.js';
import { KNOWN_FORMATS } from '../../src/json-schema/check-schema.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { runCli } from '../helpers/run-cli.js';
import { createTempDir, makeGroup, makeTool } from '../helpers/temp-files.js';

const require = createRequire(import.meta.url);

/** A project whose tool has a "phone" format (unknown to ajv-formats) in input and output. */
function phoneProject(): string {
  const tool = makeTool({
    name: 'call_number',
    input_schema: {
      type: 'object',
      properties: { number: { type: 'string', format: 'phone' } },
      required: ['number'],
    },
    output_schema: {
      type: 'object',
      properties: { dialed: { type: 'string', format: 'phone' } },
    },
  });
  return createTempDir({
    'schemas/phones_tools.json': makeGroup('phones', { tools: [tool] }),
    'handlers/things.mjs':
      'export function call_number(input) { return { dialed: input.number }; }\n',
  });
}

/** Spies on every way the library could print; restored after each test. */
function spyOnConsole() {
  return [
    vi.spyOn(console, 'log'),
    vi.spyOn(console, 'warn'),
    vi.spyOn(console, 'error'),
    vi.spyOn(console, 'info'),
    vi.spyOn(process.stderr, 'write'),
    vi.spyOn(process.stdout, 'write'),
  ];
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('an unknown "format"', () => {
  it('knows exactly the formats ajv-formats checks', () => {
    const { formatNames } = require('ajv-formats/dist/formats') as { formatNames: string[] };
    expect([...KNOWN_FORMATS]).toEqual(formatNames);
    expect(DIAGNOSTIC_CODES.UNKNOWN_FORMAT).toMatch(/warning/);
  });

  it('is a load warning naming the known formats and the fix; the tool still loads', async () => {
    const dir = phoneProject();
    const registry = await loadRegistry({ dirs: ['schemas'], cwd: dir });
    expect(registry.has('call_number')).toBe(true);
    expect(registry.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'warning',
        code: 'UNKNOWN_FORMAT',
        file: join('schemas', 'phones_tools.json'),
        pointer: '/tools/0/input_schema/properties/number/format',
      }),
      expect.objectContaining({
        severity: 'warning',
        code: 'UNKNOWN_FORMAT',
        pointer: '/tools/0/output_schema/properties/dialed/format',
      }),
    ]);

    const checked = await runCli(['validate'], { cwd: dir });
    expect(checked.code).toBe(0);
    const lines = checked.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^schemas\/phones_tools\.json:\d+:\d+: warning UNKNOWN_FORMAT tool "call_number": input_schema\/properties\/number\/format: format "phone" is not a format toolcap checks, so any string passes \(known formats: date, time, date-time, .*, binary\); use one of them, or describe the value with "pattern" instead \(at \/tools\/0\/input_schema\/properties\/number\/format\)$/,
    );
    expect(lines[1]).toMatch(/warning UNKNOWN_FORMAT tool "call_number": output_schema/);
    expect(lines[2]).toBe('1 group(s), 1 tool(s): 0 error(s), 2 warning(s)');
  });

  it('makes execute print nothing (ajv has no console logger)', async () => {
    const dir = phoneProject();
    const registry = await loadRegistry({ dirs: ['schemas'], cwd: dir, handlers: ['handlers'] });
    const spies = spyOnConsole();
    const result = await registry.execute('call_number', { number: '+33 1 23' }, {});
    expect(result).toEqual({ ok: true, output: { dialed: '+33 1 23' } });
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  it('makes toolcap run print only its load diagnostics', async () => {
    const dir = phoneProject();
    const spies = spyOnConsole();
    const result = await runCli(['run', 'call_number', '--input', '{"number": "+1 555"}'], {
      cwd: dir,
    });
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ ok: true, output: { dialed: '+1 555' } });
    expect(result.stderr).not.toContain('ignored in schema');
    expect(result.stderr.split('\n').filter((line) => line !== '')).toEqual([
      expect.stringContaining('warning UNKNOWN_FORMAT tool "call_number": input_schema'),
      expect.stringContaining('warning UNKNOWN_FORMAT tool "call_number": output_schema'),
    ]);
  });
});
