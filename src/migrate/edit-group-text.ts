import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
type Jsonc = typeof import('jsonc-parser');
type JsonNode = NonNullable<ReturnType<Jsonc['parseTree']>>;

let jsonc: Jsonc | undefined;

/** How a group file is laid out: its indentation unit and line ending. */
export interface TextStyle {
  /** One level of indentation: a tab, or the first indented line's spaces. */
  indent: string;
  eol: string;
}

/** The indentation and line ending `text` uses (two spaces and `\n` when it has none). */
export function detectTextStyle(text: string): TextStyle {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indent = /\n([ \t]+)\S/.exec(text)?.[1];
  if (indent === undefined) return { indent: '  ', eol };
  return { indent: indent.startsWith('\t') ? '\t' : indent, eol };
}

/**
 * `text` with the `example_requests` of the tool at `tools[position]` set to `requests`,
 * touching nothing else: an existing array is replaced in place, a missing one is added after
 * the tool's last field. The array is written one request per line, indented like the field
 * beside it, when that field starts its own line; on one line when the tool is written on one
 * line. `text` must be valid JSON without a byte order mark.
 */
export function setToolExampleRequests(
  text: string,
  position: number,
  requests: readonly string[],
  style: TextStyle,
): string {
  const root = parse(text);
  const parser = loadJsonc();
  const current = parser.findNodeAtLocation(root, ['tools', position, 'example_requests']);
  if (current?.parent !== undefined) {
    const indent = lineIndent(text, current.parent.offset);
    return splice(text, current.offset, current.length, renderArray(requests, indent, style));
  }
  const tool = parser.findNodeAtLocation(root, ['tools', position]);
  const last = tool?.children?.at(-1);
  if (tool?.type !== 'object' || last === undefined) {
    throw new Error(`tools/${position} is not a tool object with fields`);
  }
  const indent = lineIndent(text, last.offset);
  const separator = indent === undefined ? ', ' : `,${style.eol}${indent}`;
  const field = `${separator}"example_requests": ${renderArray(requests, indent, style)}`;
  return splice(text, last.offset + last.length, 0, field);
}

/** `text` with the top-level `version` string replaced by `version`. */
export function setGroupVersion(text: string, version: string): string {
  const node = loadJsonc().findNodeAtLocation(parse(text), ['version']);
  if (node === undefined) throw new Error('the file has no "version"');
  return splice(text, node.offset, node.length, JSON.stringify(version));
}

function renderArray(
  requests: readonly string[],
  indent: string | undefined,
  style: TextStyle,
): string {
  const items = requests.map((request) => JSON.stringify(request));
  if (indent === undefined) return `[${items.join(', ')}]`;
  if (items.length === 0) return '[]';
  const inner = `${indent}${style.indent}`;
  return `[${style.eol}${items.map((item) => `${inner}${item}`).join(`,${style.eol}`)}${style.eol}${indent}]`;
}

/** The whitespace before `offset` on its line, or undefined when something else precedes it. */
function lineIndent(text: string, offset: number): string | undefined {
  let start = offset;
  while (start > 0 && text[start - 1] !== '\n') start--;
  const prefix = text.slice(start, offset);
  return /^[ \t]*$/.test(prefix) ? prefix : undefined;
}

function splice(text: string, offset: number, length: number, insert: string): string {
  return `${text.slice(0, offset)}${insert}${text.slice(offset + length)}`;
}

function parse(text: string): JsonNode {
  const root = loadJsonc().parseTree(text);
  if (root === undefined) throw new Error('the file is not JSON');
  return root;
}

function loadJsonc(): Jsonc {
  // loaded on demand, as the loader does: only learning edits files
  jsonc ??= require('jsonc-parser') as Jsonc;
  return jsonc;
}
