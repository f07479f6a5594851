import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** One MCP server of the LiveMCPBench corpus with its `tools/list` entries. */
export interface CorpusServer {
  server: string;
  tools: unknown[];
}

const CORPUS_FILE = fileURLToPath(new URL('../fixtures/livemcpbench/tools.json', import.meta.url));

/** The 70 servers (527 tools) of test/fixtures/livemcpbench/tools.json. */
export function loadCorpus(): CorpusServer[] {
  const entries = JSON.parse(readFileSync(CORPUS_FILE, 'utf8')) as {
    tools: Record<string, { tools: unknown[] }>;
  }[];
  return entries.flatMap((entry) =>
    Object.entries(entry.tools).map(([server, value]) => ({ server, tools: value.tools })),
  );
}
