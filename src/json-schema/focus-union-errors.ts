import type { ErrorObject } from 'ajv';
import { getAtPointer } from '../format/json-pointer.js';
import type { JsonSchema } from '../format/types.js';
import { isPlainObject, jsonTypeOf } from './schema-node.js';

/** An ajv error as reported, or the issue that replaces a failed union's error. */
export interface FocusedError {
  error: ErrorObject;
  /** Set for a union whose errors were summarized: the issue to report instead of `error`. */
  replacement?: { pointer: string; keyword: string; message: string };
}

/** The property that tells a union's variants apart, and the values each variant allows. */
interface Discriminator {
  name: string;
  /** Per variant, its allowed values as JSON text. */
  values: readonly (readonly string[])[];
}

/**
 * ajv's errors for a value with a failed `anyOf`/`oneOf` list the complaints of every branch,
 * so a model is told to add the fields of variants it did not mean (`missing required property
 * "address"` for a Slack target). When the branches are told apart by a property whose
 * `const`/`enum` values differ (a Zod discriminated union: `kind: "email" | "sms" | "slack"`):
 * a value whose property picks one branch keeps only that branch's errors, and the union's
 * error becomes a note naming the branch; any other value (property missing or matching no
 * branch, not an object) gets one issue listing the variants instead of every branch's errors.
 * Unions without such a property are left as ajv reports them, and so are unions inside a
 * recursive `$ref`, whose paths are not the root's. `errors` come from an engine with ajv's
 * `verbose` option; `schema` is the root the errors' `schemaPath`s point into; `data` the
 * validated value; `subject` names it (`input`).
 */
export function focusUnionErrors(
  errors: readonly ErrorObject[],
  schema: JsonSchema,
  data: unknown,
  subject: string,
): FocusedError[] {
  let items: FocusedError[] = [];
  for (const error of errors) {
    // ajv reports a union after its branches' errors, so nested unions are focused first
    items = (isFailedUnion(error) && focusUnion(items, error, schema, data, subject)) || [
      ...items,
      { error },
    ];
  }
  return items;
}

function isFailedUnion(error: ErrorObject): boolean {
  if (error.keyword === 'anyOf') return true;
  // a oneOf that several branches passed has no branch errors to focus
  return (
    error.keyword === 'oneOf' &&
    (error.params as { passingSchemas?: unknown }).passingSchemas == null
  );
}

function focusUnion(
  items: readonly FocusedError[],
  error: ErrorObject,
  schema: JsonSchema,
  data: unknown,
  subject: string,
): FocusedError[] | undefined {
  const branches = atFragment(schema, error.schemaPath);
  // inside a $ref ajv could not inline (a recursive schema), paths are relative to its target
  if (branches !== error.schema || !Array.isArray(branches) || branches.length < 2) {
    return undefined;
  }
  const discriminator = findDiscriminator(branches.map((branch) => resolveRef(schema, branch)));
  if (discriminator === undefined) return undefined;
  const reaches = branches.map((_, index) => reachOf(schema, `${error.schemaPath}/${index}`));
  const { instancePath } = error;
  const branchesOf = (item: FocusedError): number[] => {
    const path = item.error.instancePath;
    if (path !== instancePath && !path.startsWith(`${instancePath}/`)) return [];
    return reaches.flatMap((reach, index) =>
      inReach(item.error.schemaPath, reach) ? [index] : [],
    );
  };
  const where = instancePath === '' ? subject : instancePath;
  const value = getAtPointer(data, instancePath);
  const { name } = discriminator;
  const tag = isPlainObject(value) && Object.hasOwn(value, name) ? value[name] : undefined;
  const chosen = chooseBranch(discriminator, tag);
  if (chosen !== undefined) {
    const kept = items.filter((item) => {
      const owners = branchesOf(item);
      return owners.length === 0 || owners.includes(chosen);
    });
    const message = `${where} was checked as the variant for ${name} ${JSON.stringify(tag)}`;
    return [
      ...kept,
      { error, replacement: { pointer: instancePath, keyword: error.keyword, message } },
    ];
  }
  const variants = discriminator.values.flat();
  const listed =
    variants.length > 1
      ? `${variants.slice(0, -1).join(', ')} or ${variants[variants.length - 1]}`
      : variants.join('');
  const found = !isPlainObject(value)
    ? `it is of type ${jsonTypeOf(value)}, not an object`
    : tag === undefined
      ? `"${name}" is missing`
      : `"${name}" is ${JSON.stringify(tag)}`;
  const message = `${where} must match one of its variants, told apart by "${name}": ${listed}; ${found}`;
  return [
    ...items.filter((item) => branchesOf(item).length === 0),
    { error, replacement: { pointer: instancePath, keyword: error.keyword, message } },
  ];
}

