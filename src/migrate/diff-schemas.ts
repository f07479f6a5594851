import { escapePointerToken } from '../format/json-pointer.js';
import { canonicalJson, jsonEqual } from './canonical-json.js';

/**
 * What a schema change does to the set of values the schema accepts. The caller turns it into a
 * semver bump: for an input schema, accepting fewer values breaks callers; for an output
 * schema, accepting more values breaks consumers.
 */
export type SchemaEffect =
  /** Accepts fewer values (a constraint was added or tightened). */
  | 'narrowed'
  /** Accepts more values (a constraint was removed or relaxed). */
  | 'widened'
  /** Incomparable: some old values are rejected and some new ones accepted, or unknowable. */
  | 'changed'
  /** A property disappeared: breaking in both directions. */
  | 'removed'
  /** An optional property appeared: additive in both directions. */
  | 'added'
  /** Documentation only (description, title, examples, default, unknown keywords). */
  | 'annotation';

/** Stable names of the schema changes `diffSchemas` reports. */
export type SchemaChangeKind =
  | 'property_removed'
  | 'property_added'
  | 'required_property_added'
  | 'property_became_required'
  | 'property_became_optional'
  | 'type_narrowed'
  | 'type_widened'
  | 'type_changed'
  | 'enum_value_removed'
  | 'enum_value_added'
  | 'constraint_tightened'
  | 'constraint_relaxed'
  | 'constraint_changed'
  | 'variant_removed'
  | 'variant_added'
  | 'schema_changed'
  | 'schema_description_changed'
  | 'schema_title_changed'
  | 'schema_examples_changed'
  | 'schema_default_changed'
  | 'schema_annotation_changed';

/** One difference between two schemas. */
export interface SchemaChange {
  kind: SchemaChangeKind;
  effect: SchemaEffect;
  /** JSON Pointer of the change in the NEW document, or in the OLD one for removals. */
  pointer: string;
  message: string;
}

/** Where the two schemas sit in their documents, and how to name their parts in messages. */
export interface DiffSchemasOptions {
  /** Pointer of the old schema inside the OLD document (e.g. `/tools/0/input_schema`). */
  oldPointer: string;
  /** Pointer of the new schema inside the NEW document. */
  newPointer: string;
  /** How to call the root in messages, e.g. `input_schema`. */
  rootLabel: string;
  /** How to call a property in messages, e.g. `parameter` or `output field`. */
  noun: string;
}

interface Location {
  oldPointer: string;
  newPointer: string;
  /** Dotted display path from the root: `filters.tags[]`; empty at the root. */
  path: string;
}

interface Context {
  options: DiffSchemasOptions;
  changes: SchemaChange[];
}

const LOWER_BOUNDS = [
  'minimum',
  'exclusiveMinimum',
  'minLength',
  'minItems',
  'minProperties',
  'minContains',
] as const;
const UPPER_BOUNDS = [
  'maximum',
  'exclusiveMaximum',
  'maxLength',
  'maxItems',
  'maxProperties',
  'maxContains',
] as const;
/** Validation keywords this module does not model: any difference is `schema_changed`. */
const OPAQUE_VALIDATION_KEYWORDS = new Set([
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'dependencies',
  'patternProperties',
  'propertyNames',
  'contains',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
  'contentMediaType',
  'contentEncoding',
  'contentSchema',
  '$dynamicRef',
  '$dynamicAnchor',
  '$anchor',
  '$recursiveRef',
  '$recursiveAnchor',
  '$ref',
]);
const MODELED_KEYWORDS = new Set<string>([
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'prefixItems',
  'anyOf',
  'oneOf',
  'allOf',
  '$defs',
  'definitions',
  'multipleOf',
  'pattern',
  'format',
  'uniqueItems',
  ...LOWER_BOUNDS,
  ...UPPER_BOUNDS,
]);
const ANNOTATION_KINDS: Readonly<Record<string, SchemaChangeKind>> = {
  description: 'schema_description_changed',
  title: 'schema_title_changed',
  examples: 'schema_examples_changed',
  default: 'schema_default_changed',
};

/**
 * Compares two JSON Schemas recursively (properties of nested objects, array items, tuple
 * entries, anyOf/oneOf/allOf branches, $defs) and lists every difference with its effect on
 * the accepted values. Keywords it cannot reason about (`not`, `if`, `$ref` targets, ...)
 * are reported as `schema_changed` when they differ. Schemas must be finite trees (the loader
 * bounds their depth).
 */
