import type { Warning } from '../format/types.js';
import { createWarningSink } from '../json-schema/schema-warnings.js';
import type { CanonicalTool } from '../providers/provider-types.js';
import { type ParamDefinition, paramsToJsonSchema } from '../registry/fallback-tools.js';

/**
 * Converts param-list tools (`{ name, description, params: [{ name, type, description, required,
 * default }] }`; `parameters` as a list is accepted too) into canonical tools (`{ name,
 * description, parameters }` with a JSON Schema), so the canonical importer can fix names and
 * types. Type names spelled as code spells them (`str`, `dict`) are converted here, a
 * `TYPE_CONVERTED` warning each. Entries that are not such tools are skipped with an
 * `INVALID_PARAM_TOOL` warning.
 */
export function paramsToCanonical(entries: readonly unknown[]): {
  tools: CanonicalTool[];
  warnings: Warning[];
} {
  const tools: CanonicalTool[] = [];
  const warnings: Warning[] = [];
  entries.forEach((entry, index) => {
    const tool = entry as Record<string, unknown> | null;
    const params = Array.isArray(tool?.params)
      ? tool.params
      : Array.isArray(tool?.parameters)
        ? tool.parameters
        : undefined;
    const name = tool?.name;
    const valid =
      typeof name === 'string' &&
      params !== undefined &&
      params.every(
        (param) =>
          param !== null &&
          typeof param === 'object' &&
          typeof (param as { name?: unknown }).name === 'string' &&
          typeof (param as { type?: unknown }).type === 'string',
      );
    if (!valid) {
      warnings.push({
        code: 'INVALID_PARAM_TOOL',
        pointer: `/${index}`,
        message: `entry ${index}${typeof name === 'string' ? ` ("${name}")` : ''} is not a param-list tool { name, description, params: [{ name, type, ... }] }; skipped: give it a string "name" and a "params" array whose entries each have a string "name" and "type"`,
        ...(typeof name === 'string' ? { tool: name } : {}),
      });
      return;
    }
    const sink = createWarningSink();
    tools.push({
      name,
      description: typeof tool?.description === 'string' ? tool.description : '',
      parameters: paramsToJsonSchema(params as ParamDefinition[], sink),
    });
    warnings.push(...sink.finish(name));
  });
  return { tools, warnings };
}
