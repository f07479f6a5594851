import type { ToolDefinition } from '../format/types.js';

/** The group a tool belongs to, or null for tools outside a registry. */
export function groupOf(tool: ToolDefinition): string | null {
  const group = (tool as { group?: unknown }).group;
  return typeof group === 'string' ? group : null;
}