export function diffSchemas(
  oldSchema: unknown,
  newSchema: unknown,
  options: DiffSchemasOptions,
): SchemaChange[] {
  const context: Context = { options, changes: [] };
  walk(oldSchema, newSchema, { ...options, path: '' }, context);
  return context.changes;
}

function walk(oldNode: unknown, newNode: unknown, at: Location, context: Context): void {
  if (!isObject(oldNode) || !isObject(newNode)) {
    compareBooleanSchemas(oldNode, newNode, at, context);
    return;
  }
  compareType(oldNode, newNode, at, context);
  compareEnum(oldNode, newNode, at, context);
  compareConst(oldNode, newNode, at, context);
  compareProperties(oldNode, newNode, at, context);
  compareSubschema('additionalProperties', oldNode, newNode, at, context, '.*');
  compareItems(oldNode, newNode, at, context);
  compareSchemaList('prefixItems', oldNode, newNode, at, context, 'tuple');
  compareSchemaList('anyOf', oldNode, newNode, at, context, 'variants');
  compareSchemaList('oneOf', oldNode, newNode, at, context, 'variants');
  compareSchemaList('allOf', oldNode, newNode, at, context, 'conjunction');
  compareDefinitions('$defs', oldNode, newNode, at, context);
  compareDefinitions('definitions', oldNode, newNode, at, context);
  for (const keyword of LOWER_BOUNDS) compareBound(keyword, 'lower', oldNode, newNode, at, context);
  for (const keyword of UPPER_BOUNDS) compareBound(keyword, 'upper', oldNode, newNode, at, context);
  compareMultipleOf(oldNode, newNode, at, context);
  comparePresence('pattern', oldNode, newNode, at, context);
  comparePresence('format', oldNode, newNode, at, context);
  compareUniqueItems(oldNode, newNode, at, context);
  compareRemainingKeywords(oldNode, newNode, at, context);
}

function compareBooleanSchemas(
  oldNode: unknown,
  newNode: unknown,
  at: Location,
  context: Context,
): void {
  if (jsonEqual(oldNode, newNode)) return;
  const oldAccepts = acceptance(oldNode);
  const newAccepts = acceptance(newNode);
  const subject = label(at, context);
  if (oldAccepts === 'all' && newAccepts === 'all') {
    report(
      context,
      'schema_annotation_changed',
      'annotation',
      at.newPointer,
      `${subject}: annotations changed (still unconstrained)`,
    );
  } else if (oldAccepts === 'all') {
    report(
      context,
      'constraint_tightened',
      'narrowed',
      at.newPointer,
      `${subject} is now constrained (${describeSchema(newNode)}; was unconstrained)`,
    );
  } else if (newAccepts === 'all') {
    report(
      context,
      'constraint_relaxed',
      'widened',
      at.newPointer,
      `${subject} is no longer constrained (was ${describeSchema(oldNode)})`,
    );
  } else if (newAccepts === 'none') {
    report(
      context,
      'constraint_tightened',
      'narrowed',
      at.newPointer,
      `${subject} now rejects every value (false; was ${describeSchema(oldNode)})`,
    );
  } else if (oldAccepts === 'none') {
    report(
      context,
      'constraint_relaxed',
      'widened',
      at.newPointer,
      `${subject} now accepts values (${describeSchema(newNode)}; was false)`,
    );
  } else {
    report(
      context,
      'schema_changed',
      'changed',
      at.newPointer,
      `${subject} changed from ${describeSchema(oldNode)} to ${describeSchema(newNode)}`,
    );
  }
}

/** `all` for `true`, `{}` and absent; `none` for `false`; `some` for any other schema. */
function acceptance(node: unknown): 'all' | 'none' | 'some' {
  if (node === undefined || node === true) return 'all';
  if (node === false) return 'none';
  if (isObject(node) && Object.keys(node).every((key) => isAnnotationKeyword(key))) return 'all';
  return 'some';
}

