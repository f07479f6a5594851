import type { RegisteredGroup, RegisteredTool } from '../format/types.js';

/** The text fields of a tool that relevance ranking reads, in `RELEVANCE_FIELDS` order. */
export type ToolFieldTexts = [
  name: string,
  title: string,
  tags: string,
  description: string,
  parameterNames: string,
  parameterTexts: string,
];

/** The text fields of a group shared by its tools: keywords, then name and description. */
export type GroupFieldTexts = [keywords: string, group: string];

const MAX_PARAMETER_DEPTH = 4;
const MAX_PARAMETER_TEXT = 4_000;

/**
 * The tool's own searchable text: name, title, tags, description, then its parameters' names
 * and their descriptions, titles and enum values (separate fields: names are stronger evidence).
 */
export function toolFieldTexts(tool: RegisteredTool): ToolFieldTexts {
  const names: string[] = [];
  const texts: string[] = [];
  collectSchemaText(tool.input_schema, 0, names, texts, { length: 0 });
  return [
    tool.name,
    tool.title ?? '',
    (tool.tags ?? []).join(' '),
    tool.description,
    names.join(' '),
    texts.join(' '),
  ];
}

/** The group's searchable text, shared by each of its tools. */
export function groupFieldTexts(group: RegisteredGroup | undefined): GroupFieldTexts {
  if (group === undefined) return ['', ''];
  return [(group.selection.keywords ?? []).join(' '), `${group.group} ${group.description}`];
}

/**
 * Property names (split later as identifiers), descriptions, titles and string enum values of
 * a JSON Schema, depth-first, bounded so a huge schema cannot dominate the index.
 */
function collectSchemaText(
  schema: unknown,
  depth: number,
  names: string[],
  texts: string[],
  budget: { length: number },
): void {
  if (depth > MAX_PARAMETER_DEPTH || schema === null || typeof schema !== 'object') return;
  if (budget.length > MAX_PARAMETER_TEXT) return;
  const node = schema as Record<string, unknown>;
  const push = (text: string, out: string[] = texts) => {
    out.push(text);
    budget.length += text.length + 1;
  };
  if (depth > 0) {
    if (typeof node.title === 'string') push(node.title);
    if (typeof node.description === 'string') push(node.description);
    if (Array.isArray(node.enum)) {
      for (const value of node.enum) if (typeof value === 'string') push(value);
    }
  }
  const properties = node.properties;
  if (properties !== null && typeof properties === 'object' && !Array.isArray(properties)) {
    for (const [name, child] of Object.entries(properties as Record<string, unknown>)) {
      push(name, names);
      collectSchemaText(child, depth + 1, names, texts, budget);
    }
  }
  if (node.items !== undefined) collectSchemaText(node.items, depth + 1, names, texts, budget);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = node[key];
    if (Array.isArray(list))
      for (const child of list) collectSchemaText(child, depth + 1, names, texts, budget);
  }
}
