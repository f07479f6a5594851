/**
 * Writes the held-out data the eval reads, from the copied ToolE files (eval/data/metatool):
 *
 * - eval/data/splits/toole.json: ToolE's single-tool and multi-tool queries split into train
 *   and test by a fixed rule: a query is in the test split when the first byte of the SHA-256
 *   of its text (UTF-8) is below 128, so the same text is always on the same side and the
 *   split never moves. The file lists the test indices (positions in `readToolE().single` and
 *   `.multi`, which keep the files' order).
 * - eval/data/transcripts/toole-train.jsonl: for each of the 199 tools, 10 conversations made
 *   from its train queries (all of them when it has fewer), in OpenAI's chat fine-tuning format:
 *   the query as the user message, an assistant tool call, a tool result, a short reply. The
 *   queries are chosen by SHA-256 of "toole-train-v1" + the query (smallest first), so the
 *   choice is seeded and stable. Tool names are the registry's: characters outside
 *   [A-Za-z0-9_] become "_" (`PDF&URLTool` → `PDF_URLTool`), as eval/run.mjs registers them.
 *
 * Nothing here is tuned: run it once; `node eval/prepare-data.mjs --check` verifies that the
 * committed files are what the rules give.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readToolE } from './datasets.mjs';

const DATA = join(dirname(fileURLToPath(import.meta.url)), 'data');
const SPLIT_FILE = join(DATA, 'splits/toole.json');
const TRANSCRIPT_FILE = join(DATA, 'transcripts/toole-train.jsonl');
const CONVERSATIONS_PER_TOOL = 10;
const SEED = 'toole-train-v1';

const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest();

/** Whether a ToolE query belongs to the test split. */
export function isTestQuery(query) {
  return sha256(query)[0] < 128;
}

/** The registry name of a ToolE tool (eval/run.mjs registers the same). */
export function toolEName(name) {
  return name.replace(/[^A-Za-z0-9_]/g, '_');
}

function buildSplit(data) {
  const indices = (entries) =>
    entries.flatMap((entry, index) => (isTestQuery(entry.query) ? [index] : []));
  return {
    rule: 'test when the first byte of SHA-256(query text, UTF-8) is below 128',
    source:
      'eval/data/metatool (readToolE in eval/datasets.mjs: single in CSV order, multi in file order)',
    single: { total: data.single.length, test: indices(data.single) },
    multi: { total: data.multi.length, test: indices(data.multi) },
  };
}

function buildTranscripts(data) {
  const lines = [];
  for (const tool of data.tools) {
    const queries = [
      ...new Set(
        data.single
          .filter((entry) => entry.tool === tool.name && !isTestQuery(entry.query))
          .map((entry) => entry.query),
      ),
    ];
    const chosen = queries
      .map((query) => ({ query, key: sha256(`${SEED}\n${query}`).toString('hex') }))
      .sort((a, b) => (a.key < b.key ? -1 : 1))
      .slice(0, CONVERSATIONS_PER_TOOL);
    const name = toolEName(tool.name);
    chosen.forEach(({ query }, index) => {
      const id = `call_${name}_${index}`;
      lines.push(
        JSON.stringify({
          messages: [
            { role: 'system', content: 'You are a helpful assistant with tools.' },
            { role: 'user', content: query },
            {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id,
                  type: 'function',
                  function: { name, arguments: JSON.stringify({ request: query }) },
                },
              ],
            },
            { role: 'tool', tool_call_id: id, content: '{"status": "ok"}' },
            { role: 'assistant', content: 'Done: here is what I found.' },
          ],
        }),
      );
    });
  }
  return `${lines.join('\n')}\n`;
}

// run as a script (eval/toole-eval.mjs imports the rules above)
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const data = readToolE();
  const splitText = `${JSON.stringify(buildSplit(data), null, 1)}\n`;
  const transcriptText = buildTranscripts(data);
  if (process.argv.includes('--check')) {
    const stale = [
      [SPLIT_FILE, splitText],
      [TRANSCRIPT_FILE, transcriptText],
    ].filter(([file, text]) => readFileSync(file, 'utf8') !== text);
    if (stale.length > 0) {
      console.error(`stale: ${stale.map(([file]) => file).join(', ')}`);
      process.exit(1);
    }
    console.log('eval data is what the rules give');
  } else {
    mkdirSync(dirname(SPLIT_FILE), { recursive: true });
    mkdirSync(dirname(TRANSCRIPT_FILE), { recursive: true });
    writeFileSync(SPLIT_FILE, splitText);
    writeFileSync(TRANSCRIPT_FILE, transcriptText);
    console.log(`wrote ${SPLIT_FILE} and ${TRANSCRIPT_FILE}`);
  }
}