function compareType(
  oldNode: Record<string, unknown>,
  newNode: Record<string, unknown>,
  at: Location,
  context: Context,
): void {
  const oldTypes = typeSet(oldNode.type);
  const newTypes = typeSet(newNode.type);
  if (oldTypes === undefined && newTypes === undefined) return;
  const pointer = `${at.newPointer}/type`;
  const subject = label(at, context);
  if (oldTypes === undefined) {
    report(
      context,
      'type_narrowed',
      'narrowed',
      pointer,
      `${subject} is now restricted to type ${formatTypes(newTypes!)} (had no type)`,
    );
    return;
  }
  if (newTypes === undefined) {
    report(
      context,
      'type_widened',
      'widened',
      pointer,
      `${subject} no longer restricts its type (was ${formatTypes(oldTypes)})`,
    );
    return;
  }
  const newCoversOld = [...oldTypes].every((type) => coversType(newTypes, type));
  const oldCoversNew = [...newTypes].every((type) => coversType(oldTypes, type));
  if (newCoversOld && oldCoversNew) return;
  const change = `from ${formatTypes(oldTypes)} to ${formatTypes(newTypes)}`;
  if (newCoversOld) {
    report(context, 'type_widened', 'widened', pointer, `${subject} type widened ${change}`);
  } else if (oldCoversNew) {
    report(context, 'type_narrowed', 'narrowed', pointer, `${subject} type narrowed ${change}`);
  } else {
    report(context, 'type_changed', 'changed', pointer, `${subject} type changed ${change}`);
  }
}

function typeSet(type: unknown): Set<string> | undefined {
  if (typeof type === 'string') return new Set([type]);
  if (Array.isArray(type)) return new Set(type.filter((entry) => typeof entry === 'string'));
  return undefined;
}

/** `integer` values are also `number` values. */
function coversType(types: ReadonlySet<string>, type: string): boolean {
  return types.has(type) || (type === 'integer' && types.has('number'));
}

function formatTypes(types: ReadonlySet<string>): string {
  const list = [...types];
  return list.length === 1 ? JSON.stringify(list[0]) : JSON.stringify(list);
}

function compareEnum(
  oldNode: Record<string, unknown>,
  newNode: Record<string, unknown>,
  at: Location,
  context: Context,
): void {
  const oldEnum = Array.isArray(oldNode.enum) ? oldNode.enum : undefined;
  const newEnum = Array.isArray(newNode.enum) ? newNode.enum : undefined;
  if (oldEnum === undefined && newEnum === undefined) return;
  const subject = label(at, context);
  if (oldEnum === undefined) {
    report(
      context,
      'constraint_tightened',
      'narrowed',
      `${at.newPointer}/enum`,
      `${subject} is now limited to the enum ${JSON.stringify(newEnum)}`,
    );
    return;
  }
  if (newEnum === undefined) {
    report(
      context,
      'constraint_relaxed',
      'widened',
      `${at.newPointer}`,
      `${subject} is no longer limited to the enum ${JSON.stringify(oldEnum)}`,
    );
    return;
  }
  const newValues = new Set(newEnum.map(canonicalJson));
  const oldValues = new Set(oldEnum.map(canonicalJson));
  oldEnum.forEach((value, index) => {
    if (newValues.has(canonicalJson(value))) return;
    report(
      context,
      'enum_value_removed',
      'narrowed',
      `${at.oldPointer}/enum/${index}`,
      `${subject} no longer accepts the enum value ${JSON.stringify(value)}`,
    );
  });
  newEnum.forEach((value, index) => {
    if (oldValues.has(canonicalJson(value))) return;
    report(
      context,
      'enum_value_added',
      'widened',
      `${at.newPointer}/enum/${index}`,
      `${subject} accepts the new enum value ${JSON.stringify(value)}`,
    );
  });
}

function compareConst(
  oldNode: Record<string, unknown>,
  newNode: Record<string, unknown>,
  at: Location,
  context: Context,
): void {
  const hadConst = Object.hasOwn(oldNode, 'const');
  const hasConst = Object.hasOwn(newNode, 'const');
  if (!hadConst && !hasConst) return;
  const subject = label(at, context);
  if (!hadConst) {
    report(
      context,
      'constraint_tightened',
      'narrowed',
      `${at.newPointer}/const`,
      `${subject} must now equal the const ${JSON.stringify(newNode.const)}`,
    );
  } else if (!hasConst) {
    report(
      context,
      'constraint_relaxed',
      'widened',
      at.newPointer,
      `${subject} no longer has to equal the const ${JSON.stringify(oldNode.const)}`,
    );
  } else if (!jsonEqual(oldNode.const, newNode.const)) {
    report(
      context,
      'constraint_changed',
      'changed',
      `${at.newPointer}/const`,
      `${subject} const changed from ${JSON.stringify(oldNode.const)} to ${JSON.stringify(newNode.const)}`,
    );
  }
}

