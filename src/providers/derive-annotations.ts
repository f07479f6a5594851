import type { ToolAnnotations, ToolCategory } from '../format/types.js';

/**
 * MCP hints implied by a category: `retrieval`/`analysis` only read (`readOnlyHint: true`),
 * `mutation` may destroy (`destructiveHint: true`), `creation` only adds (`destructiveHint: false`).
 */
export function annotationsForCategory(category: ToolCategory): ToolAnnotations {
  switch (category) {
    case 'retrieval':
    case 'analysis':
      return { readOnlyHint: true };
    case 'mutation':
      return { destructiveHint: true };
    case 'creation':
      return { destructiveHint: false };
  }
}

/**
 * The annotations an MCP client sees: those derived from `category`, overridden by the ones the
 * tool sets, in the spec's key order. Undefined when there are none.
 */
export function deriveAnnotations(
  category: ToolCategory,
  given: ToolAnnotations | undefined,
): ToolAnnotations | undefined {
  const merged: ToolAnnotations = { ...annotationsForCategory(category), ...given };
  const ordered: ToolAnnotations = {};
  if (merged.title !== undefined) ordered.title = merged.title;
  if (merged.readOnlyHint !== undefined) ordered.readOnlyHint = merged.readOnlyHint;
  if (merged.destructiveHint !== undefined) ordered.destructiveHint = merged.destructiveHint;
  if (merged.idempotentHint !== undefined) ordered.idempotentHint = merged.idempotentHint;
  if (merged.openWorldHint !== undefined) ordered.openWorldHint = merged.openWorldHint;
  return Object.keys(ordered).length === 0 ? undefined : ordered;
}
