#!/usr/bin/env node
// Compiles schemas/tool-group.schema.json into standalone ajv validators so that loading
// group files never imports or compiles ajv at run time (start-up cost; see README "Performance").
// Usage: node scripts/generate-validators.mjs          write src/format/generated/group-validators.ts
//        node scripts/generate-validators.mjs --check  fail if the committed file is stale
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv as AjvDraft07 } from 'ajv';
import standaloneCode from 'ajv/dist/standalone/index.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const schemaPath = join(root, 'schemas/tool-group.schema.json');
const outputPath = join(root, 'src/format/generated/group-validators.ts');

/**
 * The keywords of the fast tool validator's schemas: those real tool schemas use. Counted over
 * the 527 LiveMCPBench tools (type, title, description, default, properties, required, anyOf,
 * $schema, additionalProperties, items, enum, const, bounds, $ref, format, pattern, not once)
 * and the BFCL functions (type, description, default, properties, required, enum, items,
 * format, bounds); `definitions` is draft-07's `$defs`. Each keyword costs every subschema a
 * property test, so rarer ones (`$comment`, `readOnly`, `multipleOf`, ...) are left to the full
 * validator.
 */
// biome-ignore format: one line per group of related keywords
const FAST_SCHEMA_KEYWORDS = [
  '$schema', '$ref', '$defs', 'definitions',
  'type', 'title', 'description', 'default', 'examples',
  'properties', 'required', 'additionalProperties', 'items', 'enum', 'const',
  'anyOf', 'oneOf', 'allOf',
  'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'minLength', 'maxLength', 'pattern', 'format',
  'minItems', 'maxItems', 'uniqueItems',
];

/** The group schema's `$defs` holding its two meta-schemas (tool schemas' dialects). */
const META_SCHEMAS = ['schema2020', 'schemaDraft07'];

/**
 * The tool schema with its two meta-schemas narrowed to FAST_SCHEMA_KEYWORDS and closed
 * (`additionalProperties: false`), every kept keyword checked exactly as in the full schema.
 * What it accepts, the full schema accepts, so the loader runs the full validator (and reports
 * its errors) only for a tool the fast one rejects. ajv's code for the full meta-schema tests
 * every one of its ~60 keywords on every subschema (`data.$id !== undefined`, ...); this one
 * tests 29 plus one loop over the subschema's own keys: about a third less validation time.
 */
function fastToolSchema(body) {
  // a misspelled keyword would quietly send every schema using it down the slow path
  const known = new Set(META_SCHEMAS.flatMap((name) => Object.keys(body.$defs[name].properties)));
  const unknown = FAST_SCHEMA_KEYWORDS.filter((keyword) => !known.has(keyword));
  if (unknown.length > 0) throw new Error(`FAST_SCHEMA_KEYWORDS: unknown keywords ${unknown}`);
  const fast = structuredClone(body);
  fast.$id = `${body.$id.replace(/\.json$/, '')}.fast.json`;
  for (const name of META_SCHEMAS) {
    const metaSchema = fast.$defs[name];
    for (const keyword of Object.keys(metaSchema.properties)) {
      if (!FAST_SCHEMA_KEYWORDS.includes(keyword)) delete metaSchema.properties[keyword];
    }
    metaSchema.additionalProperties = false;
  }
  return fast;
}

/** One ajv sub-validator call's context argument, as the standalone code writes it. */
const CALL_CONTEXT =
  /\{instancePath:instancePath\+[^{}]*?,parentData:[^{}]*?,parentDataProperty:[^{}]*?,rootData\}/g;

/**
 * The fast validator's code with every sub-validator call passed one shared context object
 * instead of a new one. ajv builds, for each subschema it recurses into, an object and the
 * error path of that subschema (`instancePath + "/properties/" + key` with two regex replaces
 * of the key): about 200 bytes of garbage a subschema, 30 MB per load at 10,000 tools, paid even
 * when nothing fails. The fast validator's errors are never read (it only decides whether the
 * full validator must run and explain), so its error paths need not be right. ajv has no option
 * for this; the rewrite is checked: it must find calls, and leave none in the fast section.
 */
function withoutErrorPaths(code) {
  const start = code.indexOf('export const validateToolFast');
  if (start < 0 || code.indexOf('export const', start + 1) >= 0) {
    throw new Error('ajv standalone output: expected validateToolFast to be the last export');
  }
  const fastCode = code.slice(start);
  let calls = 0;
  const rewritten = fastCode.replace(CALL_CONTEXT, () => {
    calls++;
    return 'FAST_CALL_CONTEXT';
  });
  if (calls === 0 || /parentDataProperty:[^,}]*,rootData\}/.test(rewritten)) {
    throw new Error(
      'ajv standalone output: the fast validator calls changed shape; update CALL_CONTEXT',
    );
  }
  const constant =
    'const FAST_CALL_CONTEXT = Object.freeze({instancePath:"",parentData:undefined,parentDataProperty:undefined,rootData:undefined});';
  return `${code.slice(0, start)}${constant}${rewritten}`;
}

export function generateValidatorSource() {
  const schema = JSON.parse(readFileSync(schemaPath, 'utf8'));
  // compiled with ajv's base (draft-07) class, the file's $schema left out: the group schema
  // uses no keyword that needs 2020-12, and Ajv2020 always tracks the properties each subschema
  // evaluated (for unevaluatedProperties), an object per validated subschema: ~40 MB of garbage
  // and 8-13% of the load time at 10,000 tools. A test checks that the draft-07 compile keeps
  // every keyword (strict mode rejects unknown ones) and validates as Ajv2020 does.
  const { $schema, ...body } = schema;
  const ajv = new AjvDraft07({
    allErrors: true,
    strict: true,
    strictTypes: false,
    allowUnionTypes: true,
    code: { source: true, esm: true, lines: false },
  });
  ajv.addSchema(body);
  const fast = fastToolSchema(body);
  ajv.addSchema(fast);
  const id = schema.$id;
  const code = standaloneCode(ajv, {
    validateGroupHeader: `${id}#/$defs/groupHeader`,
    validateTool: `${id}#/$defs/tool`,
    validateToolFast: `${fast.$id}#/$defs/tool`,
  });
  // ajv's ESM output still calls require() for its runtime helpers (ucs2length, equal);
  // a module-local require works the same in Node and in vitest
  const importLines = [
    "import { createRequire } from 'node:module';",
    'const require = createRequire(import.meta.url);',
  ];
  return [
    '// @ts-nocheck',
    '// Generated by scripts/generate-validators.mjs from schemas/tool-group.schema.json. Do not edit.',
    ...importLines,
    withoutErrorPaths(code),
    '',
  ].join('\n');
}

const source = generateValidatorSource();
if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(outputPath, 'utf8');
  } catch {}
  if (current !== source) {
    console.error(
      `${outputPath} is stale: schemas/tool-group.schema.json changed. Run "npm run generate" and commit the result.`,
    );
    process.exit(1);
  }
} else {
  writeFileSync(outputPath, source);
  console.log(`wrote ${outputPath} (${source.length} bytes)`);
}
