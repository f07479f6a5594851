import { createRegistry } from '../../src/toolcap/create-registry.js';
import type { Registry } from '../../src/toolcap/registry.js';
import type { CreateRegistryOptions } from '../../src/toolcap/registry-options.js';

/** A valid tool entry with overrides (metadata is merged). */
export function tool(
  name: string,
  overrides: Record<string, unknown> = {},
  metadata: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    name,
    description: `Does ${name.replace(/_/g, ' ')}.`,
    category: 'retrieval',
    input_schema: { type: 'object', properties: {} },
    ...overrides,
    metadata: {
      executor: 'things',
      requires_context: [],
      cost_estimate: 'low',
      latency_estimate: 'fast',
      ...metadata,
    },
  };
}

/** A group document. */
export function group(
  name: string,
  selection: Record<string, unknown>,
  tools: readonly Record<string, unknown>[],
  description = `The ${name} tools.`,
): Record<string, unknown> {
  return { group: name, version: '1.0.0', description, selection, tools };
}

/** A keyword group whose single tool is `<name>_tool`. */
export function keywordGroup(name: string, keywords: readonly string[]): Record<string, unknown> {
  return group(name, { strategy: 'keyword', keywords }, [tool(`${name}_tool`)]);
}

/** A registry holding `groups`, registered in order. */
export function registryOf(
  groups: readonly Record<string, unknown>[],
  options: CreateRegistryOptions = {},
): Registry {
  let registry = createRegistry(options);
  for (const definition of groups) registry = registry.register(definition);
  return registry;
}

/** Names of the groups a selection's tools come from, in order, without repeats. */
export function selectedGroups(registry: Registry, message: string, options = {}): string[] {
  const groups: string[] = [];
  for (const selected of registry.select(message, options).tools) {
    if (!groups.includes(selected.group)) groups.push(selected.group);
  }
  return groups;
}