/**
 * The first property every branch defines with a `const` or `enum` (possibly behind a local
 * `$ref`) such that no value is allowed by two branches.
 */
function findDiscriminator(branches: readonly unknown[]): Discriminator | undefined {
  const properties = branches.map((branch) =>
    isPlainObject(branch) && isPlainObject(branch.properties) ? branch.properties : undefined,
  );
  const first = properties[0];
  if (first === undefined || properties.includes(undefined)) return undefined;
  for (const name of Object.keys(first)) {
    const values = properties.map((props) =>
      Object.hasOwn(props!, name) ? allowedValues(props![name]) : undefined,
    );
    if (values.includes(undefined)) continue;
    const all = values.flat() as string[];
    if (new Set(all).size === all.length) return { name, values: values as string[][] };
  }
  return undefined;
}

function allowedValues(property: unknown): string[] | undefined {
  if (!isPlainObject(property)) return undefined;
  if (Object.hasOwn(property, 'const')) return [JSON.stringify(property.const)];
  if (Array.isArray(property.enum) && property.enum.length > 0) {
    return property.enum.map((value) => JSON.stringify(value));
  }
  return undefined;
}

function chooseBranch({ values }: Discriminator, tag: unknown): number | undefined {
  if (tag === undefined) return undefined;
  const text = JSON.stringify(tag);
  const matches = values.flatMap((allowed, index) => (allowed.includes(text) ? [index] : []));
  return matches.length === 1 ? matches[0] : undefined;
}

/** A branch with its local `$ref`s followed (at most 32, so a loop cannot hang). */
function resolveRef(schema: JsonSchema, branch: unknown): unknown {
  let current = branch;
  for (let step = 0; step < 32; step++) {
    if (!isPlainObject(current) || typeof current.$ref !== 'string') return current;
    if (!current.$ref.startsWith('#')) return current;
    current = atFragment(schema, current.$ref);
  }
  return current;
}

/**
 * The schema locations (URI fragments, as ajv's `schemaPath`s spell them) a branch's errors can
 * come from: the branch itself and every local `$ref` target reachable from it.
 */
function reachOf(schema: JsonSchema, fragment: string): Set<string> {
  const reach = new Set([fragment]);
  const queue = [fragment];
  while (queue.length > 0) {
    const stack: unknown[] = [atFragment(schema, queue.pop()!)];
    while (stack.length > 0) {
      const node = stack.pop();
      if (Array.isArray(node)) {
        stack.push(...node);
      } else if (isPlainObject(node)) {
        const ref = node.$ref;
        if (typeof ref === 'string' && ref.startsWith('#') && !reach.has(ref)) {
          reach.add(ref);
          queue.push(ref);
        }
        stack.push(...Object.values(node));
      }
    }
  }
  return reach;
}

function inReach(schemaPath: string, reach: ReadonlySet<string>): boolean {
  for (const prefix of reach) {
    if (schemaPath === prefix || schemaPath.startsWith(prefix === '#' ? '#/' : `${prefix}/`)) {
      return true;
    }
  }
  return false;
}

/** The node at a URI fragment (`#/properties/a~1b/anyOf`, percent-encoded) of `schema`. */
function atFragment(schema: JsonSchema, fragment: string): unknown {
  let pointer: string;
  try {
    pointer = decodeURIComponent(fragment.slice(fragment.indexOf('#') + 1));
  } catch {
    return undefined;
  }
  if (pointer !== '' && !pointer.startsWith('/')) return undefined;
  return getAtPointer(schema, pointer);
}
