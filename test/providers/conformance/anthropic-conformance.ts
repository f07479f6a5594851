import { metaSchemaProblems } from './json-schema-meta.js';
import { isObject } from './walk-schema.js';

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const SERVER_TOOLS = new Set(['tool_search_tool_bm25_20251119', 'tool_search_tool_regex_20251119']);

/** Problems of an Anthropic Messages `tools` value (PROVIDERS.md §2, §6 cases 16-20). */
export function checkAnthropicPayload(payload: unknown): string[] {
  if (!Array.isArray(payload)) return ['payload is not an array'];
  const problems: string[] = [];
  const custom = payload.filter(
    (entry) => !(isObject(entry) && typeof entry.type === 'string' && SERVER_TOOLS.has(entry.type)),
  );
  payload.forEach((entry, index) => {
    const where = `tools.${index}`;
    if (!isObject(entry)) {
      problems.push(`${where}: not an object`);
      return;
    }
    if (typeof entry.type === 'string' && SERVER_TOOLS.has(entry.type)) return;
    if (typeof entry.name !== 'string' || !NAME.test(entry.name))
      problems.push(`${where}.custom.name ${JSON.stringify(entry.name)} does not match ${NAME}`);
    if (
      entry.description !== undefined &&
      (typeof entry.description !== 'string' || entry.description === '')
    )
      problems.push(`${where}.description is empty`);
    const schema = entry.input_schema;
    if (!isObject(schema)) {
      problems.push(`${where}.input_schema is not an object`);
      return;
    }
    if (schema.type !== 'object')
      problems.push(`${where}.input_schema.type is ${JSON.stringify(schema.type)}`);
    for (const keyword of ['oneOf', 'anyOf', 'allOf']) {
      if (Object.hasOwn(schema, keyword))
        problems.push(`${where}.input_schema: ${keyword} at the top level`);
    }
    for (const problem of metaSchemaProblems(schema))
      problems.push(`${where}.input_schema is not valid 2020-12: ${problem}`);
    if (entry.cache_control !== undefined && index !== payload.length - 1)
      problems.push(`${where}: cache_control on a tool that is not the last`);
  });
  const deferrable = payload.filter(
    (entry) => isObject(entry) && !(typeof entry.type === 'string' && SERVER_TOOLS.has(entry.type)),
  );
  if (
    custom.length > 0 &&
    payload.every((entry) => isObject(entry) && entry.defer_loading === true) &&
    deferrable.length === payload.length
  ) {
    problems.push('every tool has defer_loading=true');
  }
  return problems;
}
