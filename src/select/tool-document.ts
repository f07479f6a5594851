import type { RegisteredGroup, RegisteredTool } from '../format/types.js';

/** A text field of the documents relevance ranking scores, with its BM25F weight. */
export interface DocumentField {
  /** Name in `RelevanceParameters.fields` and in docs. */
  name: string;
  /** Whose text it is: the tool's own, or its group's (shared by the group's tools). */
  scope: 'tool' | 'group';
  /** How much a term in this field counts. */
  weight: number;
  /** Length normalization: 0 ignores the field's length, 1 normalizes fully. */
  b: number;
  /** Whether the same text recurs across tools (titles, tags): analyzed once per distinct text. */
  repeats: boolean;
  /**
   * Whether only some tools have the field (example requests): its average length is taken
   * over those tools, so that one tool's text is not judged long against tools without any.
   */
  sparse?: boolean;
}

/**
 * The fields of a tool's document, in scoring order. The tool name counts most, then the
 * group's keywords, title and tags, then the description; parameter text, the example requests
 * (many, so each counts little, and normalized by their total length against the tools that
 * have some) and the group
 * description are weaker evidence.
 */
export const DOCUMENT_FIELDS: readonly DocumentField[] = Object.freeze([
  { name: 'name', scope: 'tool', weight: 3, b: 0.5, repeats: false },
  { name: 'title', scope: 'tool', weight: 2, b: 0.5, repeats: true },
  { name: 'tags', scope: 'tool', weight: 1.5, b: 0.5, repeats: true },
  { name: 'description', scope: 'tool', weight: 1, b: 0.75, repeats: false },
  { name: 'parameterNames', scope: 'tool', weight: 0.6, b: 0.75, repeats: true },
  { name: 'parameterTexts', scope: 'tool', weight: 0.2, b: 0.75, repeats: false },
  { name: 'exampleRequests', scope: 'tool', weight: 0.3, b: 1, repeats: false, sparse: true },
  { name: 'keywords', scope: 'group', weight: 1.5, b: 0.5, repeats: true },
  { name: 'group', scope: 'group', weight: 0.5, b: 0.5, repeats: true },
] satisfies DocumentField[]);

/** BM25's term-frequency saturation. */
export const BM25_K1 = 1.2;

const MAX_PARAMETER_DEPTH = 4;
const MAX_PARAMETER_TEXT = 4_000;

/** The texts of the tool-scope fields of `DOCUMENT_FIELDS`, in order. */
export function toolFieldTexts(tool: RegisteredTool): string[] {
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
    (tool.example_requests ?? []).join(' '),
  ];
}

/** The texts of the group-scope fields of `DOCUMENT_FIELDS`, in order (empty for no group). */
export function groupFieldTexts(group: RegisteredGroup | undefined): string[] {
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
