import { describe, expect, it } from 'vitest';
import { TranslationError } from '../../src/errors/translation-error.js';
import { fromProvider } from '../../src/providers/from-provider.js';
import { PROVIDER_IDS, type ProviderId } from '../../src/providers/provider-types.js';
import { translate } from '../../src/providers/translate.js';
import { loadRegistry } from '../../src/toolcap/load-registry.js';
import { checkPayload } from './conformance/check-payload.js';
import { loadCorpus } from './corpus-helpers.js';

const registry = await loadRegistry({ dirs: ['schemas'], strict: true });
const corpus = loadCorpus().map((server) => ({
  server: server.server,
  tools: fromProvider('mcp', server.tools).tools,
}));

describe.each(PROVIDER_IDS)('conformance: %s', (provider: ProviderId) => {
  it('accepts the whole bundled catalog and every bundled tool alone', () => {
    expect(registry.size).toBe(16);
    expect(checkPayload(provider, translate(registry.list(), provider).payload)).toEqual([]);
    for (const tool of registry.list()) {
      expect(checkPayload(provider, translate([tool], provider).payload), tool.name).toEqual([]);
    }
  });

  it('translates all 527 LiveMCPBench tools (imported with fromProvider("mcp")), each passing the checker', () => {
    const problems: string[] = [];
    const rejected: string[] = [];
    let translated = 0;
    for (const { server, tools } of corpus) {
      for (const tool of tools) {
        try {
          const { payload } = translate([tool], provider);
          translated++;
          for (const problem of checkPayload(provider, payload))
            problems.push(`${server}/${tool.name}: ${problem}`);
        } catch (error) {
          // a rejection must be a specific, explained TranslationError
          expect(error).toBeInstanceOf(TranslationError);
          rejected.push(`${server}/${tool.name}: ${(error as TranslationError).code}`);
        }
      }
      // each server's list also works as one request
      expect(checkPayload(provider, translate(tools, provider).payload), server).toEqual([]);
    }
    expect(problems).toEqual([]);
    expect({ translated, rejected }).toEqual({ translated: 527, rejected: [] });
  });
});
