import type { InputProblem, ToolCallError } from '../../execute/types.js';
import { invalidInputError } from '../../execute/validate-tool-input.js';
import { parsePointer } from '../../format/json-pointer.js';
import { DEFAULT_LOAD_LIMITS } from '../../format/limits.js';
import type { JsonSchema } from '../../format/types.js';
import { measureAndFreeze } from '../../json-schema/check-schema.js';
import { planPropertyRenames } from '../../json-schema/plan-property-renames.js';
import { defineEntry, isPlainObject, type SchemaNode } from '../../json-schema/schema-node.js';
import { ANTHROPIC_PROPERTY_NAMES } from '../../providers/anthropic-prepare-tools.js';
import { shortenName } from '../../util/shorten-name.js';

/** An upstream tool served with renamed top-level property keys (`safePropertyNames`). */
export interface RenamedProperties {
  /** The server's own input schema: calls are checked against it, with the server's keys. */
  serverSchema: JsonSchema;
  /** The schema clients see, with the new keys. */
  servedSchema: JsonSchema;
  /** The server's key → the key clients see, for each renamed key, in the schema's order. */
  toServed: ReadonlyMap<string, string>;
  /** The key clients see → the server's key. */
  toServer: ReadonlyMap<string, string>;
}

/** The arguments of a call with the server's keys, or why they cannot be forwarded. */
export type ServerArguments =
  | {
      ok: true;
      input: Record<string, unknown>;
      /** The server's key → the key messages name it by: the one the client sent, else the new one. */
      clientNames: ReadonlyMap<string, string>;
    }
  | { ok: false; error: ToolCallError };

/**
 * The top-level `properties` keys of `schema` that the Anthropic Messages API and Bedrock Converse
 * reject (`^[a-zA-Z0-9_.-]{1,64}$`), in the schema's order.
 */
export function findUnsafePropertyNames(schema: JsonSchema): string[] {
  const properties = schema.properties;
  if (!isPlainObject(properties)) return [];
  return Object.keys(properties).filter((name) => !ANTHROPIC_PROPERTY_NAMES.pattern.test(name));
}

/**
 * `schema` (a frozen served input schema) with the top-level property keys Anthropic and Bedrock
 * reject renamed (`planPropertyRenames`): in `properties` and `required`, and wherever the schema
 * names them for the same object (`dependentRequired`, `dependentSchemas`, `dependencies`, the
 * branches of `allOf`, `anyOf`, `oneOf`, `not`, `if`, `then`, `else`). Keys of nested objects keep
 * their names: the APIs check the top level only. Undefined when every key is accepted.
 */
export function renameProperties(schema: JsonSchema): RenamedProperties | undefined {
  const properties = schema.properties;
  if (!isPlainObject(properties)) return undefined;
  const toServed = planPropertyRenames(Object.keys(properties), ANTHROPIC_PROPERTY_NAMES);
  if (toServed.size === 0) return undefined;
  const servedSchema = renameNode(schema, toServed) as JsonSchema;
  // as deep and as large as the server's schema, which passed the limits: this only freezes
  measureAndFreeze(servedSchema, DEFAULT_LOAD_LIMITS);
  const toServer = new Map<string, string>();
  for (const [from, to] of toServed) toServer.set(to, from);
  return { serverSchema: schema, servedSchema, toServed, toServer };
}

/**
 * A call's arguments with the server's keys, in the order sent: a new key becomes the server's,
 * and the server's own key is accepted as it is. A key sent both ways is an `INVALID_INPUT` error.
 */
