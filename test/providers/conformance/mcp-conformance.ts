import { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { metaSchemaProblems } from './json-schema-meta.js';
import { isObject } from './walk-schema.js';

const NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Problems of MCP `tools/list` entries: the SDK's own Tool schema, name rules, valid JSON Schema. */
export function checkMcpPayload(payload: unknown): string[] {
  if (!Array.isArray(payload)) return ['payload is not an array'];
  const problems: string[] = [];
  payload.forEach((entry, index) => {
    const where = `tools[${index}]`;
    const parsed = ToolSchema.safeParse(entry);
    if (!parsed.success)
      problems.push(`${where}: rejected by the MCP SDK Tool schema: ${parsed.error.message}`);
    if (!isObject(entry)) return;
    if (typeof entry.name !== 'string' || !NAME.test(entry.name))
      problems.push(`${where}.name ${JSON.stringify(entry.name)}`);
    for (const key of ['inputSchema', 'outputSchema']) {
      const schema = entry[key];
      if (schema === undefined) continue;
      const declared = isObject(schema) ? schema.$schema : undefined;
      const dialect =
        typeof declared === 'string' && declared.includes('draft-07') ? 'draft-07' : '2020-12';
      for (const problem of metaSchemaProblems(schema, dialect))
        problems.push(`${where}.${key}: ${problem}`);
    }
  });
  return problems;
}
