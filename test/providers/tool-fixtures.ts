import type { JsonSchema, RegisteredTool, ToolDefinition } from '../../src/format/types.js';

/** A neutral tool with `input_schema` and overrides, as translate() receives it. */
export function makeTool(
  inputSchema: JsonSchema,
  overrides: Partial<ToolDefinition> = {},
): ToolDefinition {
  return {
    name: 'sample_tool',
    description: 'A sample tool.',
    category: 'retrieval',
    input_schema: inputSchema,
    metadata: {
      executor: 'sample',
      requires_context: [],
      cost_estimate: 'low',
      latency_estimate: 'fast',
    },
    ...overrides,
  };
}

/** A registry-shaped tool (with group and version). */
export function makeRegisteredTool(
  inputSchema: JsonSchema,
  overrides: Partial<RegisteredTool> = {},
): RegisteredTool {
  return {
    ...makeTool(inputSchema),
    group: 'sample',
    version: '1.0.0',
    source: 'registered',
    index: 0,
    ...overrides,
  };
}

/** Every JSON Schema node of `schema` (objects only), depth first. */
export function schemaNodes(schema: unknown): Record<string, unknown>[] {
  const nodes: Record<string, unknown>[] = [];
  const visit = (value: unknown, isMap: boolean) => {
    if (Array.isArray(value)) {
      for (const entry of value) visit(entry, false);
      return;
    }
    if (value === null || typeof value !== 'object') return;
    const object = value as Record<string, unknown>;
    if (!isMap) nodes.push(object);
    for (const [key, child] of Object.entries(object)) {
      if (
        key === 'enum' ||
        key === 'const' ||
        key === 'default' ||
        key === 'examples' ||
        key === 'example'
      )
        continue;
      visit(child, !isMap && (key === 'properties' || key === '$defs' || key === 'definitions'));
    }
  };
  visit(schema, false);
  return nodes;
}
