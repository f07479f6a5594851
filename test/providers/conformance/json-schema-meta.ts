import { createRequire } from 'node:module';
import type { Ajv } from 'ajv';

const require = createRequire(import.meta.url);
let ajv2020: Ajv | undefined;
let ajv07: Ajv | undefined;

/**
 * Meta-schema problems of `schema` under JSON Schema 2020-12 (what Anthropic enforces: "JSON
 * schema is invalid. It must match JSON Schema draft 2020-12"), or under draft-07 when asked.
 */
export function metaSchemaProblems(
  schema: unknown,
  dialect: '2020-12' | 'draft-07' = '2020-12',
): string[] {
  const body = schema !== null && typeof schema === 'object' ? { ...(schema as object) } : schema;
  if (body !== null && typeof body === 'object') delete (body as { $schema?: unknown }).$schema;
  let engine: Ajv;
  let meta: string;
  if (dialect === '2020-12') {
    ajv2020 ??= new (require('ajv/dist/2020.js').default)({ strict: false }) as Ajv;
    engine = ajv2020;
    meta = 'https://json-schema.org/draft/2020-12/schema';
  } else {
    ajv07 ??= new (require('ajv').default)({ strict: false }) as Ajv;
    engine = ajv07;
    meta = 'http://json-schema.org/draft-07/schema';
  }
  const valid = engine.validate(meta, body);
  return valid
    ? []
    : (engine.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`);
}