export function toServerArguments(
  toolName: string,
  input: Record<string, unknown>,
  renamed: RenamedProperties,
): ServerArguments {
  const output: Record<string, unknown> = {};
  const clientNames = new Map(renamed.toServed);
  for (const [key, value] of Object.entries(input)) {
    const server = renamed.toServer.get(key);
    if (server === undefined) {
      // a key the client sent as the server names it: messages name it that way too
      clientNames.delete(key);
      defineEntry(output, key, value);
    } else if (Object.hasOwn(input, server)) {
      const problem = `"${key}" and "${shortenName(server)}" are one parameter ("${key}" is how this gateway lists the server's "${shortenName(server)}"); send it once, as "${key}"`;
      return {
        ok: false,
        error: invalidInputError(toolName, [
          { pointer: `/${key}`, keyword: 'duplicate', message: problem },
        ]),
      };
    } else {
      defineEntry(output, server, value);
    }
  }
  return { ok: true, input: output, clientNames };
}

/**
 * `error`, from checking the server's keys against the server's schema, with each renamed key
 * named as in `clientNames` (`/filter[id] must be string` → `/filter_id must be string`).
 */
export function errorForClient(
  toolName: string,
  error: ToolCallError,
  clientNames: ReadonlyMap<string, string>,
): ToolCallError {
  if (error.code !== 'INVALID_INPUT' || !Array.isArray(error.details)) return error;
  const problems = (error.details as unknown as InputProblem[]).map((problem) =>
    renameProblem(problem, clientNames),
  );
  return invalidInputError(toolName, problems);
}

const MAX_TOOLS_SHOWN = 3;
const MAX_KEYS_SHOWN = 3;

/**
 * The operator's note on one server's tools whose top-level property keys Anthropic and Bedrock
 * reject: each tool with its keys (`to` set when renamed), a few of each, then how many more.
 */
export function describeUnsafeProperties(
  tools: readonly { tool: string; keys: readonly { from: string; to?: string }[] }[],
): string {
  const shown = tools.slice(0, MAX_TOOLS_SHOWN).map(({ tool, keys }) => {
    const listed = keys
      .slice(0, MAX_KEYS_SHOWN)
      .map(({ from, to }) =>
        to === undefined
          ? JSON.stringify(shortenName(from))
          : `${JSON.stringify(shortenName(from))} → "${to}"`,
      );
    return `${tool} (${listed.join(', ')}${more(keys.length - listed.length)})`;
  });
  const list = `${shown.join(', ')}${more(tools.length - shown.length)}`;
  const rule = `they must match ${ANTHROPIC_PROPERTY_NAMES.pattern.source}`;
  if (tools.some(({ keys }) => keys.some((key) => key.to === undefined))) {
    return `${tools.length} tool(s) have top-level property keys that the Anthropic Messages API and Bedrock Converse reject (${rule}): ${list}. A client that sends these tools to Claude on either (Claude Code does) gets 400 "Property keys should match pattern": the whole request fails, whichever tool it calls. toolcap mcp --safe-property-names (createGateway option safePropertyNames) serves them under names that match`;
  }
  return `renamed the top-level property keys that the Anthropic Messages API and Bedrock Converse reject (${rule}) of ${tools.length} tool(s): ${list}; clients see the new names, calls reach the server with its own`;
}

function more(count: number): string {
  return count > 0 ? ` and ${count} more` : '';
}

/** Subschemas that describe the same object as the node they are in. */
const SAME_OBJECT_LISTS = ['allOf', 'anyOf', 'oneOf'];
const SAME_OBJECT_SCHEMAS = ['not', 'if', 'then', 'else'];
/** Keywords keyed by property name: lists of property names, or schemas of the same object. */
const KEYED_BY_PROPERTY = ['dependentRequired', 'dependentSchemas', 'dependencies'];