function compareProperties(
  oldNode: Record<string, unknown>,
  newNode: Record<string, unknown>,
  at: Location,
  context: Context,
): void {
  const oldProperties = isObject(oldNode.properties) ? oldNode.properties : {};
  const newProperties = isObject(newNode.properties) ? newNode.properties : {};
  const oldRequired = stringArray(oldNode.required);
  const newRequired = stringArray(newNode.required);
  const { noun } = context.options;

  for (const name of Object.keys(oldProperties)) {
    if (Object.hasOwn(newProperties, name)) continue;
    const path = joinPath(at.path, name);
    report(
      context,
      'property_removed',
      'removed',
      `${at.oldPointer}/properties/${escapePointerToken(name)}`,
      `${noun} "${path}" was removed`,
    );
  }
  for (const name of Object.keys(newProperties)) {
    const child = childLocation(at, ['properties', name], ['properties', name], name);
    if (Object.hasOwn(oldProperties, name)) {
      walk(oldProperties[name], newProperties[name], child, context);
      continue;
    }
    if (newRequired.includes(name)) {
      report(
        context,
        'required_property_added',
        'narrowed',
        child.newPointer,
        `required ${noun} "${child.path}" was added; values without it are now rejected`,
      );
    } else {
      report(
        context,
        'property_added',
        'added',
        child.newPointer,
        `optional ${noun} "${child.path}" was added`,
      );
    }
  }
  newRequired.forEach((name, index) => {
    if (oldRequired.includes(name)) return;
    if (!Object.hasOwn(oldProperties, name) && Object.hasOwn(newProperties, name)) return;
    report(
      context,
      'property_became_required',
      'narrowed',
      `${at.newPointer}/required/${index}`,
      `${noun} "${joinPath(at.path, name)}" became required`,
    );
  });
  oldRequired.forEach((name, index) => {
    if (newRequired.includes(name)) return;
    if (Object.hasOwn(oldProperties, name) && !Object.hasOwn(newProperties, name)) return;
    report(
      context,
      'property_became_optional',
      'widened',
      Object.hasOwn(newProperties, name)
        ? `${at.newPointer}/properties/${escapePointerToken(name)}`
        : `${at.oldPointer}/required/${index}`,
      `${noun} "${joinPath(at.path, name)}" became optional`,
    );
  });
}

function compareSubschema(
  keyword: 'additionalProperties' | 'items',
  oldNode: Record<string, unknown>,
  newNode: Record<string, unknown>,
  at: Location,
  context: Context,
  pathSuffix: string,
): void {
  const oldValue = oldNode[keyword];
  const newValue = newNode[keyword];
  if (oldValue === undefined && newValue === undefined) return;
  const child: Location = {
    oldPointer: `${at.oldPointer}/${keyword}`,
    newPointer: Object.hasOwn(newNode, keyword) ? `${at.newPointer}/${keyword}` : at.newPointer,
    path: at.path === '' ? pathSuffix.replace(/^\./, '') : `${at.path}${pathSuffix}`,
  };
  if (isObject(oldValue) && isObject(newValue)) {
    walk(oldValue, newValue, child, context);
    return;
  }
  if (jsonEqual(oldValue ?? true, newValue ?? true)) return;
  if (keyword === 'additionalProperties') {
    describeAdditionalProperties(oldValue, newValue, child, at, context);
    return;
  }
  compareBooleanSchemas(oldValue, newValue, child, context);
}

