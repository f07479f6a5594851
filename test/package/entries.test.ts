import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const built = existsSync(join(ROOT, 'dist/src/index.js'));

/** The values each entry exports: a change here is a change of the public API. */
const ENTRIES: Record<string, readonly string[]> = {
  'tool-capabilities': [
    'DEFAULT_EXECUTION_LIMITS',
    'DEFAULT_FALLBACK_K',
    'DEFAULT_FALLBACK_MIN_SCORE',
    'DEFAULT_HISTORY_WINDOW',
    'DEFAULT_LOAD_LIMITS',
    'DEFAULT_SEARCH_K',
    'DIAGNOSTIC_CODES',
    'EXECUTE_ERROR_CODES',
    'PROVIDER_IDS',
    'ProviderResponseError',
    'RegistryLoadError',
    'TOOL_CALL_PROVIDER_IDS',
    'ToolcapError',
    'TranslationError',
    'allowedToolChoice',
    'assembleStream',
    'createRegistry',
    'createTranslator',
    'formatDiagnostic',
    'historyFromMessages',
    'isProviderId',
    'loadRegistry',
    'needsApprovalByDefault',
    'translate',
  ],
  'tool-capabilities/import': [
    'GROUP_FILE_SCHEMA_URL',
    'IMPORT_SOURCES',
    'PayloadFormatError',
    'buildImportedGroup',
    'fromProvider',
    'importToolList',
    'keywordDocument',
    'paramsToJsonSchema',
    'readToolModule',
    'suggestKeywords',
    'toCanonicalToolName',
    'toGroupName',
  ],
  'tool-capabilities/migrate': [
    'DEFAULT_GENERATED_PER_TOOL',
    'DEFAULT_MAX_EXAMPLE_REQUESTS_PER_TOOL',
    'TRANSCRIPT_FORMATS',
    'diffGroups',
    'diffSchemas',
    'generateExampleRequests',
    'isBumpSufficient',
    'learnFromTranscripts',
    'measureBump',
    'parseGroupVersion',
    'readGroupVersion',
    'reportMigration',
    'toFallbackTools',
  ],
  'tool-capabilities/watch': ['watchRegistry'],
  'tool-capabilities/mcp': [
    'CONTEXT_KEY',
    'createGateway',
    'createMcpServer',
    'parseUpstreamConfig',
    'readUpstreamConfig',
    'snapshotUpstream',
  ],
  'tool-capabilities/external': [
    'BASIC_ENVIRONMENT_VARIABLES',
    'DEFAULT_EXTERNAL_GROUP',
    'binaryNameFromTool',
    'checkExternalToolSchema',
    'discoverExternalTools',
    'externalEnvironment',
    'loadExternalTools',
    'toolNameFromBinary',
  ],
  'tool-capabilities/handler-kit': [
    'ToolError',
    'appendJsonLines',
    'createId',
    'encodeFileName',
    'readJsonFile',
    'readJsonLines',
    'requireContextString',
    'scoreText',
    'storeFile',
    'todayUtc',
    'tokenizeWords',
    'updateJsonFile',
    'withFileLock',
    'writeFileAtomic',
  ],
  'tool-capabilities/text': ['createTextAnalyzer', 'tokenize'],
  'tool-capabilities/json-schema': [
    'TOOL_NAME_PATTERN',
    'isValidToolName',
    'normalizeTags',
    'removeNullOptionals',
    'validateToolInput',
  ],
  'tool-capabilities/ai-sdk': ['createAiSdkTools', 'createPrepareStep'],
  'tool-capabilities/openai-agents': ['createAgentsTools', 'createMcpToolFilter'],
  'tool-capabilities/langchain': ['createLangChainTools'],
  'tool-capabilities/embeddings': [
    'DEFAULT_SEMANTIC_WEIGHT',
    'createOpenAICompatibleEmbedder',
    'createWordVectorEmbedder',
  ],
};

/** Modules the root entry must not load before they are needed. */
const NOT_AT_START = ['node:child_process', 'child_process', 'src/execute/file-store.ts'];

/** The frameworks of the adapters: optional peer dependencies, loaded only by their entry. */
const FRAMEWORKS = /^(ai|@openai\/agents|@langchain\/core)(\/|$)/;

/** Every module `file` loads statically (not through `import()`), transitively. */
function staticImports(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  if (!file.endsWith('.ts')) return seen;
  const text = readFileSync(file, 'utf8');
  for (const match of text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+['"]([^'"]+)['"]/gm)) {
    const specifier = match[1]!;
    if (/^\s*(?:import|export)\s+type\s/.test(match[0])) continue;
    if (specifier.startsWith('.')) {
      staticImports(resolve(dirname(file), specifier).replace(/\.js$/, '.ts'), seen);
    } else {
      seen.add(specifier);
    }
  }
  return seen;
}

describe.runIf(built)('the package entries', () => {
  it('export exactly the documented values', () => {
    const script = `
      const entries = ${JSON.stringify(Object.keys(ENTRIES))};
      const result = {};
      for (const entry of entries) result[entry] = Object.keys(await import(entry)).sort();
      process.stderr.write(JSON.stringify(result));
    `;
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(child.status).toBe(0);
    expect(child.stdout).toBe('');
    expect(JSON.parse(child.stderr)).toEqual(ENTRIES);
  });

  it('lists every entry in package.json exports, types first', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    for (const entry of Object.keys(ENTRIES)) {
      const key = entry === 'tool-capabilities' ? '.' : `./${entry.split('/')[1]}`;
      const target = manifest.exports[key] as Record<string, string>;
      expect(Object.keys(target)[0]).toBe('types');
      expect(existsSync(join(ROOT, target.types!))).toBe(true);
    }
  });
});

describe('the root entry', () => {
  it('loads no process spawning and no file-lock code until they are needed', () => {
    const loaded = [...staticImports(join(ROOT, 'src/index.ts'))].map((path) =>
      path.startsWith(ROOT) ? path.slice(ROOT.length + 1) : path,
    );
    expect(loaded.filter((path) => NOT_AT_START.includes(path))).toEqual([]);
    // the check can fail: the handler kit does load the store
    const kit = [...staticImports(join(ROOT, 'src/entries/handler-kit.ts'))].map((path) =>
      path.startsWith(ROOT) ? path.slice(ROOT.length + 1) : path,
    );
    expect(kit).toContain('src/execute/file-store.ts');
  });

  it('loads no framework: only the adapter entries import them', () => {
    const frameworksOf = (entry: string) =>
      [...staticImports(join(ROOT, entry))].filter((path) => FRAMEWORKS.test(path)).sort();
    for (const entry of ['src/index.ts', 'src/entries/import.ts', 'src/entries/migrate.ts']) {
      expect(frameworksOf(entry)).toEqual([]);
    }
    // the check can fail: each adapter entry loads its framework
    expect(frameworksOf('src/entries/ai-sdk.ts')).toEqual(['ai']);
    expect(frameworksOf('src/entries/openai-agents.ts')).toEqual(['@openai/agents']);
    expect(frameworksOf('src/entries/langchain.ts')).toEqual([
      '@langchain/core/messages',
      '@langchain/core/tools',
    ]);
  });
});
