import { escapePointerToken } from '../../format/json-pointer.js';
import type { JsonSchema } from '../../format/types.js';

/** The `--schema` answer of an external tool: `{ name, description, parameters }`. */
export interface ExternalToolSchema {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/** A broken external-tool `--schema` rule; `pointer` is inside the `--schema` answer. */
export interface ExternalSchemaProblem {
  code: string;
  pointer: string;
  message: string;
}

const PROPERTY_TYPES = ['string', 'integer', 'number', 'boolean', 'array', 'object'];
const NAME_PATTERN = /^[A-Za-z0-9_]+$/;

/**
 * Checks an external tool's parsed `--schema` answer: `name`, `description` and `parameters`
 * present; the name is letters, digits and underscores; `parameters` has `type: "object"` and
 * `properties`; every property (nested ones and array items too) has a valid `type`;
 * `required` only lists defined properties. That the answer is valid JSON is the caller's
 * check.
 */
export function checkExternalToolSchema(
  value: unknown,
): { ok: true; schema: ExternalToolSchema } | { ok: false; problems: ExternalSchemaProblem[] } {
  const problems: ExternalSchemaProblem[] = [];
  if (!isObject(value)) {
    return {
      ok: false,
      problems: [
        {
          code: 'ROOT_NOT_OBJECT',
          pointer: '',
          message: `the --schema answer must be a JSON object {"name", "description", "parameters"}, not ${describe(value)}`,
        },
      ],
    };
  }
  for (const field of ['name', 'description', 'parameters']) {
    if (!Object.hasOwn(value, field)) {
      problems.push({
        code: 'MISSING_FIELD',
        pointer: '',
        message: `the --schema answer has no "${field}"; an external tool's --schema answer must have name, description and parameters: add "${field}"`,
      });
    }
  }
  const { name, description, parameters } = value;
  if (Object.hasOwn(value, 'name')) {
    if (typeof name !== 'string' || !NAME_PATTERN.test(name)) {
      problems.push({
        code: 'INVALID_TOOL_NAME',
        pointer: '/name',
        message: `name ${JSON.stringify(name)} must be letters, digits and underscores only (snake_case, e.g. "file_edit")`,
      });
    }
  }
  if (
    Object.hasOwn(value, 'description') &&
    (typeof description !== 'string' || description.trim() === '')
  ) {
    problems.push({
      code: 'INVALID_FIELD',
      pointer: '/description',
      message: 'description must be a non-empty string: what the tool does, shown to the model',
    });
  }
  if (Object.hasOwn(value, 'parameters')) {
    if (!isObject(parameters) || parameters.type !== 'object' || !isObject(parameters.properties)) {
      problems.push({
        code: 'ROOT_SCHEMA_NOT_OBJECT',
        pointer: '/parameters',
        message:
          'parameters must be {"type": "object", "properties": {...}} ({} properties for a tool without arguments)',
      });
    } else {
      checkObjectSchema(parameters, '/parameters', problems);
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    schema: {
      name: name as string,
      description: description as string,
      parameters: parameters as JsonSchema,
    },
  };
}

function checkObjectSchema(
  schema: Record<string, unknown>,
  pointer: string,
  problems: ExternalSchemaProblem[],
): void {
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const [key, property] of Object.entries(properties)) {
    checkPropertySchema(
      property,
      `${pointer}/properties/${escapePointerToken(key)}`,
      `property "${key}"`,
      problems,
    );
  }
  if (!Object.hasOwn(schema, 'required')) return;
  const required = schema.required;
  if (!Array.isArray(required)) {
    problems.push({
      code: 'INVALID_FIELD',
      pointer: `${pointer}/required`,
      message: 'required must be an array of property names',
    });
    return;
  }
  required.forEach((entry, index) => {
    if (typeof entry !== 'string' || !Object.hasOwn(properties, entry)) {
      const defined = Object.keys(properties);
      problems.push({
        code: 'REQUIRED_NOT_DEFINED',
        pointer: `${pointer}/required/${index}`,
        message: `required lists ${JSON.stringify(entry)}, which is not defined in properties (defined: ${defined.length > 0 ? defined.join(', ') : 'none'})`,
      });
    }
  });
}

function checkPropertySchema(
  property: unknown,
  pointer: string,
  what: string,
  problems: ExternalSchemaProblem[],
): void {
  if (!isObject(property)) {
    problems.push({
      code: 'PROPERTY_TYPE_MISSING',
      pointer,
      message: `${what} must be a schema object with a "type"`,
    });
    return;
  }
  if (!Object.hasOwn(property, 'type')) {
    problems.push({
      code: 'PROPERTY_TYPE_MISSING',
      pointer,
      message: `${what} has no "type"; use one of ${PROPERTY_TYPES.join(', ')}`,
    });
    return;
  }
  if (typeof property.type !== 'string' || !PROPERTY_TYPES.includes(property.type)) {
    problems.push({
      code: 'INVALID_PROPERTY_TYPE',
      pointer: `${pointer}/type`,
      message: `${what} has type ${JSON.stringify(property.type)}; use one of ${PROPERTY_TYPES.join(', ')}`,
    });
    return;
  }
  if (property.type === 'array') {
    if (!Object.hasOwn(property, 'items')) {
      problems.push({
        code: 'ARRAY_ITEMS_MISSING',
        pointer,
        message: `${what} is an array without "items"; add "items" with the element schema`,
      });
    } else {
      checkPropertySchema(property.items, `${pointer}/items`, `the items of ${what}`, problems);
    }
  }
  if (property.type === 'object' && isObject(property.properties)) {
    checkObjectSchema(property, pointer, problems);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
