/** Readers for the copied evaluation data (eval/data, see each SOURCE.md). */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DATA = join(dirname(fileURLToPath(import.meta.url)), 'data');

/** RFC 4180 CSV rows (quoted fields may hold commas, quotes and newlines). */
export function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** MetaTool / ToolE: 199 tools, single-tool and multi-tool queries. */
export function readToolE() {
  const descriptions = JSON.parse(readFileSync(join(DATA, 'metatool/plugin_des.json'), 'utf8'));
  const rows = parseCsv(readFileSync(join(DATA, 'metatool/all_clean_data.csv'), 'utf8'));
  const header = rows.shift();
  if (header?.[0] !== 'Query' || header?.[1] !== 'Tool')
    throw new Error('unexpected ToolE CSV header');
  const single = rows
    .filter((row) => row.length === 2 && row[0] !== '')
    .map(([query, tool]) => ({ query, tool }));
  const multi = JSON.parse(
    readFileSync(join(DATA, 'metatool/multi_tool_query_golden.json'), 'utf8'),
  );
  return {
    tools: Object.entries(descriptions).map(([name, description]) => ({ name, description })),
    single,
    multi: multi.map((entry) => ({ query: entry.query, tools: entry.tool })),
  };
}

function readJsonLines(path) {
  return readFileSync(join(DATA, path), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

/** The user turns of a BFCL question, joined (system prompts are not the user's query). */
function userText(question) {
  return question.question
    .flat()
    .filter((message) => message.role === 'user')
    .map((message) => message.content)
    .join('\n');
}

/** A BFCL category: questions with candidate functions and, when known, the gold function. */
export function readBfcl(category, { answers = true } = {}) {
  const questions = readJsonLines(`bfcl/BFCL_v4_${category}.json`);
  const gold = new Map();
  if (answers) {
    for (const answer of readJsonLines(`bfcl/possible_answer/BFCL_v4_${category}.json`)) {
      gold.set(answer.id, Object.keys(answer.ground_truth[0] ?? {})[0]);
    }
  }
  return questions.map((question) => ({
    id: question.id,
    query: userText(question),
    functions: question.function,
    gold: gold.get(question.id),
  }));
}
