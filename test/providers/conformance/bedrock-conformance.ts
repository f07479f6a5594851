import { metaSchemaProblems } from './json-schema-meta.js';
import { isObject, walkSchema } from './walk-schema.js';

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Problems of a Bedrock Converse `toolConfig.tools` value (PROVIDERS.md §4.1, §6 cases 34-35). */
export function checkBedrockPayload(payload: unknown): string[] {
  if (!Array.isArray(payload)) return ['payload is not an array'];
  const problems: string[] = [];
  payload.forEach((entry, index) => {
    const where = `toolConfig.tools.${index}`;
    if (isObject(entry) && isObject(entry.cachePoint)) {
      if (entry.cachePoint.type !== 'default')
        problems.push(`${where}.cachePoint.type is not "default"`);
      return;
    }
    if (!isObject(entry) || !isObject(entry.toolSpec)) {
      problems.push(`${where}: not a toolSpec`);
      return;
    }
    const spec = entry.toolSpec;
    if (typeof spec.name !== 'string' || !NAME.test(spec.name))
      problems.push(`${where}.toolSpec.name failed to satisfy constraint`);
    if (
      spec.description !== undefined &&
      (typeof spec.description !== 'string' || spec.description.length < 1)
    ) {
      problems.push(
        `${where}.member.toolSpec.description: Member must have length greater than or equal to 1`,
      );
    }
    const json = isObject(spec.inputSchema) ? spec.inputSchema.json : undefined;
    if (!isObject(json)) {
      problems.push(`${where}.toolSpec.inputSchema.json: Provide a json object`);
      return;
    }
    if (json.type !== 'object')
      problems.push(`${where}.toolSpec.inputSchema.json.type must be one of the following: object`);
    for (const keyword of ['oneOf', 'anyOf', 'allOf']) {
      if (Object.hasOwn(json, keyword))
        problems.push(`${where}.toolSpec.inputSchema.json: ${keyword} at the top level`);
    }
    walkSchema(json, (node, pointer) => {
      if (isObject(node) && typeof node.$ref === 'string')
        problems.push(`${where}${pointer}: $ref left in (not every Bedrock model resolves it)`);
    });
    for (const problem of metaSchemaProblems(json))
      problems.push(`${where}: not valid 2020-12: ${problem}`);
  });
  return problems;
}