function describeAdditionalProperties(
  oldValue: unknown,
  newValue: unknown,
  child: Location,
  at: Location,
  context: Context,
): void {
  const subject = label(at, context);
  const oldAccepts = acceptance(oldValue);
  const newAccepts = acceptance(newValue);
  if (newAccepts === 'none') {
    report(
      context,
      'constraint_tightened',
      'narrowed',
      child.newPointer,
      `${subject}: additionalProperties closed (was ${oldAccepts === 'all' ? 'open' : describeSchema(oldValue)}); undeclared properties are now rejected`,
    );
  } else if (oldAccepts === 'none') {
    report(
      context,
      'constraint_relaxed',
      'widened',
      child.newPointer,
      `${subject}: additionalProperties opened (now ${newAccepts === 'all' ? 'any value' : describeSchema(newValue)}; was false)`,
    );
  } else {
    compareBooleanSchemas(oldValue, newValue, child, context);
  }
}

function compareItems(
  oldNode: Record<string, unknown>,
  newNode: Record<string, unknown>,
  at: Location,
  context: Context,
): void {
  // draft-07 tuple form: "items": [schema, ...]
  if (Array.isArray(oldNode.items) || Array.isArray(newNode.items)) {
    if (Array.isArray(oldNode.items) && Array.isArray(newNode.items)) {
      compareSchemaList('items', oldNode, newNode, at, context, 'tuple');
    } else if (!jsonEqual(oldNode.items, newNode.items)) {
      report(
        context,
        'schema_changed',
        'changed',
        `${at.newPointer}/items`,
        `${label(at, context)} switched between tuple and list items`,
      );
    }
    return;
  }
  compareSubschema('items', oldNode, newNode, at, context, '[]');
}

function compareSchemaList(
  keyword: 'prefixItems' | 'anyOf' | 'oneOf' | 'allOf' | 'items',
  oldNode: Record<string, unknown>,
  newNode: Record<string, unknown>,
  at: Location,
  context: Context,
  mode: 'tuple' | 'variants' | 'conjunction',
): void {
  const oldList = Array.isArray(oldNode[keyword]) ? (oldNode[keyword] as unknown[]) : undefined;
  const newList = Array.isArray(newNode[keyword]) ? (newNode[keyword] as unknown[]) : undefined;
  if (oldList === undefined && newList === undefined) return;
  const subject = label(at, context);
  if (oldList === undefined || newList === undefined) {
    // adding a tuple, a variant list or a conjunction constrains; removing one relaxes
    const added = oldList === undefined;
    report(
      context,
      added ? 'constraint_tightened' : 'constraint_relaxed',
      added ? 'narrowed' : 'widened',
      added ? `${at.newPointer}/${keyword}` : at.newPointer,
      `${subject}: ${keyword} ${added ? 'added' : 'removed'}`,
    );
    return;
  }
  const childAt = (oldIndex: number, newIndex: number): Location =>
    childLocation(at, [keyword, oldIndex], [keyword, newIndex], `${keyword}[${newIndex}]`, '|');
  if (mode === 'tuple') {
    const shared = Math.min(oldList.length, newList.length);
    for (let index = 0; index < shared; index++) {
      walk(oldList[index], newList[index], childAt(index, index), context);
    }
    if (newList.length > oldList.length) {
      report(
        context,
        'constraint_tightened',
        'narrowed',
        `${at.newPointer}/${keyword}/${shared}`,
        `${subject}: ${newList.length - shared} ${keyword} position(s) added`,
      );
    } else if (oldList.length > newList.length) {
      report(
        context,
        'constraint_relaxed',
        'widened',
        `${at.newPointer}/${keyword}`,
        `${subject}: ${oldList.length - shared} ${keyword} position(s) removed`,
      );
    }
    return;
  }
  // match identical entries wherever they moved, then pair the rest in order
  const newKeys = newList.map(canonicalJson);
  const matchedNew = new Set<number>();
  const unmatchedOld: number[] = [];
  oldList.forEach((entry, oldIndex) => {
    const key = canonicalJson(entry);
    const newIndex = newKeys.findIndex(
      (candidate, index) => candidate === key && !matchedNew.has(index),
    );
    if (newIndex >= 0) matchedNew.add(newIndex);
    else unmatchedOld.push(oldIndex);
  });
  const unmatchedNew = newList.map((_, index) => index).filter((index) => !matchedNew.has(index));
  const paired = Math.min(unmatchedOld.length, unmatchedNew.length);
  for (let index = 0; index < paired; index++) {
    const oldIndex = unmatchedOld[index]!;
    const newIndex = unmatchedNew[index]!;
    walk(oldList[oldIndex], newList[newIndex], childAt(oldIndex, newIndex), context);
  }
  const variants = mode === 'variants';
  for (const oldIndex of unmatchedOld.slice(paired)) {
    report(
      context,
      variants ? 'variant_removed' : 'constraint_relaxed',
      variants ? 'narrowed' : 'widened',
      `${at.oldPointer}/${keyword}/${oldIndex}`,
      `${subject}: ${keyword} entry ${describeSchema(oldList[oldIndex])} was removed`,
    );
  }
  for (const newIndex of unmatchedNew.slice(paired)) {
    report(
      context,
      variants ? 'variant_added' : 'constraint_tightened',
      variants ? 'widened' : 'narrowed',
      `${at.newPointer}/${keyword}/${newIndex}`,
      `${subject}: ${keyword} entry ${describeSchema(newList[newIndex])} was added`,
    );
  }
}

