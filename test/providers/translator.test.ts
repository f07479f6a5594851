import { describe, expect, it } from 'vitest';
import type { RegisteredTool } from '../../src/format/types.js';
import { translate } from '../../src/providers/translate.js';
import { createTranslator } from '../../src/providers/translator.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';

const registry = await loadRegistry({ dirs: ['schemas'], strict: true });

describe('createTranslator', () => {
  it('gives what translate() gives, for every call', () => {
    const translator = createTranslator();
    const tools = registry.list();
    for (const provider of ['openai', 'anthropic', 'google', 'bedrock', 'mcp'] as const) {
      const pure = translate(tools, provider);
      expect(translator.translate(tools, provider)).toEqual(pure);
      expect(translator.translate(tools, provider)).toEqual(pure);
    }
  });

  it('hands out fresh containers over frozen entries: a caller cannot change later results', () => {
    const translator = createTranslator();
    const tools = registry.list().slice(0, 4);
    const first = translator.translate(tools, 'anthropic', { cacheControl: true });
    const expected = structuredClone(first);
    (first.payload as unknown[]).push({ type: 'web_search_20250305', name: 'web_search' });
    expect(() => {
      (first.payload[0] as { description?: string }).description = 'X';
    }).toThrow(TypeError);
    delete (first.metadata as Record<string, unknown>)[tools[0]!.name];
    (first.warnings as unknown[]).push({ code: 'MINE', message: 'mine' });
    expect(translator.translate(tools, 'anthropic', { cacheControl: true })).toEqual(expected);
    // another selection sharing tools is not affected either
    const other = translator.translate(tools.slice(1, 3), 'anthropic');
    expect(other).toEqual(translate(tools.slice(1, 3), 'anthropic'));
  });

  it('reuses per-tool translations across selections and recognizes copies of tools', () => {
    const translator = createTranslator();
    const [a, b, c] = registry.list();
    const ab = translator.translate([a!, b!], 'google');
    const bc = translator.translate([b!, c!], 'google');
    expect(bc.payload[0]!.functionDeclarations[0]).toBe(ab.payload[0]!.functionDeclarations[1]);
    const copies = [a!, b!].map((tool) => ({ ...tool, reason: { strategy: 'keyword' } }));
    expect(translator.translate(copies, 'google').payload[0]!.functionDeclarations[0]).toBe(
      ab.payload[0]!.functionDeclarations[0],
    );
    // a changed copy is translated again
    const changed = { ...a!, description: 'Something else entirely.' };
    expect(
      translator.translate([changed], 'google').payload[0]!.functionDeclarations[0]!.description,
    ).toBe('Something else entirely.');
    const moved: RegisteredTool = { ...a!, group: 'other' };
    expect(translator.translate([moved, b!], 'google').metadata[a!.name]!.group).toBe('other');
  });

  it('keys options by value, and never freezes the caller’s own tool objects', () => {
    const translator = createTranslator();
    const tools = registry.list().slice(0, 2);
    const options: { cacheControl?: boolean } = {};
    const plain = translator.translate(tools, 'anthropic', options);
    options.cacheControl = true;
    expect(plain.payload[1]).not.toHaveProperty('cache_control');
    expect(translator.translate(tools, 'anthropic', options).payload[1]).toHaveProperty(
      'cache_control',
    );
    const mine = {
      name: 'mine',
      description: 'Mine.',
      category: 'retrieval' as const,
      input_schema: { type: 'object', properties: { q: { type: 'string' } } },
      metadata: {
        executor: 'x',
        requires_context: [],
        cost_estimate: 'low' as const,
        latency_estimate: 'fast' as const,
      },
    };
    translator.translate([mine], 'mcp');
    expect(Object.isFrozen(mine.input_schema)).toBe(false);
  });

  it('is what registry.translate uses: repeated turns are byte-identical', () => {
    const selection = registry.select('schedule a meeting', { context: { user_id: 'u1' } });
    const first = registry.translate(selection.tools, 'openai');
    const again = registry.translate(
      registry.select('schedule a meeting', { context: { user_id: 'u1' } }).tools,
      'openai',
    );
    expect(JSON.stringify(again.payload)).toBe(JSON.stringify(first.payload));
    expect(again.payload).not.toBe(first.payload);
  });
});