/** A copy of `node` with the property names in `names` renamed (unchanged parts shared). */
function renameNode(node: SchemaNode, names: ReadonlyMap<string, string>): SchemaNode {
  const copy: SchemaNode = { ...node };
  if (isPlainObject(node.properties)) copy.properties = renameKeys(node.properties, names);
  if (Array.isArray(node.required)) copy.required = renameList(node.required, names);
  for (const keyword of KEYED_BY_PROPERTY) {
    const value = node[keyword];
    if (!isPlainObject(value)) continue;
    copy[keyword] = renameKeys(value, names, (entry) =>
      Array.isArray(entry)
        ? renameList(entry, names)
        : isPlainObject(entry)
          ? renameNode(entry, names)
          : entry,
    );
  }
  for (const keyword of SAME_OBJECT_LISTS) {
    const value = node[keyword];
    if (!Array.isArray(value)) continue;
    copy[keyword] = value.map((entry) => (isPlainObject(entry) ? renameNode(entry, names) : entry));
  }
  for (const keyword of SAME_OBJECT_SCHEMAS) {
    const value = node[keyword];
    if (isPlainObject(value)) copy[keyword] = renameNode(value, names);
  }
  return copy;
}

function renameKeys(
  map: SchemaNode,
  names: ReadonlyMap<string, string>,
  mapValue: (value: unknown) => unknown = (value) => value,
): SchemaNode {
  const renamed: SchemaNode = {};
  for (const [key, value] of Object.entries(map)) {
    defineEntry(renamed, names.get(key) ?? key, mapValue(value));
  }
  return renamed;
}

function renameList(list: readonly unknown[], names: ReadonlyMap<string, string>): unknown[] {
  return list.map((entry) => (typeof entry === 'string' ? (names.get(entry) ?? entry) : entry));
}

const MISSING = 'missing required property "';

/** One input problem with the top-level key it is about named as in `names`. */
function renameProblem(problem: InputProblem, names: ReadonlyMap<string, string>): InputProblem {
  const { pointer, message } = problem;
  // "must have property c[d] when property a b is present": keys named in the text
  if (problem.keyword === 'dependentRequired' || problem.keyword === 'dependencies') {
    return { ...problem, message: renamePropertyMentions(message, names) };
  }
  // a missing top-level key: the pointer is "/" + the key as it is, not escaped
  if (problem.keyword === 'required' && message.startsWith(MISSING) && message.endsWith('"')) {
    const missing = message.slice(MISSING.length, -1);
    if (pointer === `/${missing}`) {
      const name = names.get(missing);
      return name === undefined
        ? problem
        : { ...problem, pointer: `/${name}`, message: `${MISSING}${name}"` };
    }
  }
  if (!pointer.startsWith('/')) return problem;
  const end = pointer.indexOf('/', 1);
  const token = pointer.slice(1, end === -1 ? undefined : end);
  const name = names.get(parsePointer(`/${token}`)[0]!);
  if (name === undefined) return problem;
  const from = `/${token}`;
  // new names are letters, digits and "_": nothing to escape
  const to = `/${name}`;
  return {
    ...problem,
    pointer: `${to}${pointer.slice(from.length)}`,
    message: renamePath(message, from, to),
  };
}

/** `message` with each "property KEY " naming a renamed key rewritten, in one pass. */
function renamePropertyMentions(message: string, names: ReadonlyMap<string, string>): string {
  const keys = [...names.keys()].filter((key) => names.get(key) !== key);
  if (keys.length === 0) return message;
  // longest first, so "a b" is not read as "a" where both are keys
  const alternatives = keys
    .sort((a, b) => b.length - a.length)
    .map((key) => key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const pattern = new RegExp(`property (${alternatives.join('|')}) `, 'g');
  return message.replace(pattern, (_match, key: string) => `property ${names.get(key)} `);
}

/** `message` with the path `from` renamed where messages name it: first, or after " in ". */
function renamePath(message: string, from: string, to: string): string {
  const endsAt = (index: number) => {
    const next = message[index + from.length];
    return next === undefined || next === ' ' || next === '/' || next === ';';
  };
  if (message.startsWith(from) && endsAt(0)) return `${to}${message.slice(from.length)}`;
  const at = message.indexOf(` in ${from}`);
  if (at >= 0 && endsAt(at + 4)) {
    return `${message.slice(0, at + 4)}${to}${message.slice(at + 4 + from.length)}`;
  }
  return message;
}
