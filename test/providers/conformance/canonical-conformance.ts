import { isObject } from './walk-schema.js';

/** Problems of canonical tools (`--schema` output): the external tool discovery-time validation rules. */
export function checkCanonicalPayload(payload: unknown): string[] {
  if (!Array.isArray(payload)) return ['payload is not an array'];
  const problems: string[] = [];
  payload.forEach((entry, index) => {
    const where = `[${index}]`;
    if (!isObject(entry)) {
      problems.push(`${where}: not an object`);
      return;
    }
    if (typeof entry.name !== 'string' || !/^[A-Za-z0-9_]+$/.test(entry.name))
      problems.push(`${where}.name is not alphanumeric + underscore`);
    if (typeof entry.description !== 'string')
      problems.push(`${where}.description is not a string`);
    const parameters = entry.parameters;
    if (!isObject(parameters)) {
      problems.push(`${where}.parameters is not an object`);
      return;
    }
    if (parameters.type !== 'object') problems.push(`${where}.parameters.type is not "object"`);
    if (!isObject(parameters.properties))
      problems.push(`${where}.parameters.properties is missing`);
    const properties = isObject(parameters.properties) ? parameters.properties : {};
    for (const name of Array.isArray(parameters.required) ? parameters.required : []) {
      if (typeof name !== 'string' || !Object.hasOwn(properties, name))
        problems.push(`${where}.parameters.required lists undefined ${JSON.stringify(name)}`);
    }
  });
  return problems;
}
