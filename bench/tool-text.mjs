/**
 * The same texts `registry.search` indexes, as minisearch documents: name, title, tags,
 * description, parameter names, parameter descriptions / enum values, group keywords and the
 * group's name and description.
 */

function collectSchemaText(schema, depth, names, texts) {
  if (depth > 4 || schema === null || typeof schema !== 'object') return;
  if (depth > 0) {
    if (typeof schema.title === 'string') texts.push(schema.title);
    if (typeof schema.description === 'string') texts.push(schema.description);
    if (Array.isArray(schema.enum)) {
      for (const value of schema.enum) if (typeof value === 'string') texts.push(value);
    }
  }
  if (schema.properties !== null && typeof schema.properties === 'object') {
    for (const [name, child] of Object.entries(schema.properties)) {
      names.push(name);
      collectSchemaText(child, depth + 1, names, texts);
    }
  }
  if (schema.items !== undefined) collectSchemaText(schema.items, depth + 1, names, texts);
}

/** minisearch documents for the tools of `groups` (group definitions), ids in catalog order. */
export function toolDocuments(groups) {
  const documents = [];
  for (const group of groups) {
    for (const tool of group.tools) {
      const names = [];
      const texts = [];
      collectSchemaText(tool.input_schema, 0, names, texts);
      documents.push({
        id: documents.length,
        name: tool.name,
        title: tool.title ?? '',
        tags: (tool.tags ?? []).join(' '),
        description: tool.description,
        parameterNames: names.join(' '),
        parameterTexts: texts.join(' '),
        keywords: (group.selection.keywords ?? []).join(' '),
        group: `${group.group} ${group.description}`,
      });
    }
  }
  return documents;
}

/** The fields of `toolDocuments`, for minisearch's `fields` option. */
export const TOOL_TEXT_FIELDS = [
  'name',
  'title',
  'tags',
  'description',
  'parameterNames',
  'parameterTexts',
  'keywords',
  'group',
];