function compareDefinitions(
  keyword: '$defs' | 'definitions',
  oldNode: Record<string, unknown>,
  newNode: Record<string, unknown>,
  at: Location,
  context: Context,
): void {
  const oldDefinitions = isObject(oldNode[keyword]) ? oldNode[keyword] : {};
  const newDefinitions = isObject(newNode[keyword]) ? newNode[keyword] : {};
  for (const name of Object.keys(oldDefinitions)) {
    if (Object.hasOwn(newDefinitions, name)) {
      walk(
        oldDefinitions[name],
        newDefinitions[name],
        childLocation(at, [keyword, name], [keyword, name], `${keyword}.${name}`),
        context,
      );
    } else {
      // the loader rejects a $ref to a missing definition, so a removed one was unused
      report(
        context,
        'schema_annotation_changed',
        'annotation',
        `${at.oldPointer}/${keyword}/${escapePointerToken(name)}`,
        `unused definition ${keyword}/${name} was removed`,
      );
    }
  }
  for (const name of Object.keys(newDefinitions)) {
    if (Object.hasOwn(oldDefinitions, name)) continue;
    report(
      context,
      'schema_annotation_changed',
      'annotation',
      `${at.newPointer}/${keyword}/${escapePointerToken(name)}`,
      `definition ${keyword}/${name} was added (it matters only where a $ref uses it)`,
    );
  }
}

function compareBound(
  keyword: string,
  side: 'lower' | 'upper',
  oldNode: Record<string, unknown>,
  newNode: Record<string, unknown>,
  at: Location,
  context: Context,
): void {
  const oldValue = oldNode[keyword];
  const newValue = newNode[keyword];
  if (typeof oldValue === 'number' && typeof newValue === 'number' && oldValue !== newValue) {
    const raised = newValue > oldValue;
    const tightened = side === 'lower' ? raised : !raised;
    report(
      context,
      tightened ? 'constraint_tightened' : 'constraint_relaxed',
      tightened ? 'narrowed' : 'widened',
      `${at.newPointer}/${keyword}`,
      `${label(at, context)}: ${keyword} ${raised ? 'raised' : 'lowered'} from ${oldValue} to ${newValue}`,
    );
    return;
  }
  comparePresence(keyword, oldNode, newNode, at, context);
}

function compareMultipleOf(
  oldNode: Record<string, unknown>,
  newNode: Record<string, unknown>,
  at: Location,
  context: Context,
): void {
  const oldValue = oldNode.multipleOf;
  const newValue = newNode.multipleOf;
  if (typeof oldValue === 'number' && typeof newValue === 'number' && oldValue !== newValue) {
    // multiples of 10 are multiples of 5: moving 5 → 10 tightens, 10 → 5 relaxes
    const subject = label(at, context);
    const pointer = `${at.newPointer}/multipleOf`;
    const message = `${subject}: multipleOf changed from ${oldValue} to ${newValue}`;
    if (Number.isInteger(newValue / oldValue)) {
      report(context, 'constraint_tightened', 'narrowed', pointer, message);
    } else if (Number.isInteger(oldValue / newValue)) {
      report(context, 'constraint_relaxed', 'widened', pointer, message);
    } else {
      report(context, 'constraint_changed', 'changed', pointer, message);
    }
    return;
  }
  comparePresence('multipleOf', oldNode, newNode, at, context);
}

/**
 * A constraint keyword added (narrows), removed (widens) or changed to a value that cannot be
 * ordered against the old one.
 */
