import { isObject, type Node, typesOf, walkSchema } from './walk-schema.js';

/** Provider rules (PROVIDERS.md §1): names, sizes, and the strict-mode JSON Schema subset. */
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX_TOOLS = 128;
const MAX_DESCRIPTION = 1024;
const STRICT_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'enum',
  'const',
  'description',
  'title',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);
const STRICT_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);
const ROOT_FORBIDDEN = ['oneOf', 'anyOf', 'allOf', 'enum', 'not'];

/** Problems of an OpenAI Chat Completions `tools` value (empty when it conforms). */
export function checkOpenAIChatPayload(payload: unknown): string[] {
  if (!Array.isArray(payload)) return ['payload is not an array'];
  const problems = checkCount(payload);
  payload.forEach((entry, index) => {
    if (!isObject(entry) || entry.type !== 'function' || !isObject(entry.function)) {
      problems.push(`tools[${index}]: not {type: "function", function: {...}}`);
      return;
    }
    problems.push(...checkFunction(entry.function, `tools[${index}].function`));
  });
  return problems;
}

/** Problems of an OpenAI Responses `tools` value. */
export function checkOpenAIResponsesPayload(payload: unknown): string[] {
  if (!Array.isArray(payload)) return ['payload is not an array'];
  const problems = checkCount(
    payload.filter((entry) => isObject(entry) && entry.type === 'function'),
  );
  payload.forEach((entry, index) => {
    if (isObject(entry) && entry.type === 'tool_search') return;
    if (!isObject(entry) || entry.type !== 'function' || Object.hasOwn(entry, 'function')) {
      problems.push(`tools[${index}]: not the flat {type: "function", name, ...}`);
      return;
    }
    problems.push(...checkFunction(entry, `tools[${index}]`));
  });
  const functions = payload.filter((entry) => isObject(entry) && entry.type === 'function');
  if (
    functions.length > 0 &&
    functions.every((entry) => (entry as Node).defer_loading === true) &&
    !payload.some((entry) => isObject(entry) && entry.type === 'tool_search')
  ) {
    problems.push('every tool is deferred and there is no tool_search tool');
  }
  return problems;
}

function checkCount(tools: unknown[]): string[] {
  return tools.length > MAX_TOOLS ? [`${tools.length} tools (max ${MAX_TOOLS})`] : [];
}

function checkFunction(fn: Node, where: string): string[] {
  const problems: string[] = [];
  if (typeof fn.name !== 'string' || !NAME.test(fn.name))
    problems.push(`${where}.name ${JSON.stringify(fn.name)} does not match ${NAME}`);
  if (fn.description !== undefined) {
    if (typeof fn.description !== 'string' || fn.description.length === 0)
      problems.push(`${where}.description is empty or not a string`);
    else if (fn.description.length > MAX_DESCRIPTION)
      problems.push(`${where}.description has ${fn.description.length} characters`);
  }
  if (typeof fn.strict !== 'boolean') problems.push(`${where}.strict is not sent explicitly`);
  const parameters = fn.parameters;
  if (!isObject(parameters)) return [...problems, `${where}.parameters is not an object`];
  if (parameters.type !== 'object')
    problems.push(`${where}.parameters root type is ${JSON.stringify(parameters.type)}`);
  for (const keyword of ROOT_FORBIDDEN) {
    if (Object.hasOwn(parameters, keyword))
      problems.push(`${where}.parameters has top-level ${keyword}`);
  }
  problems.push(...checkAlwaysRules(parameters, where));
  if (fn.strict === true) problems.push(...checkStrictRules(parameters, where));
  return problems;
}

/** What OpenAI rejects whatever `strict` says (§6 cases 4, 5, 9, 11). */
function checkAlwaysRules(schema: Node, where: string): string[] {
  const problems: string[] = [];
  walkSchema(schema, (node, pointer) => {
    if (!isObject(node)) return;
    const types = typesOf(node);
    if (types.includes('object') && !isObject(node.properties))
      problems.push(`${where}${pointer}: object schema missing properties`);
    if (types.includes('array') && node.items === undefined)
      problems.push(`${where}${pointer}: array schema missing items`);
    if (Object.hasOwn(node, '$ref') && Object.keys(node).length > 1)
      problems.push(`${where}${pointer}: $ref with sibling keywords`);
    if (Object.hasOwn(node, 'oneOf')) problems.push(`${where}${pointer}: oneOf`);
  });
  return problems;
}

/** Structured Outputs strict-mode rules (§1.3, §6 cases 1-3, 8-12) and limits. */
function checkStrictRules(schema: Node, where: string): string[] {
  const problems: string[] = [];
  let properties = 0;
  let enumValues = 0;
  let budget = 0;
  let maxDepth = 0;
  walkSchema(schema, (node, pointer, parents) => {
    const at = `${where}${pointer}`;
    if (!isObject(node)) {
      if (node === false && pointer.endsWith('/additionalProperties')) return;
      problems.push(`${at}: boolean schema`);
      return;
    }
    for (const key of Object.keys(node)) {
      if (!STRICT_KEYWORDS.has(key))
        problems.push(`${at}: keyword "${key}" is not in the strict subset`);
    }
    const types = typesOf(node);
    if (
      types.length === 0 &&
      !Array.isArray(node.anyOf) &&
      !Array.isArray(node.enum) &&
      !Object.hasOwn(node, 'const')
    ) {
      problems.push(`${at}: untyped schema`);
    }
    if (typeof node.format === 'string' && !STRICT_FORMATS.has(node.format))
      problems.push(`${at}: format "${node.format}"`);
    if (types.includes('object')) {
      if (node.additionalProperties !== false)
        problems.push(`${at}: additionalProperties is not false`);
      const keys = isObject(node.properties) ? Object.keys(node.properties) : [];
      const required = Array.isArray(node.required) ? node.required : [];
      const missing = keys.filter((key) => !required.includes(key));
      if (missing.length > 0 || required.length !== keys.length)
        problems.push(`${at}: required is not every key (missing ${missing.join(', ')})`);
      properties += keys.length;
      for (const key of keys) budget += key.length;
    }
    if (Array.isArray(node.enum)) {
      enumValues += node.enum.length;
      for (const value of node.enum) budget += value === null ? 0 : String(value).length;
      if (types.includes('null') && !node.enum.includes(null))
        problems.push(`${at}: nullable enum without null`);
    }
    const depth = [...parents, node].filter(
      (entry) =>
        isObject(entry) && (typesOf(entry).includes('object') || typesOf(entry).includes('array')),
    ).length;
    maxDepth = Math.max(maxDepth, depth);
  });
  if (properties > 5000) problems.push(`${where}: ${properties} properties`);
  if (enumValues > 1000) problems.push(`${where}: ${enumValues} enum values`);
  if (budget > 120_000) problems.push(`${where}: string budget ${budget}`);
  if (maxDepth > 10) problems.push(`${where}: ${maxDepth} levels of nesting`);
  return problems;
}
