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

/**
 * `text` (an overlay file) with the `example_requests` of `x-upstream.tools[key]` set to
 * `requests`, touching nothing else: an existing array is replaced in place, a missing one is
 * added (with the entry, and `tools`, when missing) in the file's indentation. `text` must be
 * valid JSON without a byte order mark and have an `x-upstream` object.
 */
export function setOverlayExampleRequests(
  text: string,
  key: string,
  requests: readonly string[],
  style: TextStyle,
): string {
  const parser = loadJsonc();
  const root = parse(text);
  const path = ['x-upstream', 'tools', key, 'example_requests'];
  const current = parser.findNodeAtLocation(root, path);
  if (current?.parent !== undefined) {
    const indent = lineIndent(text, current.parent.offset);
    return splice(text, current.offset, current.length, renderArray(requests, indent, style));
  }
  // the deepest object on the path that exists gets the rest of the path
  let depth = path.length - 1;
  let owner = parser.findNodeAtLocation(root, path.slice(0, depth));
  while (owner === undefined && depth > 1) {
    depth--;
    owner = parser.findNodeAtLocation(root, path.slice(0, depth));
  }
  if (owner?.type !== 'object') {
    throw new Error(`${path.slice(0, depth).join('.')} is not an object`);
  }
  const rest = path.slice(depth);
  const render = (keys: readonly string[], indent: string | undefined): string => {
    const name = JSON.stringify(keys[0]);
    if (keys.length === 1) return `${name}: ${renderArray(requests, indent, style)}`;
    if (indent === undefined) return `${name}: {${render(keys.slice(1), undefined)}}`;
    const inner = `${indent}${style.indent}`;
    return `${name}: {${style.eol}${inner}${render(keys.slice(1), inner)}${style.eol}${indent}}`;
  };
  const last = owner.children?.at(-1);
  if (last !== undefined) {
    const indent = lineIndent(text, last.offset);
    const separator = indent === undefined ? ', ' : `,${style.eol}${indent}`;
    return splice(text, last.offset + last.length, 0, `${separator}${render(rest, indent)}`);
  }
  const outer = leadingWhitespace(text, owner.offset);
  const inner = `${outer}${style.indent}`;
  const body = `{${style.eol}${inner}${render(rest, inner)}${style.eol}${outer}}`;
  return splice(text, owner.offset, owner.length, body);
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

/** The spaces and tabs that start the line `offset` is on. */
function leadingWhitespace(text: string, offset: number): string {
  let start = offset;
  while (start > 0 && text[start - 1] !== '\n') start--;
  return /^[ \t]*/.exec(text.slice(start, offset))?.[0] ?? '';
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