function comparePresence(
  keyword: string,
  oldNode: Record<string, unknown>,
  newNode: Record<string, unknown>,
  at: Location,
  context: Context,
): void {
  const oldValue = oldNode[keyword];
  const newValue = newNode[keyword];
  if (jsonEqual(oldValue, newValue)) return;
  const subject = label(at, context);
  if (oldValue === undefined) {
    report(
      context,
      'constraint_tightened',
      'narrowed',
      `${at.newPointer}/${keyword}`,
      `${subject}: ${keyword} ${JSON.stringify(newValue)} added`,
    );
  } else if (newValue === undefined) {
    report(
      context,
      'constraint_relaxed',
      'widened',
      at.newPointer,
      `${subject}: ${keyword} ${JSON.stringify(oldValue)} removed`,
    );
  } else {
    report(
      context,
      'constraint_changed',
      'changed',
      `${at.newPointer}/${keyword}`,
      `${subject}: ${keyword} changed from ${JSON.stringify(oldValue)} to ${JSON.stringify(newValue)}`,
    );
  }
}

function compareUniqueItems(
  oldNode: Record<string, unknown>,
  newNode: Record<string, unknown>,
  at: Location,
  context: Context,
): void {
  const before = oldNode.uniqueItems === true;
  const after = newNode.uniqueItems === true;
  if (before === after) return;
  report(
    context,
    after ? 'constraint_tightened' : 'constraint_relaxed',
    after ? 'narrowed' : 'widened',
    after ? `${at.newPointer}/uniqueItems` : at.newPointer,
    `${label(at, context)}: uniqueItems ${after ? 'added' : 'removed'}`,
  );
}

function compareRemainingKeywords(
  oldNode: Record<string, unknown>,
  newNode: Record<string, unknown>,
  at: Location,
  context: Context,
): void {
  const keywords = new Set([...Object.keys(oldNode), ...Object.keys(newNode)]);
  const subject = label(at, context);
  for (const keyword of keywords) {
    if (MODELED_KEYWORDS.has(keyword)) continue;
    const oldValue = oldNode[keyword];
    const newValue = newNode[keyword];
    if (jsonEqual(oldValue, newValue)) continue;
    const pointer =
      newValue === undefined ? at.newPointer : `${at.newPointer}/${escapePointerToken(keyword)}`;
    if (OPAQUE_VALIDATION_KEYWORDS.has(keyword)) {
      report(
        context,
        'schema_changed',
        'changed',
        pointer,
        `${subject}: "${keyword}" changed; toolcap cannot classify this keyword, so it counts as breaking`,
      );
      continue;
    }
    const kind = Object.hasOwn(ANNOTATION_KINDS, keyword)
      ? ANNOTATION_KINDS[keyword]!
      : 'schema_annotation_changed';
    const verb = oldValue === undefined ? 'added' : newValue === undefined ? 'removed' : 'changed';
    report(context, kind, 'annotation', pointer, `${subject}: ${keyword} ${verb}`);
  }
}

function isAnnotationKeyword(keyword: string): boolean {
  return !MODELED_KEYWORDS.has(keyword) && !OPAQUE_VALIDATION_KEYWORDS.has(keyword);
}

function report(
  context: Context,
  kind: SchemaChangeKind,
  effect: SchemaEffect,
  pointer: string,
  message: string,
): void {
  context.changes.push({ kind, effect, pointer, message });
}

function label(at: Location, context: Context): string {
  return at.path === '' ? context.options.rootLabel : `${context.options.noun} "${at.path}"`;
}

function childLocation(
  at: Location,
  oldTokens: readonly (string | number)[],
  newTokens: readonly (string | number)[],
  name: string,
  separator = '.',
): Location {
  const suffix = (tokens: readonly (string | number)[]) =>
    tokens.map((token) => `/${escapePointerToken(token)}`).join('');
  return {
    oldPointer: `${at.oldPointer}${suffix(oldTokens)}`,
    newPointer: `${at.newPointer}${suffix(newTokens)}`,
    path: at.path === '' ? name : `${at.path}${separator}${name}`,
  };
}

function joinPath(path: string, name: string): string {
  return path === '' ? name : `${path}.${name}`;
}

function describeSchema(node: unknown): string {
  const text = JSON.stringify(node) ?? 'undefined';
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((entry) => typeof entry === 'string') : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
