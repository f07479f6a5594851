import { isObject, type Node } from './walk-schema.js';

/** Gemini function names (PROVIDERS.md §3.2, the strictest observed rule). */
const NAME = /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/;
/** Gemini Schema fields (OpenAPI 3.0 subset); anything else is "Unknown name ... Cannot find field". */
const SCHEMA_KEYS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'minItems',
  'maxItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'anyOf',
  'propertyOrdering',
  'default',
  'example',
]);
const TYPES = new Set(['STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT']);
const FORMATS: Record<string, Set<string>> = {
  STRING: new Set(['enum', 'date-time']),
  NUMBER: new Set(['float', 'double']),
  INTEGER: new Set(['int32', 'int64']),
};
const INT64 = ['minItems', 'maxItems', 'minProperties', 'maxProperties', 'minLength', 'maxLength'];

/** Problems of a Gemini `tools` value (PROVIDERS.md §3, §6 cases 21-33). */
export function checkGooglePayload(payload: unknown): string[] {
  if (!Array.isArray(payload)) return ['payload is not an array of Tool objects'];
  const problems: string[] = [];
  payload.forEach((tool, toolIndex) => {
    if (!isObject(tool) || !Array.isArray(tool.functionDeclarations)) {
      problems.push(`tools[${toolIndex}]: no functionDeclarations array`);
      return;
    }
    tool.functionDeclarations.forEach((declaration, index) => {
      const where = `tools[${toolIndex}].function_declarations[${index}]`;
      if (!isObject(declaration)) {
        problems.push(`${where}: not an object`);
        return;
      }
      for (const key of Object.keys(declaration)) {
        if (!['name', 'description', 'parameters'].includes(key))
          problems.push(`${where}: unexpected field ${key}`);
      }
      if (typeof declaration.name !== 'string' || !NAME.test(declaration.name))
        problems.push(`${where}.name: Invalid function name ${JSON.stringify(declaration.name)}`);
      if (declaration.parameters === undefined) return;
      const parameters = declaration.parameters;
      if (!isObject(parameters) || parameters.type !== 'OBJECT') {
        problems.push(`${where}.parameters schema should be of type OBJECT`);
        return;
      }
      if (!isObject(parameters.properties) || Object.keys(parameters.properties).length === 0) {
        problems.push(`${where}.parameters.properties: should be non-empty for OBJECT type`);
      }
      checkSchema(parameters, `${where}.parameters`, problems);
    });
  });
  return problems;
}

function checkSchema(node: unknown, where: string, problems: string[]): void {
  if (!isObject(node)) {
    problems.push(`${where}: schema is not an object`);
    return;
  }
  for (const key of Object.keys(node)) {
    if (!SCHEMA_KEYS.has(key)) problems.push(`${where}: Unknown name "${key}": Cannot find field`);
  }
  const type = node.type;
  if (type !== undefined && (typeof type !== 'string' || !TYPES.has(type)))
    problems.push(`${where}.type: ${JSON.stringify(type)} is not a Type`);
  if (type === undefined && !Array.isArray(node.anyOf))
    problems.push(
      `${where}.type: must be specified when not using one_of, any_of or all_of fields`,
    );
  if (type !== undefined && Array.isArray(node.anyOf))
    problems.push(`${where}: type and anyOf cannot be both populated`);
  if (node.enum !== undefined) {
    if (type !== 'STRING') problems.push(`${where}.enum: only allowed for STRING type`);
    if (!Array.isArray(node.enum) || node.enum.some((value) => typeof value !== 'string'))
      problems.push(`${where}.enum: values must be strings`);
  }
  if (node.format !== undefined) {
    const allowed = typeof type === 'string' ? FORMATS[type] : undefined;
    if (allowed === undefined || !allowed.has(String(node.format)))
      problems.push(
        `${where}.format: ${JSON.stringify(node.format)} is not supported for ${String(type)}`,
      );
  }
  for (const key of INT64) {
    if (
      node[key] !== undefined &&
      (typeof node[key] !== 'string' || !/^\d+$/.test(node[key] as string))
    )
      problems.push(`${where}.${key}: not an int64 string`);
  }
  if (node.nullable !== undefined && typeof node.nullable !== 'boolean')
    problems.push(`${where}.nullable: not a boolean`);
  if (type === 'ARRAY') {
    if (node.items === undefined) problems.push(`${where}: ARRAY without items`);
    else checkSchema(node.items, `${where}.items`, problems);
  } else if (node.items !== undefined) problems.push(`${where}: items on ${String(type)}`);
  if (node.properties !== undefined) {
    if (type !== 'OBJECT') problems.push(`${where}: properties on ${String(type)}`);
    if (!isObject(node.properties) || Object.keys(node.properties).length === 0)
      problems.push(`${where}.properties: should be non-empty for OBJECT type`);
    else {
      for (const [name, child] of Object.entries(node.properties))
        checkSchema(child, `${where}.properties[${name}]`, problems);
    }
  }
  if (node.required !== undefined) {
    const properties = isObject(node.properties) ? (node.properties as Node) : {};
    (Array.isArray(node.required) ? node.required : []).forEach((name, index) => {
      if (typeof name !== 'string' || !Object.hasOwn(properties, name))
        problems.push(`${where}.required[${index}]: property is not defined`);
    });
  }
  if (Array.isArray(node.anyOf)) {
    if (node.anyOf.length === 0) problems.push(`${where}.anyOf: empty`);
    node.anyOf.forEach((branch, index) => {
      checkSchema(branch, `${where}.any_of[${index}]`, problems);
    });
  }
}
